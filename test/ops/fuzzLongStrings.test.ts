import test from "ava";
import { createAccount } from "../support/factories";
import { eventually } from "../support/eventually";
import { useHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { bodyWith, type Schema, stringFields, useDocument } from "./openapiWalk";

/**
 * The walk of fuzz.test.ts for lengths: every string field of every route's body, however deep, gets
 * a value just over its declared maximum and one of 1 MB (both refused, never stored, never a 5xx),
 * and one of exactly its maximum (which may be stored, and whose events must still reach Temporal).
 * After it the outbox drains with nothing parked and /health is ok. A database of the file's own,
 * with a relay, so /health judges this walk's events only.
 */
let own: OwnDatabase;
test.before(async () => {
  own = await createOwnDatabase("fuzzlong");
});
const h = useHarness(test, () => ({ databaseUrl: own.url, relay: true }));
test.after.always(async () => {
  await own?.drop();
});

const MB = 1_000_000;
/** At most this much of an at-limit value: a message's 150,000 characters need not be sent per field. */
const AT_LIMIT_MAX = 20_000;

async function inParallel<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

test("no over-long or 1 MB string is accepted or answered 5xx on any route, and health stays ok after", async (t) => {
  const doc = (await h.request("GET", "/api-docs/openapi.json")).body;
  useDocument(doc);
  const account = await createAccount(h);
  const tokenFor = (operation: Schema) => {
    const scheme = Object.keys(operation.security?.[0] ?? {})[0];
    return scheme === "platformAppApiKey" ? h.platformToken : scheme ? account.admin.token : undefined;
  };

  const requests: { method: string; path: string; label: string; body: unknown; token?: string; overLimit: boolean }[] = [];
  for (const [template, operations] of Object.entries<Schema>(doc.paths)) {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => (name === "account_id" ? String(account.id) : "1"));
    for (const [method, operation] of Object.entries<Schema>(operations)) {
      const schema = operation.requestBody?.content?.["application/json"]?.schema;
      for (const field of stringFields(schema)) {
        const name = field.path.join(".");
        const base = { method: method.toUpperCase(), path, token: tokenFor(operation) };
        requests.push({ ...base, label: `${name} of 1 MB`, body: bodyWith(field.path, "x".repeat(MB)), overLimit: true });
        if (field.maxLength === undefined) continue;
        requests.push({ ...base, label: `${name} over its ${field.maxLength}`, body: bodyWith(field.path, "x".repeat(field.maxLength + 1)), overLimit: true });
        if (field.maxLength <= AT_LIMIT_MAX)
          requests.push({ ...base, label: `${name} at its ${field.maxLength}`, body: bodyWith(field.path, "x".repeat(field.maxLength)), overLimit: false });
      }
    }
  }

  const failures: string[] = [];
  let stored = 0;
  await inParallel(requests, 6, async ({ method, path, label, body, token, overLimit }) => {
    const response = await fetch(`${h.baseUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { api_access_token: token } : {}) },
      body: JSON.stringify(body),
    });
    await response.arrayBuffer();
    if (response.status >= 500) failures.push(`${method} ${path} [${label}] → ${response.status}`);
    else if (overLimit && response.status < 300) failures.push(`${method} ${path} [${label}] → ${response.status} (accepted)`);
    else if (response.status < 300) stored++;
  });
  t.log(`${requests.length} requests, ${stored} values at their limit accepted`);
  t.deepEqual(failures, []);

  const health = await eventually(
    async () => {
      const response = await h.request("GET", "/health");
      return { status: response.status, outbox: response.body.outbox };
    },
    (answer) => answer.status === 200 && answer.outbox.backlog === 0,
    "health ok with the outbox drained",
  );
  t.like(health, { status: 200, outbox: { backlog: 0, parked: 0 } });
});
