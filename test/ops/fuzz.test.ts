import test from "ava";
import { createContact, createInbox } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { useHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { isDate, propertiesOf, resolve, type Schema, typeOf, useDocument } from "./openapiWalk";

/**
 * Walks the OpenAPI document and sends every route malformed ids, queries and bodies: wrong types,
 * huge and deeply nested values, NUL bytes, bad dates, unknown fields, other content types. None may
 * answer 5xx, none may be accepted (2xx) on a route that writes, and no table may change.
 */

let own: OwnDatabase;
let doc: any;
test.before(async () => {
  // A database of this file's own, so that no other file's writes look like the walk's.
  own = await createOwnDatabase("fuzz");
});
const h = useHarness(test, () => ({ databaseUrl: own.url }));
test.before(async () => {
  doc = (await h.request("GET", "/api-docs/openapi.json")).body;
  useDocument(doc);
});
test.after.always(async () => {
  await own?.drop();
});

/** A value of another type than the declared one. */
function wrongTypes(type: string): unknown[] {
  switch (type) {
    case "string":
      return [12345, { nested: true }, ["a"]];
    case "integer":
    case "number":
      return ["abc", { n: 1 }, true];
    case "boolean":
      return ["maybe", 2, {}];
    case "array":
      return ["not an array", { 0: "x" }];
    case "object":
      return ["not an object", [1, 2], 7];
    default:
      return [];
  }
}

const deep = (levels: number) => JSON.parse(`${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`);

interface Variant {
  name: string;
  /** The value under test may be valid (a long name, a NUL where the field is ignored): only a 5xx is wrong. */
  mayBeAccepted?: boolean;
  query?: Record<string, string>;
  body?: unknown;
  raw?: { type: string; text: string };
}

/** Malformed bodies: each typed property given a wrong, huge, NUL-bearing, nested or badly dated value. */
function bodyVariants(method: string, schema: Schema | undefined): Variant[] {
  const properties = Object.entries(propertiesOf(schema));
  const typed = properties.filter(([, p]) => typeOf(p));
  if (!typed.length) return [];
  // Any variant keeps one property of a wrong type, so no variant is a valid request that may write.
  const [anchorName, anchor] = typed[0]!;
  const poison = { [anchorName]: wrongTypes(typeOf(anchor)!)[0] };
  const variants: Variant[] = [
    { name: "body is an array", body: [poison] },
    { name: "body is a string", body: "text" },
    { name: "body is null", body: null },
    { name: "unknown fields", body: { ...poison, unknown_field: "x", __proto__: { admin: true }, constructor: { prototype: {} } } },
    { name: "other content type: malformed json", raw: { type: "application/json", text: `{"${anchorName}": ` } },
  ];
  // Form fields nest as qs reads them: an object where a scalar belongs.
  if (!["object", "array"].includes(typeOf(anchor)!))
    variants.push({ name: "other content type: form", raw: { type: "application/x-www-form-urlencoded", text: `${anchorName}[a][b]=1&${anchorName}[]=2` } });
  // A body the parser does not read is an empty one: a request only where an empty body is invalid.
  if (resolve(schema)?.required?.length)
    variants.push({ name: "other content type: xml", raw: { type: "application/xml", text: `<${anchorName}>1</${anchorName}>` } });
  // Wrong types and bad dates are invalid by themselves, so they go alone. Huge values and NUL bytes
  // may be valid (Chatwoot keeps long names; an ignored field may hold anything): on a create they
  // ride with another property's wrong value so nothing is written; an update may accept them.
  const poisonExcept = (name: string) => {
    const other = typed.find(([n]) => n !== name);
    return other ? { [other[0]]: wrongTypes(typeOf(other[1])!)[0] } : undefined;
  };
  for (const [name, property] of typed) {
    const type = typeOf(property)!;
    for (const value of wrongTypes(type)) variants.push({ name: `wrong type ${name}=${JSON.stringify(value)}`, body: { [name]: value } });
    const stress: [string, unknown][] = [[`NUL byte ${name}`, type === "string" ? "a\u0000b" : "\u0000"]];
    if (type === "string") stress.push([`huge ${name}`, "x".repeat(200_000)]);
    if (type === "number" || type === "integer") stress.push([`huge ${name}`, 1e308]);
    for (const [label, value] of stress) {
      if (method === "post") {
        const others = poisonExcept(name);
        if (others) variants.push({ name: label, body: { ...others, [name]: value } });
      } else {
        variants.push({ name: label, body: { [name]: value }, mayBeAccepted: true });
      }
    }
    if (isDate(name, property)) {
      for (const bad of ["tomorrow", "", "2027/06/01", "2027-02-30", "0000-00-00T25:61:61Z"])
        variants.push({ name: `bad date ${name}=${JSON.stringify(bad)}`, body: { [name]: bad } });
    }
  }
  // Free-form values still get the deeply nested case.
  for (const [name] of properties.filter(([, p]) => !typeOf(p) || typeOf(p) === "object"))
    variants.push({ name: `deeply nested ${name}`, body: { [name]: deep(4000) } });
  return variants;
}

function queryVariants(parameters: Schema[]): Variant[] {
  const query = parameters.filter((p) => p.in === "query");
  const variants: Variant[] = [];
  for (const parameter of query) {
    for (const value of ["abc", "-1", "1e999", "x".repeat(20_000), "a\u0000b", "tomorrow", "2027/06/01", "[object Object]"]) {
      variants.push({ name: `query ${parameter.name}=${value.slice(0, 20)}`, query: { [parameter.name]: value } });
    }
  }
  if (query.length) variants.push({ name: "query repeated and nested", query: { [`${query[0]!.name}[a]`]: "1", [`${query[0]!.name}[]`]: "2" } });
  return variants;
}

const BAD_IDS = ["abc", "-1", "0", "1.5", "99999999999999999999", "%00", "'%20OR%201=1", "9223372036854775808"];

async function rowCounts(): Promise<Record<string, number>> {
  const tables: { tablename: string }[] = await h
    .knex("pg_tables")
    .where({ schemaname: "public" })
    .whereNotIn("tablename", ["knex_migrations", "knex_migrations_lock"])
    .select("tablename");
  const counts: Record<string, number> = {};
  for (const { tablename } of tables) counts[tablename] = Number((await h.knex(tablename).count<{ count: string }[]>("* as count"))[0]!.count);
  return counts;
}

async function inParallel<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

// Serial: ava runs it before the file's other tests, whose own accounts would otherwise land in its row counts.
test.serial("no malformed id, query or body gets a 5xx, is accepted, or writes anything, on any route", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account, { name: "Support" });
  const widget = await createInbox(h, account, { name: "Shop", channel: { type: "web_widget", website_url: "https://shop.example" } });
  const { contact } = await createContact(h, account, { name: "Jane", email: "jane@example.com", inbox_id: inbox.id });
  // A real id for each resource the paths name, so requests get past the lookup to the validation.
  const realIds: Record<string, number> = { accounts: account.id, inboxes: inbox.id, contacts: contact.id, users: account.agent.id };
  const tokenFor = (operation: Schema) => {
    const scheme = Object.keys(operation.security?.[0] ?? {})[0];
    return scheme === "platformAppApiKey" ? h.platformToken : scheme ? account.admin.token : undefined;
  };

  const requests: { method: string; path: string; template: string; variant: Variant; token?: string; mutating: boolean }[] = [];
  for (const [template, operations] of Object.entries<Schema>(doc.paths)) {
    for (const [method, operation] of Object.entries<Schema>(operations)) {
      const parameters: Schema[] = operation.parameters ?? [];
      const pathParams = parameters.filter((p) => p.in === "path").map((p) => p.name as string);
      const fill = (bad?: [string, string]) =>
        template.replace(/\{(\w+)\}/g, (_, name: string, offset: number) => {
          if (bad?.[0] === name) return bad[1];
          if (name === "account_id") return String(account.id);
          const segment = template.slice(0, offset).split("/").filter(Boolean).at(-1)!;
          return String(realIds[segment] ?? 1);
        });
      const token = tokenFor(operation);
      const mutating = method !== "get";
      const widgetQuery = template.startsWith("/api/v1/widget") ? { website_token: widget.website_token } : undefined;
      const base = { method: method.toUpperCase(), template, token, mutating };
      for (const name of pathParams)
        for (const id of BAD_IDS) requests.push({ ...base, path: fill([name, id]), variant: { name: `bad id ${name}=${id}`, body: {} } });
      const body = operation.requestBody?.content?.["application/json"]?.schema;
      for (const variant of [...bodyVariants(method, body), ...queryVariants(parameters)]) {
        // A malformed query with a well-formed (empty) body is a real request on a write route: only reads.
        if (variant.query && mutating) continue;
        requests.push({ ...base, path: fill(), variant: { ...variant, query: { ...widgetQuery, ...variant.query } } });
      }
    }
  }

  const failures: string[] = [];
  const send = async ({ method, path, template, variant, token, mutating }: (typeof requests)[number]) => {
    const query = variant.query && Object.keys(variant.query).length ? `?${new URLSearchParams(variant.query)}` : "";
    const response = await fetch(`${h.baseUrl}${path}${query}`, {
      method,
      headers: {
        ...(token ? { api_access_token: token } : {}),
        ...(variant.raw ? { "content-type": variant.raw.type } : variant.body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: method === "GET" ? undefined : variant.raw ? variant.raw.text : variant.body !== undefined ? JSON.stringify(variant.body) : undefined,
    });
    await response.arrayBuffer();
    const wrong = response.status >= 500 ? "5xx" : mutating && response.status < 300 && !variant.mayBeAccepted ? "accepted" : undefined;
    if (wrong) failures.push(`${method} ${template} [${variant.name}] → ${response.status} (${wrong})`);
  };

  // First what must write nothing, then the stress values an update may accept (and audit).
  const started = Date.now();
  const before = await rowCounts();
  await inParallel(
    requests.filter((r) => !r.variant.mayBeAccepted),
    6,
    send,
  );
  const after = await rowCounts();
  await inParallel(
    requests.filter((r) => r.variant.mayBeAccepted),
    6,
    send,
  );

  t.log(
    `${requests.length} requests to ${Object.values<Schema>(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0)} routes in ${Date.now() - started} ms`,
  );
  t.deepEqual(failures, []);
  const changed = Object.keys(before)
    .filter((table) => before[table] !== after[table])
    .map((table) => `${table}: ${before[table]} → ${after[table]}`);
  t.deepEqual(changed, [], "no table changed");
});

test("a huge regex_pattern is refused as too long without being compiled (the walk saw RE2's heap run out)", async (t) => {
  const account = await createAccount(h);
  const response = await h.request("POST", `/api/v1/accounts/${account.id}/custom_attribute_definitions`, {
    token: account.admin.token,
    body: { attribute_display_name: "Huge", attribute_key: "huge", attribute_model: 1, attribute_display_type: 0, regex_pattern: "x".repeat(200_000) },
  });
  t.is(response.status, 422);
  t.deepEqual(response.body, { message: "Regex pattern is too long (maximum is 1000 characters)", attributes: ["regex_pattern"] });
});
