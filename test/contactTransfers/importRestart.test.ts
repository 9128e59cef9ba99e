import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import test from "ava";
import { startContactImport } from "../../src/contactTransfers/imports";
import { contactImportWorkflowId } from "../../src/temporal/contracts";
import { eventually } from "../support/eventually";
import { createAccount } from "../support/factories";
import { ownQueue, tempStorage, useHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";

let db: OwnDatabase;
test.before(async () => {
  db = await createOwnDatabase("imports");
});
const h = useHarness(test, () => ({ databaseUrl: db.url, settings: { storage: tempStorage() } }));
test.after.always(async () => {
  await db?.drop();
});

test("an import of 10,000 rows survives its worker going away mid-run: every row imported once, the import finished once", async (t) => {
  const account = await createAccount(h);
  const dir = mkdtempSync(path.join(os.tmpdir(), "import-restart-"));
  const file = path.join(dir, "contacts.csv");
  const rows = Array.from({ length: 10_000 }, (_, i) => `Person ${i},person${i}@example.com,+1415${String(i).padStart(7, "0")},crm-${i}`);
  writeFileSync(file, ["name,email,phone_number,identifier", ...rows].join("\n"));
  const { deps, startWorker } = ownQueue(h, "import-restart");
  const id = await startContactImport(deps, { accountId: account.id, userId: account.admin.id, path: file, fileName: "contacts.csv" });
  const handle = deps.temporal.client.workflow.getHandle(contactImportWorkflowId(deps.temporal.installationId, id));
  const progress = async () => (await h.knex("data_imports").where("id", id).first()).processed_records as number;

  const first = await startWorker();
  await first.runUntil(eventually(progress, (n) => n >= 2000, "a first part of the file", 60_000));
  const atStop = await progress();
  t.true(atStop < 10_000, `stopped mid-run (${atStop} imported)`);
  t.is((await h.knex("data_imports").where("id", id).first()).status, "processing");

  const second = await startWorker();
  const result = await second.runUntil(handle.result());
  t.deepEqual(result, { status: "completed", processed: 10_000, rejected: 0 });

  const counts = await h
    .knex("contacts")
    .where("account_id", account.id)
    .count("* as n")
    .countDistinct("email as emails")
    .countDistinct("identifier as identifiers")
    .first();
  t.deepEqual(
    { n: Number(counts!.n), emails: Number(counts!.emails), identifiers: Number(counts!.identifiers) },
    { n: 10_000, emails: 10_000, identifiers: 10_000 },
  );
  const row = await h.knex("data_imports").where("id", id).first();
  t.like(row, { status: "completed", total_records: 10_000, processed_records: 10_000, rejected_records: 0, failed_records_key: null });
  t.truthy(row.completed_at);
  let finishes = 0;
  const history = await handle.fetchHistory();
  for (const event of history.events ?? []) {
    if (event.activityTaskScheduledEventAttributes?.activityType?.name === "finishContactImport") finishes++;
  }
  t.is(finishes, 1, "the import was finished once");
});
