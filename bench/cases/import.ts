import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createAccount, type TestAccount } from "../../test/support/factories";
import { eventually } from "../../test/support/eventually";
import { requestForm } from "../../test/support/forms";
import { expectOk, type Harness, startHarness } from "../../test/support/harness";
import { startServer } from "../load";

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** Posts the CSV to contacts/import and waits for the import to finish: its row, and how long it took. */
async function importFile(h: Harness, account: TestAccount, csv: Buffer, label: string) {
  const started = Date.now();
  const posted = await requestForm(
    h,
    "POST",
    `/api/v1/accounts/${account.id}/contacts/import`,
    [["import_file", { filename: "contacts.csv", content: csv }]],
    account.admin.token,
  );
  if (posted.status !== 200) throw new Error(`${label}: ${posted.status} ${JSON.stringify(posted.body)}`);
  const acceptedMs = Date.now() - started;
  const row = await eventually(
    () => expectOk(h.request("GET", posted.headers.get("location")!, { token: account.admin.token }), `${label} progress`),
    (found) => found.status === "completed" || found.status === "failed",
    `the ${label}`,
    30 * 60_000,
  );
  return { ...row, ms: Date.now() - started, acceptedMs };
}

/**
 * POST contacts/import of `BENCH_IMPORT_ROWS` (100,000) contacts, one in a hundred with a bad email,
 * run by the worker role in a process of its own (bench/servers/worker.ts): rows/s from the upload
 * to the import's completed status, and the worker's resident memory before and at its peak. Then
 * POST contacts/export of all of them: rows/s to the stored CSV, and the peak again; then the same
 * file imported again, every good row an update of its contact: rows/s.
 */
export async function run() {
  const total = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
  const root = mkdtempSync(path.join(os.tmpdir(), "bench-import-"));
  const storage = { service: "local" as const, root: path.join(root, "storage") };
  const h = await startHarness({ poolMax: 10, settings: { storage, maxUploadBytes: 200 * 2 ** 20 } });
  // The harness starts workflows on convo-sched-test-<installation>; the worker role appends the installation too.
  const worker = await startServer("worker", { BENCH_TASK_QUEUE: "convo-sched-test", ACTIVE_STORAGE_SERVICE: "local", STORAGE_DIR: storage.root });
  try {
    const account = await createAccount(h);
    const file = path.join(root, "contacts.csv");
    const lines = Array.from({ length: total }, (_, i) =>
      [`Person ${i}`, i % 100 === 99 ? `bad-${i}` : `p${i}@example.com`, `+1${String(4155000000 + i)}`, `crm-${i}`, "Paris", i % 2 ? "gold" : "free"].join(","),
    );
    writeFileSync(file, ["name,email,phone_number,identifier,city,plan", ...lines].join("\n"));
    const csv = readFileSync(file);
    const before = worker.memory();
    console.log(`load average before: ${load()}; CSV ${total} rows, ${mib(csv.length)}; worker rss ${mib(before.rss)}`);

    const imported = await importFile(h, account, csv, "import");
    const contacts = Number((await h.knex("contacts").where("account_id", account.id).count("* as n").first())!.n);
    console.log(
      `import ${imported.status}: ${imported.processed_records} imported, ${imported.rejected_records} rejected, ${contacts} contacts in ${(imported.ms / 1000).toFixed(1)} s ` +
        `(${((total * 1000) / imported.ms).toFixed(0)} rows/s; upload answered in ${imported.acceptedMs} ms); worker peak rss ${mib(worker.memory().peakRss)}`,
    );

    const exportStarted = Date.now();
    const exportPost = await h.request("POST", `/api/v1/accounts/${account.id}/contacts/export`, {
      token: account.admin.token,
      body: { column_names: ["id", "name", "email", "phone_number", "identifier", "custom_attributes"] },
    });
    if (exportPost.status !== 200) throw new Error(`export: ${exportPost.status}`);
    const exported = await eventually(
      () => expectOk(h.request("GET", exportPost.headers.get("location")!, { token: account.admin.token }), "export progress"),
      (row) => row.status === "completed" || row.status === "failed",
      "the export",
      30 * 60_000,
    );
    const exportMs = Date.now() - exportStarted;
    console.log(
      `export ${exported.status}: ${exported.total_records} rows in ${(exportMs / 1000).toFixed(1)} s (${((exported.total_records * 1000) / exportMs).toFixed(0)} rows/s); ` +
        `worker peak rss ${mib(worker.memory().peakRss)}`,
    );

    // The same file again: every good row now updates the contact it made.
    const again = await importFile(h, account, csv, "re-import");
    console.log(
      `re-import ${again.status}: ${again.processed_records} updated, ${again.rejected_records} rejected in ${(again.ms / 1000).toFixed(1)} s ` +
        `(${((total * 1000) / again.ms).toFixed(0)} rows/s); worker peak rss ${mib(worker.memory().peakRss)}`,
    );
    console.log(`load average after: ${load()}`);
  } finally {
    await worker.stop();
    await h.close();
    rmSync(root, { recursive: true, force: true });
  }
}
