/* The contact import and export scenarios of the replay recording (test/replay/record.ts). */
import { finishedTransfer, postImport } from "../contactTransfers/support";
import { createAccount } from "../support/factories";
import type { Harness } from "../support/harness";

/** An import of a few rows (one rejected), then an export of the account's contacts. */
export async function contactsImportedAndExported(h: Harness): Promise<void> {
  const account = await createAccount(h);
  const csv = ["name,email", "Ann,ann@example.com", "Bob,bob@example.com", "Carl,not-an-email"].join("\n");
  const imported = await postImport(h, account.id, account.admin.token, csv);
  if (imported.status !== 200) throw new Error(`import: ${imported.status}`);
  const done = await finishedTransfer(h, imported.headers.get("location"), account.admin.token);
  if (done.status !== "completed") throw new Error(`import ended ${done.status}`);
  const exported = await h.request("POST", `/api/v1/accounts/${account.id}/contacts/export`, {
    token: account.admin.token,
    body: { column_names: ["name", "email"] },
  });
  if (exported.status !== 200) throw new Error(`export: ${exported.status}`);
  const written = await finishedTransfer(h, exported.headers.get("location"), account.admin.token);
  if (written.status !== "completed") throw new Error(`export ended ${written.status}`);
}
