import { randomUUID } from "node:crypto";
import { CsvError, parse } from "csv-parse";
import type { Knex } from "knex";
import type { AppDeps } from "../deps";
import { fileStorage } from "../storage";
import { accountPrefix } from "../storage/keys";
import { type DataTransferInput, IMPORT_CHUNK_ROWS } from "../temporal/contracts";
import { storeCsv } from "./files";
import { type CsvRow, writeChunk } from "./importChunks";
import { normaliseHeader } from "./importRows";
import { startTransferRun } from "./runs";

/** The longest CSV record read; a longer one fails the import as a malformed file. */
const MAX_RECORD_BYTES = 64 * 1024;

export interface DataImportRow {
  id: string;
  account_id: string;
  user_id: string | null;
  data_type: string;
  status: "pending" | "processing" | "completed" | "failed";
  file_key: string;
  file_name: string;
  columns: string[] | null;
  next_byte: string;
  next_row: number;
  total_records: number | null;
  processed_records: number;
  rejected_records: number;
  failed_records_key: string | null;
  processing_errors: string | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** contacts#import: the file is stored, a data import made and its workflow started. */
export async function startContactImport(deps: AppDeps, input: { accountId: number; userId: number | null; path: string; fileName: string }): Promise<number> {
  const key = `${accountPrefix(input.accountId)}data_imports/${randomUUID()}.csv`;
  await fileStorage().put(key, { path: input.path }, "text/csv");
  const [row] = await deps
    .knex("data_imports")
    .insert({ account_id: input.accountId, user_id: input.userId, file_key: key, file_name: input.fileName.slice(0, 255) })
    .returning("id");
  const id = Number(row.id);
  await startTransferRun(deps, "import", { accountId: input.accountId, id });
  return id;
}

async function markFailed(db: Knex, id: number, reason: string) {
  await db("data_imports")
    .where("id", id)
    .whereNotIn("status", ["completed", "failed"])
    .update({ status: "failed", processing_errors: reason, completed_at: db.fn.now(), updated_at: db.fn.now() });
}

const finished = (row: DataImportRow) => row.status === "completed" || row.status === "failed" || row.total_records !== null;

/**
 * Reads the import's next chunk from where the last one ended (the stored file from that byte on)
 * and writes it (writeChunk). A file csv-parse cannot read fails the import, as Chatwoot's
 * DataImportJob marks a malformed CSV failed. Answers whether the whole file has been read.
 */
export async function importContactChunk(db: Knex, input: DataTransferInput, chunkRows = IMPORT_CHUNK_ROWS): Promise<{ done: boolean }> {
  const row: DataImportRow | undefined = await db("data_imports").where({ id: input.id, account_id: input.accountId }).first();
  if (!row || finished(row)) return { done: true };
  const start = Number(row.next_byte);
  const object = await fileStorage().get(row.file_key, { start });
  if (!object) {
    await markFailed(db, input.id, "The import file is missing");
    return { done: true };
  }
  const parser = parse({ bom: start === 0, info: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_BYTES });
  object.body.on("error", (err) => parser.destroy(err));
  object.body.pipe(parser);
  // The header as the file has it (the failed-records CSV repeats it), matched in normalised form.
  let columns = row.columns && normaliseHeader(row.columns);
  const header: string[] | undefined = columns ? undefined : [];
  const rows: CsvRow[] = [];
  let nextByte = start;
  let eof = true;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
      if (!columns) {
        columns = normaliseHeader(record);
        header!.push(...record);
      } else if (rows.length === chunkRows) {
        // One record more than the chunk: the file goes on past it.
        eof = false;
        break;
      } else rows.push({ rowNumber: row.next_row + rows.length + 1, values: record });
      nextByte = start + info.bytes;
    }
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    await markFailed(db, input.id, `Malformed CSV: ${err.message}`);
    return { done: true };
  } finally {
    object.body.destroy();
    parser.destroy();
  }
  if (!columns) {
    await markFailed(db, input.id, "The file is empty");
    return { done: true };
  }
  await writeChunk(db, input.id, row.next_row, columns, rows, {
    nextByte,
    nextRow: row.next_row + rows.length,
    eof,
    ...(header ? { columns: header } : {}),
  });
  return { done: eof };
}

async function* rejectionPages(db: Knex, importId: number): AsyncIterable<unknown[][]> {
  let after = 0;
  for (;;) {
    const page: { row_number: number; values: string[]; errors: string }[] = await db("data_import_rejections")
      .where("data_import_id", importId)
      .where("row_number", ">", after)
      .orderBy("row_number")
      .limit(1000);
    if (!page.length) return;
    yield page.map((r) => [...r.values, r.errors]);
    after = page.at(-1)!.row_number;
  }
}

/** The failed-records CSV's name, as Chatwoot names it: the day's date and `_contacts.csv`. */
const failedRecordsName = (at: Date) => `${at.toISOString().slice(0, 10).replace(/-/g, "")}_contacts.csv`;

/**
 * The import's end: its rejected rows as the failed-records CSV (the file's columns and `errors`),
 * then completed with its counts. The CSV's key is the import's own, so a retry only writes it again.
 */
export async function finishContactImport(db: Knex, input: DataTransferInput): Promise<{ status: string; processed: number; rejected: number }> {
  const row: DataImportRow | undefined = await db("data_imports").where({ id: input.id, account_id: input.accountId }).first();
  if (!row) return { status: "missing", processed: 0, rejected: 0 };
  const summary = (status: string) => ({ status, processed: row.processed_records, rejected: row.rejected_records });
  if (row.status === "completed" || row.status === "failed") return summary(row.status);
  let failedKey: string | null = null;
  if (row.rejected_records > 0) {
    failedKey = `${accountPrefix(input.accountId)}data_imports/${input.id}/${failedRecordsName(row.created_at)}`;
    await storeCsv(failedKey, [...(row.columns ?? []), "errors"], rejectionPages(db, input.id));
  }
  await db.transaction(async (trx) => {
    await trx("data_imports")
      .where("id", input.id)
      .update({ status: "completed", failed_records_key: failedKey, completed_at: trx.fn.now(), updated_at: trx.fn.now() });
    await trx("data_import_keys").where("data_import_id", input.id).delete();
  });
  return summary("completed");
}

/** The failed-records CSV's download name. */
export const failedRecordsFileName = (row: Pick<DataImportRow, "created_at">) => failedRecordsName(row.created_at);
