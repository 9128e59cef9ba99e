import type { AddressInfo } from "node:net";
import { parse } from "csv-parse/sync";
import { createApp } from "../../src/app";
import { closeServer } from "../../src/runtime";
import { eventually } from "../support/eventually";
import { requestForm } from "../support/forms";
import { expectOk, type Harness, ownQueue } from "../support/harness";
import { through } from "../support/serviceProcesses";

/**
 * Runs `fn` with the API on a task queue of its own and a worker for it in this process: a worker of
 * another test file (on the shared queue, with storage of its own) never runs these imports and
 * exports, so their files are where this file's server looks for them.
 */
export async function withTransferApi<T>(h: Harness, name: string, fn: (via: Harness) => Promise<T>): Promise<T> {
  const { deps, startWorker } = ownQueue(h, name);
  const server = createApp(deps).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The proxy useHarness answers has no own keys to spread: through() gets a plain copy.
  const plain = { baseUrl: h.baseUrl, knex: h.knex, deps, platformToken: h.platformToken, request: h.request, close: h.close } as Harness;
  const worker = await startWorker();
  try {
    return await worker.runUntil(fn(through(plain, baseUrl)));
  } finally {
    await closeServer(server);
  }
}

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

/** A signed download link's CSV, fetched from the given server, as rows of strings. */
export async function downloadCsv(h: Harness, url: string): Promise<string[][]> {
  const response = await fetch(`${h.baseUrl}${new URL(url).pathname}`);
  if (response.status !== 200) throw new Error(`download ${url}: ${response.status}`);
  return parse(await response.text()) as string[][];
}
