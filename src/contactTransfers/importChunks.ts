import type { Knex } from "knex";
import { sql } from "../db/sql";
import { fullMessage } from "../errors";
import { Contact } from "../models/Contact";
import { contactOfRow, type ImportedContact, matchKeys } from "./importRows";

export interface CsvRow {
  /** 1 for the first row after the header. */
  rowNumber: number;
  values: string[];
}

/** Where the chunk ends in the file, and what the first chunk learnt of it. */
export interface ChunkEnd {
  nextByte: number;
  nextRow: number;
  /** The chunk ended the file. */
  eof: boolean;
  /** The header row, written with the first chunk. */
  columns?: string[];
}

interface ContactRow {
  id: string;
  email: string | null;
  phone_number: string | null;
  identifier: string | null;
}

type Accepted = { row: CsvRow; contact: ImportedContact; existing?: ContactRow };

const keyOf = (kind: string, value: string) => `${kind}\u0000${value}`;

/**
 * Writes one chunk of an import in one transaction: the rows' contacts (an existing contact
 * matched by identifier, then email, then phone number is updated, as DataImport::ContactManager
 * does), the rejected rows with their errors, and the import's cursor and counts. The import row
 * is locked first and the chunk is written only if the cursor is still where the chunk starts, so a
 * retried or doubled chunk writes nothing twice. Answers whether it wrote the chunk.
 */
export async function writeChunk(db: Knex, importId: number, startRow: number, columns: string[], rows: CsvRow[], end: ChunkEnd): Promise<boolean> {
  return db.transaction(async (trx) => {
    const current = await trx("data_imports").where("id", importId).forUpdate().first("account_id", "next_row", "status");
    if (!current || Number(current.next_row) !== startRow || current.status === "completed" || current.status === "failed") return false;
    const accountId = Number(current.account_id);
    const rejected: { row: CsvRow; errors: string[] }[] = [];
    const candidates: { row: CsvRow; contact: ImportedContact }[] = [];
    for (const row of rows) {
      const outcome = contactOfRow(columns, row.values);
      if (outcome.ok) candidates.push({ row, contact: outcome.contact });
      else rejected.push({ row, errors: outcome.errors });
    }

    // A key an earlier row of the file used (in this chunk or an earlier one) rejects the row.
    const wanted = candidates.flatMap(({ contact }) => matchKeys(contact));
    const seen = new Set<string>();
    if (wanted.length) {
      const earlier: { kind: string; value: string }[] = await trx
        .select("k.kind", "k.value")
        .from("data_import_keys as k")
        .joinRaw("join unnest(?::text[], ?::text[]) as u(kind, value) on k.kind = u.kind and k.value = u.value", [
          wanted.map((key) => key.kind),
          wanted.map((key) => key.value),
        ])
        .where("k.data_import_id", importId);
      for (const key of earlier) seen.add(keyOf(key.kind, key.value));
    }
    const unique: { row: CsvRow; contact: ImportedContact }[] = [];
    for (const candidate of candidates) {
      const keys = matchKeys(candidate.contact);
      const repeated = keys.filter((key) => seen.has(keyOf(key.kind, key.value)));
      for (const key of keys) seen.add(keyOf(key.kind, key.value));
      if (repeated.length) rejected.push({ row: candidate.row, errors: repeated.map((key) => fullMessage(key.kind, "appears in an earlier row of the file")) });
      else unique.push(candidate);
    }

    const accepted = await matchExisting(trx, accountId, unique, rejected);
    await insertContacts(
      trx,
      accountId,
      accepted.filter((a) => !a.existing),
    );
    await updateContacts(trx, accepted);
    const keys = accepted.flatMap(({ contact }) => matchKeys(contact).map((key) => ({ data_import_id: importId, ...key })));
    if (keys.length) await trx("data_import_keys").insert(keys).onConflict(["data_import_id", "kind", "value"]).ignore();
    if (rejected.length) {
      const rejections = rejected.map(({ row, errors }) => ({
        data_import_id: importId,
        row_number: row.rowNumber,
        values: JSON.stringify(row.values),
        errors: errors.join(", "),
      }));
      await trx("data_import_rejections").insert(rejections).onConflict(["data_import_id", "row_number"]).ignore();
    }
    await trx("data_imports")
      .where("id", importId)
      .update({
        status: "processing",
        next_byte: end.nextByte,
        next_row: end.nextRow,
        processed_records: trx.raw("processed_records + ?", [accepted.length]),
        rejected_records: trx.raw("rejected_records + ?", [rejected.length]),
        ...(end.columns ? { columns: JSON.stringify(end.columns) } : {}),
        ...(end.eof ? { total_records: end.nextRow } : {}),
        updated_at: trx.fn.now(),
      });
    return true;
  });
}

/**
 * The account's contacts the rows match (identifier, then email, then phone number). A row whose
 * other keys belong to a different contact is rejected, as the contact's uniqueness checks would.
 */
async function matchExisting(
  trx: Knex.Transaction,
  accountId: number,
  rows: { row: CsvRow; contact: ImportedContact }[],
  rejected: { row: CsvRow; errors: string[] }[],
) {
  const values = (kind: "identifier" | "email" | "phone_number") => rows.map((r) => r.contact[kind]).filter((v): v is string => Boolean(v));
  const found: ContactRow[] = rows.length
    ? await trx("contacts")
        .where("account_id", accountId)
        .where((w) =>
          w
            .whereRaw("identifier = any(?::text[])", [values("identifier")])
            .orWhereRaw("lower(email) = any(?::text[])", [values("email")])
            .orWhereRaw("phone_number = any(?::text[])", [values("phone_number")]),
        )
        .select("id", "email", "phone_number", "identifier")
    : [];
  const by = {
    identifier: new Map(found.filter((c) => c.identifier).map((c) => [c.identifier!, c])),
    email: new Map(found.filter((c) => c.email).map((c) => [c.email!.toLowerCase(), c])),
    phone_number: new Map(found.filter((c) => c.phone_number).map((c) => [c.phone_number!, c])),
  };
  const accepted: Accepted[] = [];
  for (const { row, contact } of rows) {
    const owners = matchKeys(contact).map((key) => ({ kind: key.kind, owner: by[key.kind].get(key.value) }));
    const existing = owners.find((o) => o.owner)?.owner;
    const taken = owners.filter((o) => o.owner && o.owner.id !== existing?.id);
    if (taken.length) rejected.push({ row, errors: taken.map((o) => fullMessage(o.kind, "has already been taken")) });
    else accepted.push({ row, contact, ...(existing ? { existing } : {}) });
  }
  return accepted;
}

async function insertContacts(trx: Knex.Transaction, accountId: number, items: Accepted[]) {
  if (!items.length) return;
  const rows = items.map(({ contact }) => {
    const normalised = Contact.normalise({
      email: contact.email,
      phone_number: contact.phone_number,
      identifier: contact.identifier,
      additional_attributes: contact.additional_attributes,
    });
    return {
      account_id: accountId,
      name: contact.name ?? "",
      email: normalised.email ?? null,
      phone_number: normalised.phone_number ?? null,
      identifier: normalised.identifier ?? null,
      location: normalised.location ?? null,
      contact_type: normalised.contact_type ?? "visitor",
      additional_attributes: JSON.stringify(contact.additional_attributes),
      custom_attributes: JSON.stringify(contact.custom_attributes),
    };
  });
  await trx("contacts").insert(rows);
}

/**
 * The rows' non-blank values over their contacts' (a later row's over an earlier's, when rows of the
 * chunk match one contact by different keys); attributes merge. One statement for the chunk.
 */
async function updateContacts(trx: Knex.Transaction, items: Accepted[]) {
  const rowsOf = new Map<string, ImportedContact[]>();
  for (const { existing, contact } of items) {
    if (!existing) continue;
    const rows = rowsOf.get(existing.id);
    if (rows) rows.push(contact);
    else rowsOf.set(existing.id, [contact]);
  }
  if (!rowsOf.size) return;
  const merged = [...rowsOf].map(([id, rows]) => ({ id, ...mergeRows(rows) }));
  const column = (pick: (row: (typeof merged)[number]) => string | null) => merged.map(pick);
  await sql`update contacts as c set
      name = coalesce(u.name, c.name), email = coalesce(u.email, c.email), phone_number = coalesce(u.phone_number, c.phone_number),
      identifier = coalesce(u.identifier, c.identifier), location = coalesce(u.location, c.location),
      contact_type = case when c.contact_type = 'visitor' and coalesce(u.email, c.email, u.phone_number, c.phone_number) is not null
        then 'lead' else c.contact_type end,
      additional_attributes = c.additional_attributes || u.additional_attributes::jsonb,
      custom_attributes = c.custom_attributes || u.custom_attributes::jsonb, updated_at = now()
    from unnest(${column((row) => row.id)}::bigint[], ${column((row) => row.name)}::text[], ${column((row) => row.email)}::text[],
      ${column((row) => row.phone_number)}::text[], ${column((row) => row.identifier)}::text[],
      ${column((row) => row.additional_attributes.city ?? null)}::text[], ${column((row) => JSON.stringify(row.additional_attributes))}::text[],
      ${column((row) => JSON.stringify(row.custom_attributes))}::text[])
      as u(id, name, email, phone_number, identifier, location, additional_attributes, custom_attributes)
    where c.id = u.id`.raw(trx);
}

/** Rows applied one after the other: each non-blank value over the one before, attributes merged. */
function mergeRows(rows: ImportedContact[]): ImportedContact {
  return rows.reduce((before, row) => ({
    name: row.name ?? before.name,
    email: row.email ?? before.email,
    phone_number: row.phone_number ?? before.phone_number,
    identifier: row.identifier ?? before.identifier,
    additional_attributes: { ...before.additional_attributes, ...row.additional_attributes },
    custom_attributes: { ...before.custom_attributes, ...row.custom_attributes },
  }));
}
