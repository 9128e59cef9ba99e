import type { AddressInfo } from "node:net";
import test from "ava";
import { createApp } from "../../src/app";
import type { AppDeps } from "../../src/deps";
import { closeServer } from "../../src/runtime";
import { sql } from "../../src/db/sql";
import { Batch } from "../../src/db/batch";
import { AuthCache } from "../../src/auth/authCache";
import { eventually } from "../support/eventually";
import { addToAccount, createAccount, createUser } from "../support/factories";
import { startHarness, type Harness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { redirectLogs } from "../../src/lib/logger";

// A second API instance on the same database, with a cache of its own: what one instance (or a
// script, or an operator in psql) changes, the other must honour. A database of its own, so that no
// other test file's changes empty these caches while a test counts what they keep.
let h: Harness;
let database: OwnDatabase;
let other: { url: string; cache: AuthCache; close(): Promise<void> };

test.before(async () => {
  database = await createOwnDatabase("auth_cache");
  h = await startHarness({ databaseUrl: database.url });
  const cache = new AuthCache(h.knex);
  await cache.start();
  const deps: AppDeps = { ...h.deps, authCache: cache };
  const server = createApp(deps).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  other = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cache,
    close: async () => {
      await closeServer(server);
      await cache.stop();
    },
  };
});
test.after.always(async () => {
  await other?.close();
  await h?.close();
  await database?.drop();
});

const onOther = async (path: string, token: string) => {
  const response = await fetch(`${other.url}${path}`, { headers: { api_access_token: token } });
  return { status: response.status, body: await response.json() };
};

/** Queries the other instance's request makes against the tables that authenticate it. */
async function authQueriesOf(path: string, token: string): Promise<number> {
  let count = 0;
  const count_ = (query: { sql: string }) => {
    if (/"(access_tokens|users|accounts|account_users)"/.test(query.sql)) count++;
  };
  h.knex.on("query", count_);
  try {
    await onOther(path, token);
  } finally {
    h.knex.off("query", count_);
  }
  return count;
}

test.serial("a repeated request is authenticated and scoped from the cache, without reading the auth tables", async (t) => {
  const account = await createAccount(h);
  const path = `/api/v1/accounts/${account.id}/inboxes`;
  t.is((await onOther(path, account.agent.token)).status, 200);
  // The setup's own changes announce themselves a moment later and empty the cache once more.
  await eventually(
    () => authQueriesOf(path, account.agent.token),
    (n) => n === 0,
    "a request served from the cache",
    3000,
  );
  t.is(await authQueriesOf(path, account.agent.token), 0);
});

test.serial("a role change made through one instance holds on the other at once", async (t) => {
  const account = await createAccount(h);
  const user = await createUser(h);
  await addToAccount(h, account.id, user.id, "agent");
  const adminOnly = `/api/v1/accounts/${account.id}/webhooks`;
  t.is((await onOther(adminOnly, user.token)).status, 401);

  await addToAccount(h, account.id, user.id, "administrator");
  await eventually(
    () => onOther(adminOnly, user.token),
    (r) => r.status === 200,
    "the promotion on the other instance",
    2000,
  );
});

test.serial("a token changed or an account suspended behind the API's back stops working on every instance", async (t) => {
  const account = await createAccount(h);
  const path = `/api/v1/accounts/${account.id}/inboxes`;
  t.is((await onOther(path, account.agent.token)).status, 200);

  await h
    .knex("access_tokens")
    .where({ token: account.agent.token })
    .update({ token: `rotated-${account.agent.token}` });
  const revoked = await eventually(
    () => onOther(path, account.agent.token),
    (r) => r.status === 401,
    "the rotated token's refusal",
    2000,
  );
  t.deepEqual(revoked.body, { error: "Invalid Access Token" });

  t.is((await onOther(path, account.admin.token)).status, 200);
  await h.request("PATCH", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken, body: { status: "suspended" } });
  const suspended = await eventually(
    () => onOther(path, account.admin.token),
    (r) => r.status === 401,
    "the suspension",
    2000,
  );
  t.deepEqual(suspended.body, { error: "Account is suspended" });
});

test.serial("while its LISTEN connection is down the cache keeps nothing, so no change can be missed", async (t) => {
  const account = await createAccount(h);
  const adminOnly = `/api/v1/accounts/${account.id}/webhooks`;
  t.is((await onOther(adminOnly, account.agent.token)).status, 401);

  await h.knex.raw("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN convo_sched_auth'");
  const restoreLogs = redirectLogs(() => undefined);
  try {
    await eventually(
      async () => authQueriesOf(adminOnly, account.agent.token),
      (n) => n > 0,
      "the cache to stop caching",
      2000,
    );
    // No notification can arrive now: only not caching keeps this promotion from being missed.
    await h.knex("account_users").where({ account_id: account.id, user_id: account.agent.id }).update({ role: "administrator" });
    t.is((await onOther(adminOnly, account.agent.token)).status, 200);
    // Back after its retry: caching again.
    await eventually(
      async () => authQueriesOf(adminOnly, account.agent.token),
      (n) => n === 0,
      "the cache to listen again",
      5000,
    );
  } finally {
    restoreLogs();
  }
});

test.serial("a change this process commits is forgotten by the time its transaction has ended, before any notification", async (t) => {
  const account = await createAccount(h);
  const key = `probe:${account.id}`;
  const read = () => h.knex("accounts").where("id", account.id).first("name");
  t.is((await other.cache.get(key, read)).name, "Test Account");
  await h.knex.transaction(async (trx) => {
    // Triggers off for this transaction: no notification is sent, so only the process's own watch can forget.
    await trx.raw("set local session_replication_role = replica");
    await trx("accounts").where("id", account.id).update({ name: "Renamed" });
  });
  t.is((await other.cache.get(key, read)).name, "Renamed");
});

test.serial("a change in a transaction whose reads go in a Batch is forgotten once it commits, and caching goes on after it", async (t) => {
  const account = await createAccount(h);
  const key = `probe-trip:${account.id}`;
  let loads = 0;
  const read = () => {
    loads++;
    return h.knex("accounts").where("id", account.id).first("name");
  };
  t.is((await other.cache.get(key, read)).name, "Test Account");
  await h.knex.transaction(async (trx) => {
    await trx.raw("set local session_replication_role = replica");
    await trx("accounts").where("id", account.id).update({ name: "Renamed in a batch" });
    const batch = new Batch(trx);
    void batch.rows(sql`select name from accounts where id = ${account.id}`);
    void batch.rows(sql`select 1`);
    await batch.run();
  });
  t.is((await other.cache.get(key, read)).name, "Renamed in a batch");
  const loadsOfTwoReads = async () => {
    const before = loads;
    await other.cache.get(key, read);
    await other.cache.get(key, read);
    return loads - before;
  };
  t.true((await eventually(loadsOfTwoReads, (count) => count <= 1, "the cache to keep what it loads again", 5000)) <= 1);
});
