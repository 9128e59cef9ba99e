import type { Knex } from "knex";
import { NotFound, ValidationError, type AttributeError } from "../errors";
import { definedOnly } from "../lib/objects";
import type { Contact } from "../models/Contact";
import { Conversation } from "../models/Conversation";
import { Label } from "../models/Label";
import type { LabelInput } from "../routes/api/labels/schema";
import { type AuditActor, auditChange } from "./audit";
import { changeConversation } from "../conversations/changes";
import { inUnit } from "../conversations/unit";

/** The attributes the audited gem records for a label (all but id and timestamps). */
const AUDITED = ["title", "description", "color", "show_on_sidebar", "account_id"] as const;

/** RegexHelper::UNICODE_CHARACTER_NUMBER_HYPHEN_UNDERSCORE: letters, digits, hyphens and underscores only. */
const TITLE_FORMAT = /^[\p{L}\p{N}_-]+$/u;

/** Label's validations: present (in Chatwoot's words), of the allowed characters, stored downcased. */
function checkedTitle(title: string | undefined): string {
  const value = (title ?? "").toLowerCase();
  const errors: AttributeError[] = [];
  if (!value.trim()) errors.push({ attribute: "title", message: "Title must not be blank" });
  if (!TITLE_FORMAT.test(value)) errors.push({ attribute: "title", message: "Title is invalid" });
  if (errors.length) throw new ValidationError(errors);
  return value;
}

async function assertTitleFree(db: Knex, accountId: number, title: string, exceptId?: number): Promise<void> {
  const taken = await Label.query(db)
    .where({ account_id: accountId, title })
    .whereNot("id", exceptId ?? 0)
    .first();
  if (taken) throw ValidationError.of("title", "has already been taken");
}

export async function findLabel(accountId: number, id: number): Promise<Label> {
  const label = await Label.query().findOne({ account_id: accountId, id });
  if (!label) throw NotFound();
  return label;
}

export async function createLabel(accountId: number, input: LabelInput, actor: AuditActor): Promise<Label> {
  const title = checkedTitle(input.title);
  return Label.transaction(async (trx) => {
    await assertTitleFree(trx, accountId, title);
    const label = await Label.query(trx)
      .insert({ account_id: accountId, title, ...definedOnly({ description: input.description, color: input.color, show_on_sidebar: input.show_on_sidebar }) })
      .returning("*");
    await auditChange(trx, actor, { accountId, auditableType: "Label", keys: AUDITED, after: label });
    return label;
  });
}

/**
 * Labels::UpdateJob's effect of a renamed label: conversations get the new title in place of the old
 * one (each an ordinary label change, with its event and activity), contacts likewise in one statement.
 * Runs in the rename's transaction, under the label's row lock, so concurrent renames apply in turn.
 */
async function renameOnTagged(trx: Knex.Transaction, accountId: number, from: string, to: string): Promise<void> {
  await trx("contacts")
    .where("account_id", accountId)
    .whereRaw("? = ANY(labels)", [from])
    .update({
      // A contact that already has the new title just loses the old one.
      labels: trx.raw("CASE WHEN ? = ANY(labels) THEN array_remove(labels, ?) ELSE array_replace(labels, ?, ?) END", [to, from, from, to]),
    });
  const tagged = await Conversation.query(trx).select("id").where("account_id", accountId).whereRaw("? = ANY(labels)", [from]).orderBy("id");
  await inUnit(trx, async (unit) => {
    for (const { id } of tagged) {
      const current = await Conversation.lock(unit.trx, id);
      const labels = [...new Set(current.labels.map((label) => (label === from ? to : label)))];
      await changeConversation(unit, id, { labels }, { actor: null });
    }
  });
}

export async function updateLabel(label: Label, input: LabelInput, actor: AuditActor): Promise<Label> {
  const title = input.title === undefined ? undefined : checkedTitle(input.title);
  return Label.transaction(async (trx) => {
    const before = await Label.query(trx).findById(label.id).forUpdate().throwIfNotFound();
    if (title !== undefined && title !== before.title) await assertTitleFree(trx, label.account_id, title, label.id);
    const after = await Label.query(trx).patchAndFetchById(
      label.id,
      definedOnly({ title, description: input.description, color: input.color, show_on_sidebar: input.show_on_sidebar }),
    );
    await auditChange(trx, actor, { accountId: label.account_id, auditableType: "Label", keys: AUDITED, before, after });
    if (before.title !== after.title) await renameOnTagged(trx, label.account_id, before.title, after.title);
    return after;
  });
}

export async function destroyLabel(label: Label, actor: AuditActor): Promise<void> {
  await Label.transaction(async (trx) => {
    const deleted = await Label.query(trx).delete().where({ id: label.id }).returning("*");
    if (deleted.length)
      await auditChange(trx, actor, { accountId: label.account_id, auditableType: "Label", keys: AUDITED, before: (deleted as unknown as Label[])[0]! });
  });
}

/** Contact#update_labels: the titles replace the contact's, trimmed and without duplicates, in the order given. */
export async function setContactLabels(contact: Contact, labels: string[]): Promise<string[]> {
  const unique = [...new Set(labels.map((label) => label.trim()).filter(Boolean))];
  const [row] = await Conversation.knex()("contacts").where({ id: contact.id }).update({ labels: unique, updated_at: new Date() }).returning("labels");
  return row.labels;
}
