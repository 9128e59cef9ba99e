/**
 * Records the histories the replay test (replay.test.ts) runs the current workflow code against:
 * real runs of each long-lived workflow, with real activities, then the runs of recordMocked.ts, on a
 * fresh database and Temporal dev server of its own. Run it after every change to a workflow's
 * commands (docs/workflows.md):
 *
 *   npm run record-histories [-- workflowType...]
 *
 * With no types named it replaces every history in test/replay/histories; with types named, only the
 * longest finished run of each of those (and leaves the mocked runs alone).
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { automationEventWorkflowId } from "../../src/temporal/contracts";
import { deadlineIn, openConversation, setupSettled, show, sweepHandle } from "../autoResolve/support";
import { book, liveClinic } from "../scheduling/bookingSupport";
import { createContact, createInbox } from "../support/conversationFactories";
import { eventually, workflowExists } from "../support/eventually";
import { createAccount } from "../support/factories";
import { expectOk, quickRetries, startHarness, type Harness } from "../support/harness";
import { Receiver } from "../support/receiver";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { loadMailSettings } from "../../src/config";
import { campaignWorld } from "../campaigns/support";
import { HISTORIES_DIR, historyFiles, LONG_LIVED, saveHistory } from "./historyFiles";
import { recordMockedRuns } from "./recordMocked";
import { contactsImportedAndExported } from "./recordTransfers";
import { servicesEnv, withTestServices } from "../support/services";

const SECOND = 1000;

/** An open conversation whose deadline is planned twice (moved closer), which the sweep then resolves. */
async function timerThatResolves(h: Harness) {
  const s = await openConversation(h, { auto_resolve_after: 10 });
  await setupSettled(h, s);
  await deadlineIn(h, s, 60 * SECOND);
  await deadlineIn(h, s, 3 * SECOND);
  await eventually(
    () => show(h, s),
    (c) => c.status === "resolved",
    "the conversation to resolve",
    60 * SECOND,
  );
  await sweepHandle(h.deps).result();
}

/** A webhook whose receiver fails the first request: the lane sends, and hands that one to its own retrying workflow. */
async function webhookWithARetry(h: Harness) {
  const account = await createAccount(h);
  const receiver = await new Receiver((attempt) => (attempt === 1 ? 500 : 200)).start();
  try {
    await expectOk(
      h.request("POST", `/api/v1/accounts/${account.id}/webhooks`, {
        token: account.admin.token,
        body: { url: receiver.url, subscriptions: ["contact_created"] },
      }),
      "webhook",
    );
    await createContact(h, account, { name: "First" });
    await createContact(h, account, { name: "Second" });
    await receiver.waitFor((requests) => requests.length >= 3);
  } finally {
    await receiver.stop();
  }
}

/** A message_created rule that matches: a label and a message. */
async function automationThatActs(h: Harness) {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const api = (method: string, url: string, body?: unknown) =>
    expectOk(h.request(method, `/api/v1/accounts/${account.id}${url}`, { token: account.admin.token, body }), `${method} ${url}`);
  await api("POST", "/automation_rules", {
    name: "refunds",
    event_name: "message_created",
    conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["refund"], query_operator: null }],
    actions: [
      { action_name: "add_label", action_params: ["refund"] },
      { action_name: "send_message", action_params: ["We are on it"] },
    ],
  });
  const { contact } = await createContact(h, account, { inbox_id: inbox.id });
  const conversation = await api("POST", "/conversations", { inbox_id: inbox.id, contact_id: contact.id });
  await api("POST", `/conversations/${conversation.id}/messages`, { content: "I want a refund", message_type: "incoming" });
  const row = await h.knex("conversations").where({ account_id: account.id, display_id: conversation.id }).first("id");
  const event: { uid: string } = await eventually(
    () => h.knex("events").where({ conversation_id: row.id, name: "message_created" }).first("uid"),
    Boolean,
    "the message_created event",
    30 * SECOND,
  );
  const handle = h.deps.temporal.client.workflow.getHandle(automationEventWorkflowId(h.deps.temporal.installationId, event.uid));
  await workflowExists(handle, "the event's automation workflow to exist", 30 * SECOND);
  await handle.result();
}

/** An account with a conversation, deleted through the platform API. */
async function accountDeletion(h: Harness) {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const { contact } = await createContact(h, account, { inbox_id: inbox.id });
  await expectOk(
    h.request("POST", `/api/v1/accounts/${account.id}/conversations`, { token: account.admin.token, body: { inbox_id: inbox.id, contact_id: contact.id } }),
    "conversation",
  );
  await expectOk(h.request("DELETE", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken }), "delete account");
}

/** A booking whose unpaid hold runs out (the saga cancels it), and one cancelled by hand. */
async function appointmentSagas(h: Harness) {
  const c = await liveClinic(h);
  const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
  const base = { resource_id: c.resource.id, service_id: c.service.id, contact_id: c.contact.id, inbox_id: c.inbox.id };
  const held = await book(c.api, { ...base, starts_at: inMs(3 * 60 * 60 * SECOND), hold_until: inMs(4 * SECOND) });
  const later = await book(c.api, { ...base, starts_at: inMs(2 * 24 * 60 * 60 * SECOND) });
  await c.api.post(`/appointments/${later.id}/cancel`, {});
  await eventually(
    () => c.api.get(`/appointments/${held.id}`),
    (r) => r.body.payload.status === "cancelled",
    "the held appointment to be cancelled",
    60 * SECOND,
  );
}

/** Slots offered in a conversation, one answered (the offer books it); the booking is then cancelled so its saga ends too. */
async function offerThatBooks(h: Harness) {
  const c = await liveClinic(h);
  const conversation = await expectOk(
    h.request("POST", `/api/v1/accounts/${c.account.id}/conversations`, {
      token: c.account.admin.token,
      body: { inbox_id: c.inbox.id, contact_id: c.contact.id },
    }),
    "conversation",
  );
  const offers = `/api/v1/accounts/${c.account.id}/conversations/${conversation.id}/scheduling/offers`;
  const offer = (await expectOk(h.request("POST", offers, { token: c.account.admin.token, body: { service_id: c.service.id, count: 2 } }), "offer")).payload;
  const [slot] = offer.slots;
  await expectOk(
    h.request("PATCH", `/api/v1/accounts/${c.account.id}/conversations/${conversation.id}/messages/${offer.message_id}`, {
      token: c.account.admin.token,
      body: { submitted_values: [{ title: slot.title, value: slot.value }] },
    }),
    "choice",
  );
  const booked = await eventually(
    () => h.request("GET", `${offers}/${offer.id}`, { token: c.account.admin.token }),
    (r) => r.body.payload?.status === "booked",
    "the offer to be booked",
    60 * SECOND,
  );
  await c.api.post(`/appointments/${booked.body.payload.appointment_id}/cancel`, {});
}

/** A one-off campaign to two labelled contacts, a few seconds ahead: its timer fires and it sends. */
async function campaignThatSends(h: Harness) {
  const w = await campaignWorld(h, 2);
  const campaign = await expectOk(
    h.request("POST", `${w.base}/campaigns`, {
      token: w.account.admin.token,
      body: {
        title: "Recorded",
        message: "Hello",
        inbox_id: w.api.id,
        scheduled_at: new Date(Date.now() + 3 * SECOND).toISOString(),
        audience: [{ type: "Label", id: w.vip.id }],
      },
    }),
    "campaign",
  );
  await eventually(
    () => h.request("GET", `${w.base}/campaigns/${campaign.id}`, { token: w.account.admin.token }),
    (r) => r.body.campaign_status === "completed",
    "the campaign to complete",
    60 * SECOND,
  );
}

/** A transcript mailed to the SMTP server of the recording. */
async function transcriptThatMails(h: Harness, mailed: () => number) {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account, { name: "Recorded desk" });
  const { contact } = await createContact(h, account, { name: "Recorded" });
  const base = `/api/v1/accounts/${account.id}`;
  const conversation = await expectOk(
    h.request("POST", `${base}/conversations`, { token: account.admin.token, body: { inbox_id: inbox.id, contact_id: contact.id } }),
    "conversation",
  );
  const path = `${base}/conversations/${conversation.id}`;
  await expectOk(h.request("POST", `${path}/messages`, { token: account.admin.token, body: { content: "Hello" } }), "message");
  await expectOk(h.request("POST", `${path}/transcript`, { token: account.admin.token, body: { email: "recorded@example.com" } }), "transcript");
  await eventually(
    async () => mailed(),
    (count) => count > 0,
    "the transcript to be mailed",
    60 * SECOND,
  );
}

/** An SMTP server that takes every message, counting them. */
async function startSmtp(): Promise<{ port: number; mailed: () => number; close: () => Promise<void> }> {
  let count = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => undefined);
      stream.on("end", () => {
        count++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  return {
    port: (smtp.server.address() as AddressInfo).port,
    mailed: () => count,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

async function main() {
  await withTestServices(async (services) => {
    Object.assign(process.env, servicesEnv(services));
    const smtp = await startSmtp();
    const mail = loadMailSettings({
      SMTP_ADDRESS: "127.0.0.1",
      SMTP_PORT: String(smtp.port),
      SMTP_DOMAIN: "test.local",
      MAILER_SENDER_EMAIL: "rec@test.local",
    });
    const h = await startHarness({ relay: true, settings: { delivery: quickRetries(), mail } });
    try {
      await Promise.all([
        timerThatResolves(h),
        webhookWithARetry(h),
        automationThatActs(h),
        accountDeletion(h),
        appointmentSagas(h),
        offerThatBooks(h),
        campaignThatSends(h),
        transcriptThatMails(h, smtp.mailed),
        contactsImportedAndExported(h),
      ]);
      const { client } = h.deps.temporal;
      // Lanes end after a minute without work; everything else ends with its scenario.
      const executions = async () => {
        const all = [];
        for await (const execution of client.workflow.list()) all.push(execution);
        return all;
      };
      const all = await eventually(executions, (list) => list.every((e) => e.status.name !== "RUNNING"), "every workflow to end", 180 * SECOND);
      const longest = new Map<string, (typeof all)[number]>();
      for (const execution of all) {
        if (execution.status.name !== "COMPLETED" && execution.status.name !== "CONTINUED_AS_NEW") continue;
        const best = longest.get(execution.type);
        if (!best || (execution.historyLength ?? 0) > (best.historyLength ?? 0)) longest.set(execution.type, execution);
      }
      const named = process.argv.slice(2);
      // A full recording starts from nothing, so no history of an older generation of the code stays.
      if (!named.length) for (const file of historyFiles()) rmSync(path.join(HISTORIES_DIR, file));
      for (const type of LONG_LIVED.filter((t) => !named.length || named.includes(t))) {
        const execution = longest.get(type);
        if (!execution) throw new Error(`no finished run of ${type} to record`);
        const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
        saveHistory(type, history);
        console.log(`${type}: ${history.events?.length} events from ${execution.workflowId}`);
      }
      if (!named.length) await recordMockedRuns(services);
    } finally {
      await h.close();
      await smtp.close();
    }
  });
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
