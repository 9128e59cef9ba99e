import { randomUUID } from "node:crypto";
import test from "ava";
import pg from "pg";
import type { AppDeps } from "../../src/deps";
import { adoptTimers, planTimers } from "../../src/conversations/timers";
import { EventRelay } from "../../src/events/relay";
import { startOnce, WorkflowIdTakenError } from "../../src/temporal/client";
import { accountTimersWorkflowId } from "../../src/temporal/contracts";
import { eventConsumers } from "../../src/runtime";
import { createContact, createInbox } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { eventually } from "../support/eventually";
import { accountApi, expectOk, type Harness, type HarnessOptions, startHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { Receiver } from "../support/receiver";
import { redirectLogs } from "../../src/lib/logger";

// Several databases against the suite's one Temporal server, as when a database is recreated,
// restored, or a second installation shares the namespace: each must get all its own work done.

const receivers = { webhook: new Receiver(), apiInbox: new Receiver(), bot: new Receiver() };
const databases: OwnDatabase[] = [];

test.before(async () => {
  for (const receiver of Object.values(receivers)) await receiver.start();
});
test.after.always(async () => {
  for (const receiver of Object.values(receivers)) await receiver.stop();
  for (const database of databases) await database.drop();
});

async function ownDatabase(name: string): Promise<OwnDatabase> {
  const database = await createOwnDatabase(`${name}_${randomUUID().slice(0, 8)}`);
  databases.push(database);
  return database;
}

async function withService<T>(databaseUrl: string, fn: (h: Harness) => Promise<T>, options: HarnessOptions = { relay: { sweepIntervalMs: 500 } }): Promise<T> {
  const h = await startHarness({ ...options, databaseUrl });
  try {
    return await fn(h);
  } finally {
    await h.close();
  }
}

/** Requests carrying this run's marker: the receivers serve every database of the file. */
const received = (receiver: Receiver, marker: string) => receiver.requests.filter((r) => JSON.stringify(r.body).includes(marker));

/**
 * One installation's whole workload: an account webhook, an API inbox webhook_url and an agent bot
 * receive the messages, an automation rule labels the conversation, and its timer resolves it.
 */
async function workload(h: Harness, marker: string) {
  const account = await createAccount(h);
  const api = (method: string, path: string, body?: unknown) =>
    expectOk(h.request(method, `/api/v1/accounts/${account.id}${path}`, { token: account.admin.token, body }), `${method} ${path}`);
  await api("PATCH", "", { auto_resolve_after: 10 });
  await api("POST", "/webhooks", { url: receivers.webhook.url, subscriptions: ["message_created"] });
  const inbox = await createInbox(h, account, { channel: { type: "api", webhook_url: receivers.apiInbox.url } });
  const bot = await api("POST", "/agent_bots", { name: "Bot", outgoing_url: receivers.bot.url });
  await api("POST", `/inboxes/${inbox.id}/set_agent_bot`, { agent_bot: bot.id });
  await api("POST", "/automation_rules", {
    name: "label incoming",
    event_name: "message_created",
    conditions: [{ attribute_key: "message_type", filter_operator: "equal_to", values: ["incoming"], query_operator: null }],
    actions: [{ action_name: "add_label", action_params: ["seen"] }],
  });
  const { contact } = await createContact(h, account, { inbox_id: inbox.id });
  const conversation = await api("POST", "/conversations", { inbox_id: inbox.id, contact_id: contact.id, status: "open" });
  for (let i = 0; i < 3; i++) await api("POST", `/conversations/${conversation.id}/messages`, { content: `${marker} message ${i}`, message_type: "incoming" });

  for (const [name, receiver] of Object.entries(receivers)) {
    await eventually(
      async () => received(receiver, marker).length,
      (n) => n >= 3,
      `${name} deliveries of ${marker}`,
    );
  }
  const row = await eventually(
    () => h.knex("conversations").where({ account_id: account.id, display_id: conversation.id }).first(),
    (c) => c.labels.includes("seen"),
    `the automation rule's label in ${marker}`,
  );

  // Due in a second: this installation's sweep must resolve it, whatever another one's holds.
  await eventually(
    () => h.knex("events").where("account_id", account.id).whereNull("dispatched_at").first("id"),
    (e) => !e,
    "dispatch of the setup",
  );
  await h
    .knex("conversations")
    .where("id", row.id)
    .update({ status: "open", last_activity_at: new Date(Date.now() + 1000 - 10 * 60_000) });
  await planTimers(h.deps, [row.id]);
  await eventually(
    () => h.knex("conversations").where("id", row.id).first("status"),
    (c) => c.status === "resolved",
    `the timer of ${marker}`,
  );

  const eventIds: number[] = await h.knex("events").orderBy("id").pluck("id");
  return { account, eventIds };
}

test.serial("a new database on a Temporal server that ran another one gets every delivery, rule run and timer of its own", async (t) => {
  const first = await ownDatabase("first");
  const second = await ownDatabase("second");
  const a = await withService(first.url, async (h) => ({ installation: h.deps.temporal.installationId, ...(await workload(h, "run-in-A")) }));
  const b = await withService(second.url, async (h) => ({ installation: h.deps.temporal.installationId, ...(await workload(h, "run-in-B")) }));

  t.not(a.installation, b.installation);
  t.is(a.account.id, b.account.id, "both databases number their rows alike, so only the installation tells their work apart");
  t.deepEqual(a.eventIds.slice(0, 5), b.eventIds.slice(0, 5));
  for (const receiver of Object.values(receivers)) {
    const ids = receiver.requests.map((r) => r.headers["x-chatwoot-delivery"]);
    t.is(new Set(ids).size, ids.length, "no delivery arrives twice");
  }
});

test.serial("a database restored to an earlier point delivers the events it is given after the restore", async (t) => {
  const live = await ownDatabase("live");
  const setup = await withService(live.url, async (h) => {
    const account = await createAccount(h);
    await expectOk(
      h.request("POST", `/api/v1/accounts/${account.id}/webhooks`, {
        token: account.admin.token,
        body: { url: receivers.webhook.url, subscriptions: ["contact_created"] },
      }),
      "webhook",
    );
    return { account, installation: h.deps.temporal.installationId };
  });
  const backup = await copyDatabase(live.url, `backup_${randomUUID().slice(0, 8)}`);
  databases.push(backup);

  const contactNamed = (h: Harness, name: string) => expectOk(accountApi(h, setup.account).post("/contacts", { name }), `contact ${name}`);
  const beforeRestore = await withService(live.url, async (h) => {
    await contactNamed(h, "lost-by-the-restore");
    await eventually(
      async () => received(receivers.webhook, "lost-by-the-restore").length,
      (n) => n === 1,
      "delivery before the restore",
    );
    return h.knex("events").orderBy("id", "desc").first("id", "uid");
  });

  await restoreDatabase(live.url, backup.url);
  const afterRestore = await withService(live.url, async (h) => {
    t.is(h.deps.temporal.installationId, setup.installation, "a restore keeps the installation");
    await contactNamed(h, "made-after-the-restore");
    await eventually(
      async () => received(receivers.webhook, "made-after-the-restore").length,
      (n) => n === 1,
      "delivery after the restore",
    );
    return h.knex("events").orderBy("id", "desc").first("id", "uid");
  });
  t.is(afterRestore.id, beforeRestore.id, "the restored database numbered the new event as the forgotten one");
  t.not(afterRestore.uid, beforeRestore.uid);
});

test.serial("a start whose workflow id is held by other work is an error the relay retries and reports, never a silent success", async (t) => {
  const database = await ownDatabase("taken");
  await withService(
    database.url,
    async (h) => {
      const account = await createAccount(h);
      const uid = randomUUID();
      const workflowId = accountTimersWorkflowId(h.deps.temporal.installationId, account.id, uid);
      // Another installation's run under the same id, waiting on a queue no worker polls.
      const stranger: AppDeps = { ...h.deps, temporal: { ...h.deps.temporal, installationId: "stranger", taskQueue: `nobody-${randomUUID()}` } };
      await startOnce(stranger, "accountTimersWorkflow", { workflowId, work: "someone else's timers", args: [account.id] });
      await t.throwsAsync(startOnce(h.deps, "accountTimersWorkflow", { workflowId, work: "my timers", args: [account.id] }), {
        instanceOf: WorkflowIdTakenError,
      });
      await t.notThrowsAsync(
        startOnce(stranger, "accountTimersWorkflow", { workflowId, work: "someone else's timers", args: [account.id] }),
        "its own repeat is success",
      );

      const [event] = await h
        .knex("events")
        .insert({ account_id: account.id, name: "account_auto_resolve_changed", payload: JSON.stringify({}), uid })
        .returning("id");
      const relay = new EventRelay(h.deps, { consumers: eventConsumers() });
      const restoreLogs = redirectLogs(() => undefined);
      try {
        await t.throwsAsync(relay.drain(), { instanceOf: WorkflowIdTakenError }, "the drain reports it");
      } finally {
        restoreLogs();
      }
      const row = await h.knex("events").where("id", event.id).first();
      t.is(row.dispatched_at, null, "not counted as handed over");
      t.true(row.dispatch_attempts >= 1);
      t.regex(row.last_dispatch_error, /held by other work/);
      await h.deps.temporal.client.workflow.getHandle(workflowId).terminate("test over");
    },
    {},
  ); // no relay of the harness's own: this test's drain is the only one
});

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const nameOf = (url: string) => new URL(url).pathname.slice(1);

/** A backup: a copy of the database as it is now. */
async function copyDatabase(sourceUrl: string, suffix: string): Promise<OwnDatabase> {
  const url = new URL(sourceUrl);
  url.pathname = `/${nameOf(sourceUrl)}_${suffix}`;
  await admin(`CREATE DATABASE ${nameOf(url.toString())} TEMPLATE ${nameOf(sourceUrl)}`);
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${nameOf(url.toString())} WITH (FORCE)`) };
}

/** Puts the backup back in place of the live database. */
async function restoreDatabase(liveUrl: string, backupUrl: string): Promise<void> {
  await admin(`DROP DATABASE ${nameOf(liveUrl)} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${nameOf(liveUrl)} TEMPLATE ${nameOf(backupUrl)}`);
}

test.serial("the first worker start after the upgrade plans every pending conversation's deadline, once", async (t) => {
  const database = await ownDatabase("adopt");
  await withService(
    database.url,
    async (h) => {
      const account = await createAccount(h);
      await expectOk(accountApi(h, account).patch("", { auto_resolve_after: 10 }), "settings");
      const inbox = await createInbox(h, account);
      const { contact } = await createContact(h, account, { inbox_id: inbox.id });
      const conversation = await expectOk(
        h.request("POST", `/api/v1/accounts/${account.id}/conversations`, {
          token: account.admin.token,
          body: { inbox_id: inbox.id, contact_id: contact.id, status: "open" },
        }),
        "conversation",
      );
      // No relay ran, as for a conversation whose timer was a workflow of its own before the sweep.
      await h
        .knex("conversations")
        .where({ account_id: account.id, display_id: conversation.id })
        .update({ last_activity_at: new Date(Date.now() + 1000 - 10 * 60_000) });

      t.is(await adoptTimers(h.deps), 1, "one account has pending conversations");
      await eventually(
        () => h.knex("conversations").where({ account_id: account.id, display_id: conversation.id }).first("status"),
        (c) => c.status === "resolved",
        "the re-planned deadline",
      );
      t.not((await h.knex("installation").first()).timers_adopted_at, null);
      t.is(await adoptTimers(h.deps), 0, "later starts leave timers alone");
    },
    { worker: true },
  );
});
