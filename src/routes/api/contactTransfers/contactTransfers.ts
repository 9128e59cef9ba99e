import { ApiError, NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { headOk } from "../../../http/headOk";
import type { ApiRouter } from "../../../http/router";
import { accountParams, accountResourceParams, pageNumber } from "../../../http/schemas";
import { requireAdministrator } from "../../../policies";
import { userIdOf } from "../../../policies/conversations";
import { type DataExportRow, exportColumns, startContactExport } from "../../../contactTransfers/exports";
import { type DataImportRow, startContactImport } from "../../../contactTransfers/imports";
import { presentDataExport, presentDataImport } from "../../../contactTransfers/presenters";
import { contactExportBody, contactImportBody, dataExportList, dataExportResponse, dataImportList, dataImportResponse, transferListQuery } from "./schema";

const PER_PAGE = 15;

/** The account's rows of a transfer table, newest first, a page at a time. */
function pageOf(ctx: AppContext, table: "data_imports" | "data_exports", pageParam: unknown) {
  return ctx.deps
    .knex(table)
    .where("account_id", ctx.state.account!.id)
    .orderBy("id", "desc")
    .limit(PER_PAGE)
    .offset((pageNumber(pageParam) - 1) * PER_PAGE);
}

/**
 * Chatwoot's contacts#import and contacts#export (ContactPolicy: administrators), each run by a
 * workflow, and the progress of both: data_imports (Chatwoot's model, which it serves no route
 * for) and data_exports.
 */
export function registerContactTransferRoutes(router: ApiRouter) {
  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path: "/accounts/:account_id/contacts/import",
      summary:
        "Import contacts from a CSV (multipart import_file): 200 empty, the import runs as a Temporal workflow; its progress is at the Location header (data_imports/:id)",
      multipart: ({ maxUploadBytes }) => ({ maxFileBytes: maxUploadBytes, maxFiles: 1 }),
      params: accountParams,
      body: contactImportBody,
    },
    async (ctx, { body }) => {
      const file = body.import_file;
      if (!file || file.size === 0) throw new ApiError(422, { error: "File is blank" });
      if (file.truncated) throw new ApiError(422, { error: "File is too large" });
      const accountId = ctx.state.account!.id;
      const id = await startContactImport(ctx.deps, { accountId, userId: userIdOf(ctx), path: file.path, fileName: file.filename });
      ctx.set("Location", `/api/v1/accounts/${accountId}/data_imports/${id}`);
      headOk(ctx);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path: "/accounts/:account_id/contacts/export",
      summary:
        "Export contacts as CSV (column_names, a filter payload or a label): 200 empty; a workflow stores the CSV and notifies the caller with a signed link (data_exports/:id at the Location header)",
      params: accountParams,
      body: contactExportBody,
    },
    async (ctx, { body }) => {
      const accountId = ctx.state.account!.id;
      const id = await startContactExport(ctx.deps, {
        accountId,
        userId: userIdOf(ctx),
        columns: exportColumns(body.column_names),
        ...(body.payload ? { filter: body.payload } : {}),
        ...(body.label ? { label: body.label } : {}),
      });
      ctx.set("Location", `/api/v1/accounts/${accountId}/data_exports/${id}`);
      headOk(ctx);
    },
  );

  for (const kind of ["data_imports", "data_exports"] as const) {
    const present = (ctx: AppContext, row: unknown) =>
      kind === "data_imports" ? presentDataImport(ctx.deps.knex, row as DataImportRow) : presentDataExport(ctx.deps.knex, row as DataExportRow);
    const what = kind === "data_imports" ? "contact imports" : "contact exports";
    router.route(
      {
        authorize: requireAdministrator,
        method: "get",
        path: `/accounts/:account_id/${kind}`,
        summary: `The account's ${what}, newest first, 15 a page, with their progress`,
        params: accountParams,
        query: transferListQuery,
        response: kind === "data_imports" ? dataImportList : dataExportList,
      },
      async (ctx, { query }) => {
        const rows: unknown[] = await pageOf(ctx, kind, query.page);
        ctx.body = { payload: await Promise.all(rows.map((row) => present(ctx, row))) };
      },
    );
    router.route(
      {
        authorize: requireAdministrator,
        method: "get",
        path: `/accounts/:account_id/${kind}/:id`,
        summary: `One of the account's ${what}: status, counts and the signed link of its CSV`,
        params: accountResourceParams,
        response: kind === "data_imports" ? dataImportResponse : dataExportResponse,
      },
      async (ctx, { params }) => {
        const row: unknown = await ctx.deps.knex(kind).where({ account_id: ctx.state.account!.id, id: params.id }).first();
        if (!row) throw NotFound();
        ctx.body = await present(ctx, row);
      },
    );
  }
}
