import { parse } from "csv-parse/sync";
import { eventually } from "../support/eventually";
import { requestForm } from "../support/forms";
import { expectOk, type Harness } from "../support/harness";

/** POST contacts/import with the CSV as `import_file`. */
export function postImport(h: Harness, accountId: number, token: string, csv: string, filename = "contacts.csv") {
  return requestForm(h, "POST", `/api/v1/accounts/${accountId}/contacts/import`, [["import_file", { filename, content: csv, type: "text/csv" }]], token);
}

/** The transfer a POST's Location names, once its status is final. */
export async function finishedTransfer(h: Harness, location: string | null, token: string, timeoutMs = 60_000) {
  if (!location) throw new Error("no Location header");
  return eventually(
    () => expectOk(h.request("GET", location, { token }), `GET ${location}`),
    (row) => row.status === "completed" || row.status === "failed",
    `${location} finished`,
    timeoutMs,
  );
}

/** A signed download link's CSV, fetched from the harness's server, as rows of strings. */
export async function downloadCsv(h: Harness, url: string): Promise<string[][]> {
  const response = await fetch(`${h.baseUrl}${new URL(url).pathname}`);
  if (response.status !== 200) throw new Error(`download ${url}: ${response.status}`);
  return parse(await response.text()) as string[][];
}
