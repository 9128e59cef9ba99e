import type { Knex } from "knex";
import type { AppDeps } from "../deps";
import { recordEvent } from "../events/outbox";
import { type FilterCondition, filterCondition } from "../services/filters/sql";
import { accountPrefix } from "../storage/keys";
import type { DataTransferInput } from "../temporal/contracts";
import { storeCsv } from "./files";
import { startTransferRun } from "./runs";

/** The contact columns an export may name (Contact.column_names less the internal ones). */
export const EXPORTABLE_COLUMNS = [
  "id",
  "name",
  "email",
  "phone_number",
  "identifier",
  "additional_attributes",
  "custom_attributes",
  "contact_type",
  "location",
  "country_code",
  "blocked",
  "last_activity_at",
  "created_at",
  "updated_at",
] as const;
/** What an export without (known) column names has, as Account::ContactsExportJob defaults. */
export const DEFAULT_EXPORT_COLUMNS = ["id", "name", "email", "phone_number"];
const PAGE = 1000;

export interface DataExportRow {
  id: string;
  account_id: string;
  user_id: string | null;
  data_type: string;
  status: "pending" | "processing" | "completed" | "failed";
  column_names: string[];
  filter: FilterCondition[] | null;
  label: string | null;
  total_records: number | null;
  processed_records: number;
  file_key: string | null;
  processing_errors: string | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The requested columns Chatwoot would write: those that are contact columns, in the order asked, else the defaults. */
export function exportColumns(requested: string[] | undefined): string[] {
  const known = new Set<string>(EXPORTABLE_COLUMNS);
  const columns = [...new Set((requested ?? []).map((c) => c.trim()).filter((c) => known.has(c)))];
  return columns.length ? columns : DEFAULT_EXPORT_COLUMNS;
}

/**
 * contacts#export: checks the filter (Chatwoot's 422 for a bad one), makes the data export and
 * starts its workflow.
 */
export async function startContactExport(
  deps: AppDeps,
  input: { accountId: number; userId: number; columns: string[]; filter?: FilterCondition[]; label?: string },
): Promise<number> {
  if (input.filter?.length) await filterCondition(deps.knex, input.accountId, "contact", input.filter);
  const [row] = await deps
    .knex("data_exports")
    .insert({
      account_id: input.accountId,
      user_id: input.userId,
      column_names: JSON.stringify(input.columns),
      filter: input.filter?.length ? JSON.stringify(input.filter) : null,
      label: input.label || null,
    })
    .returning("id");
  const id = Number(row.id);
  await startTransferRun(deps, "export", { accountId: input.accountId, id });
  return id;
}

/** Rails' Time#to_s, as a CSV written from ActiveRecord values shows times. */
const railsTime = (value: Date) =>
  value
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");

function cell(value: unknown): unknown {
  if (value instanceof Date) return railsTime(value);
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return value;
}

/** The export's rows: the filter's matches, else the label's contacts, else every contact with an email, phone number or identifier. */
async function* exportPages(db: Knex, row: DataExportRow, heartbeat: () => void): AsyncIterable<unknown[][]> {
  const accountId = Number(row.account_id);
  const where = row.filter?.length ? await filterCondition(db, accountId, "contact", row.filter) : undefined;
  let after = 0;
  let processed = 0;
  for (;;) {
    const page: Record<string, unknown>[] = await db("contacts")
      .where("contacts.account_id", accountId)
      .where("contacts.id", ">", after)
      .modify((q) => {
        if (where) q.whereRaw(`(${where.sql})`, where.bindings as never);
        else if (row.label) q.whereRaw("contacts.labels && array[?]::text[]", [row.label]);
        else q.where((w) => w.whereNotNull("contacts.email").orWhereNotNull("contacts.phone_number").orWhereNotNull("contacts.identifier"));
      })
      .orderBy("contacts.id")
      .limit(PAGE)
      .select(row.column_names.map((c) => `contacts.${c}`).concat(row.column_names.includes("id") ? [] : ["contacts.id"]));
    if (!page.length) return;
    after = Number(page.at(-1)!.id);
    processed += page.length;
    yield page.map((contact) => row.column_names.map((column) => cell(contact[column])));
    await db("data_exports").where("id", row.id).update({ status: "processing", processed_records: processed, updated_at: db.fn.now() });
    heartbeat();
  }
}

/** The CSV's storage key: the export's own, so a retried export writes the same file again. */
export const exportKey = (accountId: number, id: number) => `${accountPrefix(accountId)}data_exports/${id}/contacts.csv`;

/**
 * Account::ContactsExportJob: the CSV written page by page and stored, then the export completed
 * and contact_export_completed recorded (its notification tells the requesting user), once.
 */
export async function runContactExport(db: Knex, input: DataTransferInput, heartbeat: () => void = () => {}): Promise<{ rows: number }> {
  const row: DataExportRow | undefined = await db("data_exports").where({ id: input.id, account_id: input.accountId }).first();
  if (!row) return { rows: 0 };
  if (row.status === "completed" || row.status === "failed") return { rows: row.total_records ?? 0 };
  const key = exportKey(input.accountId, input.id);
  const rows = await storeCsv(key, row.column_names, exportPages(db, row, heartbeat));
  await db.transaction(async (trx) => {
    const changed = await trx("data_exports")
      .where("id", input.id)
      .whereNot("status", "completed")
      .update({ status: "completed", total_records: rows, processed_records: rows, file_key: key, completed_at: trx.fn.now(), updated_at: trx.fn.now() });
    if (changed && row.user_id) {
      await recordEvent(trx, {
        accountId: input.accountId,
        name: "contact_export_completed",
        payload: { event: "contact_export_completed", data_export_id: input.id, user_id: Number(row.user_id), total_records: rows },
      });
    }
  });
  return { rows };
}
