import type { Knex } from "knex";
import { NotFound, ValidationError } from "../errors";
import type { Contact } from "../models/Contact";
import { loadMembers, type Member } from "../models/InboxMember";
import { Note } from "../models/Note";
import { presentNote } from "../presenters/note";
import { recordEvent } from "../events/outbox";

type NoteEvent = "contact_note_created" | "contact_note_updated" | "contact_note_deleted";

/** Notes with their authors as agents of the account (absent once the author has left it). */
export async function presentNotes(accountId: number, notes: Note[], db?: Knex) {
  const authors = await loadMembers(accountId, [...new Set(notes.flatMap((note) => (note.user_id ? [Number(note.user_id)] : [])))], db);
  const byId = new Map<number, Member>(authors.map((member) => [member.user.id, member]));
  return notes.map((note) => presentNote(note, note.user_id ? byId.get(Number(note.user_id)) : undefined));
}

/** The note in the contact's events (the outbox), with the contact it belongs to, in the change's transaction. */
async function recordNoteEvent(trx: Knex.Transaction, name: NoteEvent, note: Note): Promise<void> {
  const [presented] = await presentNotes(note.account_id, [note], trx);
  await recordEvent(trx, {
    accountId: note.account_id,
    name,
    payload: { ...presented, account_id: Number(note.account_id), contact_id: Number(note.contact_id), event: name },
  });
}

/** The contact's notes, newest first, as Chatwoot's index. */
export async function listNotes(contact: Contact): Promise<Note[]> {
  return Note.query()
    .where({ account_id: contact.account_id, contact_id: contact.id })
    .orderBy([
      { column: "created_at", order: "desc" },
      { column: "id", order: "desc" },
    ]);
}

export async function findNote(contact: Contact, id: number, db?: Knex): Promise<Note> {
  const note = await Note.query(db).findOne({ id, account_id: contact.account_id, contact_id: contact.id });
  if (!note) throw NotFound();
  return note;
}

const blank = (content: string | undefined) => !content?.trim();

/** Note validates content and user presence; the author is the caller. */
export async function createNote(contact: Contact, userId: number, content: string | undefined): Promise<Note> {
  if (blank(content)) throw ValidationError.of("content", "can't be blank");
  return Note.transaction(async (trx) => {
    const note = await Note.query(trx).insert({ account_id: contact.account_id, contact_id: contact.id, user_id: userId, content: content! }).returning("*");
    await recordNoteEvent(trx, "contact_note_created", note);
    return note;
  });
}

/** Chatwoot's non-raising update: blank content is not saved, and the note comes back as it was. */
export async function updateNote(contact: Contact, id: number, content: string | undefined): Promise<Note> {
  return Note.transaction(async (trx) => {
    const current = await Note.query(trx).findOne({ id, account_id: contact.account_id, contact_id: contact.id }).forUpdate();
    if (!current) throw NotFound();
    if (blank(content) || content === current.content) return current;
    const updated = await Note.query(trx).patchAndFetchById(id, { content });
    await recordNoteEvent(trx, "contact_note_updated", updated);
    return updated;
  });
}

/** Deletes the note; of several deletes racing, one deletes it and records the event, the others find nothing. */
export async function destroyNote(contact: Contact, id: number): Promise<void> {
  await Note.transaction(async (trx) => {
    const [deleted] = (await Note.query(trx)
      .delete()
      .where({ id, account_id: contact.account_id, contact_id: contact.id })
      .returning("*")) as unknown as Note[];
    if (!deleted) throw NotFound();
    await recordNoteEvent(trx, "contact_note_deleted", deleted);
  });
}
