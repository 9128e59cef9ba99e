import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { uploadedFile } from "../../../http/multipart";
import { page } from "../../../http/schemas";
import { filterRequest } from "../../../schemas/filter";

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/** contacts#import: a missing or blank `import_file` is the route's 422 ("File is blank"), as Chatwoot raises it. */
export const contactImportBody = z
  .object({ import_file: z.preprocess((value) => (isBlank(value) ? undefined : value), uploadedFile().optional()) })
  .openapi("ContactImportRequest");

/** contacts#export: column names, a filter payload as contacts/filter takes, or a label. */
export const contactExportBody = z
  .object({
    // An array, as Chatwoot takes it (`column_names & Contact.column_names` fails on a string there).
    column_names: z.array(z.string().max(MAX_LENGTH.string)).max(50).optional(),
    payload: z.preprocess((value) => (Array.isArray(value) && value.length === 0 ? undefined : value), filterRequest.shape.payload.optional()),
    label: z.string().max(MAX_LENGTH.string).nullable().optional(),
  })
  .openapi("ContactExportRequest");

export const transferListQuery = z.object({ page: page().optional() });

const common = {
  id: z.number(),
  account_id: z.number(),
  data_type: z.string(),
  status: z.enum(["pending", "processing", "completed", "failed"]),
  total_records: z.number().nullable(),
  processed_records: z.number(),
  processing_errors: z.string().nullable(),
  completed_at: z.string().nullable(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
};

export const dataImportResponse = z
  .object({ ...common, file_name: z.string(), rejected_records: z.number(), failed_records_url: z.string().nullable() })
  .openapi("DataImport");
export const dataExportResponse = z
  .object({ ...common, column_names: z.array(z.string()), label: z.string().nullable(), download_url: z.string().nullable() })
  .openapi("DataExport");
export const dataImportList = z.object({ payload: z.array(dataImportResponse) });
export const dataExportList = z.object({ payload: z.array(dataExportResponse) });
