/*
 * What two API processes on one database must agree on at once, as docs/scaling.md says: a token
 * revoked or an account suspended through one is refused by the other within a second (each empties
 * its auth cache on the auth tables' NOTIFY), and rate limits count on both (counters in PostgreSQL,
 * blocked addresses mirrored through NOTIFY). Real processes, as `npm run start:api` runs them.
 */
import { randomInt } from "node:crypto";
import test from "ava";
import { eventually } from "../support/eventually";
import { createAccount } from "../support/factories";
import { fleetEnv } from "../support/fleet";
import { startHarness, type Harness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { startRoles, through, type RoleProcess } from "../support/serviceProcesses";

let database: OwnDatabase;
let h: Harness;
const apis: RoleProcess[] = [];
let passed = true;

/** The bound docs/scaling.md gives: refused once the change's notification arrives, well within a second. */
const REFUSED_WITHIN_MS = 1000;

test.before(async (t) => {
  t.timeout(120_000);
  database = await createOwnDatabase("scale_out_auth");
  h = await startHarness({ databaseUrl: database.url, poolMax: 3 });
  // Behind a proxy, as production runs several API processes: each test's attacker has an address of its own.
  const env = { ...fleetEnv(database.url), RATE_LIMITS: "on", TRUST_PROXY: "true", RATE_LIMIT_AUTH_FAILURES: "4/300" };
  apis.push(...(await startRoles(["api", "api"], env)));
});

test.afterEach.always((t) => {
  if (!t.passed) passed = false;
});

test.after.always(async () => {
  if (!passed) for (const p of apis) console.error(`--- ${p.role} ---\n${p.output()}`);
  await Promise.all(apis.map((p) => p.stop()));
  await h?.close();
  await database?.drop();
});

const apiOf = (i: number) => through(h, apis[i]!.baseUrl!);
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const from = (addr: string) => ({ "x-forwarded-for": addr });

/** Asks the other process until it refuses (401); answers the refusal and how long it took. */
async function refusedByOther(path: string, token: string, what: string) {
  const since = Date.now();
  const refused = await eventually(
    () => apiOf(1).request("GET", path, { token }),
    (answer) => answer.status === 401,
    what,
    5000,
  );
  return { body: refused.body, ms: Date.now() - since };
}

test.serial("a user's token reset through one API process is refused by the other within the bound; the new one works", async (t) => {
  const account = await createAccount(h);
  const path = `/api/v1/accounts/${account.id}/inboxes`;
  // Both processes have the token in their caches.
  for (const i of [0, 1]) t.is((await apiOf(i).request("GET", path, { token: account.agent.token })).status, 200);
  const reset = await apiOf(0).request("POST", "/api/v1/profile/reset_access_token", { token: account.agent.token });
  t.is(reset.status, 200);
  const fresh = reset.body.access_token as string;
  t.truthy(fresh);
  t.not(fresh, account.agent.token);
  const refused = await refusedByOther(path, account.agent.token, "the other process to refuse the revoked token");
  t.deepEqual(refused.body, { error: "Invalid Access Token" });
  t.true(refused.ms < REFUSED_WITHIN_MS, `refused after ${refused.ms} ms`);
  t.is((await apiOf(1).request("GET", path, { token: fresh })).status, 200);
  // The administrator's token, cached beside it, still works.
  t.is((await apiOf(1).request("GET", path, { token: account.admin.token })).status, 200);
});

test.serial("an account suspended through one API process is refused by the other within the bound", async (t) => {
  const account = await createAccount(h);
  const path = `/api/v1/accounts/${account.id}/inboxes`;
  for (const i of [0, 1]) t.is((await apiOf(i).request("GET", path, { token: account.admin.token })).status, 200);
  const suspended = await apiOf(0).request("PATCH", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken, body: { status: "suspended" } });
  t.is(suspended.status, 200);
  const refused = await refusedByOther(path, account.admin.token, "the other process to refuse the suspended account");
  t.deepEqual(refused.body, { error: "Account is suspended" });
  t.true(refused.ms < REFUSED_WITHIN_MS, `refused after ${refused.ms} ms`);
});

test.serial("unknown tokens from one address count on both API processes: the limit hit through one holds on the other", async (t) => {
  const account = await createAccount(h);
  const path = `/api/v1/accounts/${account.id}`;
  const attacker = address();
  const guess = (i: number) => apiOf(i).request("GET", path, { token: `guess-${randomInt(1e9)}`, headers: from(attacker) });
  // RATE_LIMIT_AUTH_FAILURES=4/300: two guesses through each process fill the address's allowance.
  const statuses = [];
  for (const i of [0, 1, 0, 1]) statuses.push((await guess(i)).status);
  t.deepEqual(statuses, [401, 401, 401, 401]);
  const fifth = await guess(1);
  t.is(fifth.status, 429);
  t.true(Number(fifth.headers.get("retry-after")) > 0, `Retry-After ${fifth.headers.get("retry-after")}`);
  // Then the address is refused on both, even with a right token; another address is not.
  for (const i of [0, 1]) {
    t.is((await apiOf(i).request("GET", path, { token: account.admin.token, headers: from(attacker) })).status, 429, `process ${i}`);
    t.is((await apiOf(i).request("GET", path, { token: account.admin.token, headers: from(address()) })).status, 200, `process ${i}`);
  }
});
