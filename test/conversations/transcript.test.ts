import type { AddressInfo } from "node:net";
import test from "ava";
import { WorkflowFailedError } from "@temporalio/client";
import { SMTPServer } from "smtp-server";
import { loadMailSettings } from "../../src/config";
import { transcriptWorkflowId } from "../../src/temporal/contracts";
import { createContact, createInbox } from "../support/conversationFactories";
import { eventually } from "../support/eventually";
import { createAccount } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";

interface Received {
  to: string[];
  raw: string;
}

const received: Received[] = [];
const attempts = new Map<string, number>();
let smtp: SMTPServer;
let smtpPort: number;
let db: OwnDatabase;

test.before(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const count = (attempts.get(address.address) ?? 0) + 1;
      attempts.set(address.address, count);
      if (address.address.startsWith("refused@")) return callback(Object.assign(new Error("No such mailbox"), { responseCode: 550 }));
      if (address.address.startsWith("busy@") && count === 1) return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  db = await createOwnDatabase("transcripts");
});
const h = useHarness(test, () => ({
  relay: true,
  databaseUrl: db.url,
  settings: {
    mail: loadMailSettings({
      SMTP_ADDRESS: "127.0.0.1",
      SMTP_PORT: String(smtpPort),
      SMTP_DOMAIN: "test.local",
      MAILER_SENDER_EMAIL: "Support <support@test.local>",
    }),
  },
}));
test.after.always(async () => {
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await db?.drop();
});

async function conversationWithMessages() {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account, { name: "Billing desk" });
  const { contact } = await createContact(h, account, { name: "Paula Payer" });
  const api = accountApi(h, account);
  const conversation = await expectOk(api.post("/conversations", { inbox_id: inbox.id, contact_id: contact.id }), "conversation");
  const path = `/conversations/${conversation.id}`;
  await expectOk(api.post(`${path}/messages`, { content: "Hello <Paula>, your refund is on its way" }), "reply");
  await expectOk(api.post(`${path}/messages`, { content: "internal: watch this one", private: true }), "note");
  return { account, api, path, displayId: conversation.id as number };
}

const bodyOf = (mail: Received) => mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");

test("the transcript is mailed through SMTP: chat messages with their authors, no private notes", async (t) => {
  const { api, path, displayId } = await conversationWithMessages();
  const response = await api.post(`${path}/transcript`, { email: "paula@example.com" });
  t.deepEqual([response.status, response.body], [200, undefined]);
  const mail = await eventually(
    async () => received.find((m) => m.to.includes("paula@example.com")),
    (found) => found !== undefined,
    "the mail",
  );
  const body = bodyOf(mail!);
  t.regex(body, new RegExp(`Subject: \\[#${displayId}\\] Conversation Transcript`));
  t.regex(body, /From: Support <support@test\.local>/);
  t.regex(body, /Message-ID: <transcript-[0-9a-f-]+@test\.local>/);
  t.true(body.includes("Hello <Paula>, your refund is on its way"), "the text part");
  t.true(body.includes("Hello &#60;Paula&#62;"), "the HTML part, escaped");
  t.true(body.includes("Admin Person"));
  t.false(body.includes("watch this one"));
});

test("a mail server that says try later gets the transcript on a retry; one that refuses ends the workflow", async (t) => {
  const { account, api, path } = await conversationWithMessages();
  t.is((await api.post(`${path}/transcript`, { email: "busy@example.com" })).status, 200);
  await eventually(
    async () => received.filter((m) => m.to.includes("busy@example.com")).length,
    (count) => count === 1,
    "the retried mail",
    60_000,
  );
  t.is(attempts.get("busy@example.com"), 2);

  t.is((await api.post(`${path}/transcript`, { email: "refused@example.com" })).status, 200);
  const event = await eventually(
    () => h.knex("events").where({ account_id: account.id, name: "transcript_requested" }).whereRaw("payload->>'email' = ?", ["refused@example.com"]).first(),
    (row) => row !== undefined,
    "the request event",
  );
  const handle = h.deps.temporal.client.workflow.getHandle(transcriptWorkflowId(h.deps.temporal.installationId, account.id, event.uid));
  await eventually(
    () =>
      handle.describe().then(
        () => true,
        () => false,
      ),
    (started) => started,
    "the workflow",
  );
  await t.throwsAsync(handle.result(), { instanceOf: WorkflowFailedError });
  t.is(attempts.get("refused@example.com"), 1, "a refusal is not retried");
});

test("email is required and must be an address; another account's conversation is a 404", async (t) => {
  const { api, path } = await conversationWithMessages();
  t.deepEqual(await api.post(`${path}/transcript`, {}).then((r) => [r.status, r.body]), [422, { error: "email param missing" }]);
  t.deepEqual(await api.post(`${path}/transcript`, { email: "not an address" }).then((r) => [r.status, r.body]), [422, { error: "Invalid email" }]);
  const other = await createAccount(h);
  t.is((await h.request("POST", `/api/v1/accounts/${other.id}${path}/transcript`, { token: other.admin.token, body: { email: "x@example.com" } })).status, 404);
});
