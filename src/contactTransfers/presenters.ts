import type { Knex } from "knex";
import { iso } from "../presenters/time";
import { fileUrlSigner } from "../storage/urls";
import type { DataExportRow } from "./exports";
import { type DataImportRow, failedRecordsFileName } from "./imports";

/** A signed download link of an export's CSV. */
export async function exportDownloadUrl(db: Knex, accountId: number, key: string): Promise<string> {
  return (await fileUrlSigner(db)).url({ accountId, key, contentType: "text/csv", filename: "contacts.csv" });
}

interface TransferRow {
  id: number | string;
  account_id: number | string;
  data_type: string;
  status: string;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns imports and exports share, split where each puts its own between them. */
function transferColumns(row: TransferRow) {
  return {
    head: { id: Number(row.id), account_id: Number(row.account_id), data_type: row.data_type, status: row.status },
    times: { completed_at: iso(row.completed_at), created_at: iso(row.created_at), updated_at: iso(row.updated_at) },
  };
}

/** A data import as Rails' as_json writes the row, with its progress and the failed-records CSV's signed link. */
export async function presentDataImport(db: Knex, row: DataImportRow) {
  const accountId = Number(row.account_id);
  const { head, times } = transferColumns(row);
  return {
    ...head,
    file_name: row.file_name,
    total_records: row.total_records,
    processed_records: row.processed_records,
    rejected_records: row.rejected_records,
    processing_errors: row.processing_errors,
    failed_records_url: row.failed_records_key
      ? (await fileUrlSigner(db)).url({ accountId, key: row.failed_records_key, contentType: "text/csv", filename: failedRecordsFileName(row) })
      : null,
    ...times,
  };
}

/** A data export likewise, with its CSV's signed link once it is ready. */
export async function presentDataExport(db: Knex, row: DataExportRow) {
  const accountId = Number(row.account_id);
  const { head, times } = transferColumns(row);
  return {
    ...head,
    column_names: row.column_names,
    label: row.label,
    total_records: row.total_records,
    processed_records: row.processed_records,
    processing_errors: row.processing_errors,
    download_url: row.file_key ? await exportDownloadUrl(db, accountId, row.file_key) : null,
    ...times,
  };
}
