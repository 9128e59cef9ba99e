import { randomUUID } from "node:crypto";
import test from "ava";
import { DEFAULT_FEATURES } from "../../src/models/accountFeatures";
import { useHarness } from "../support/harness";

const h = useHarness(test);

const accounts = "/platform/api/v1/accounts";

test("create answers Chatwoot's platform account payload, with the default features as {name: true}", async (t) => {
  const created = await h.request("POST", accounts, {
    token: h.platformToken,
    body: { name: "Acme", locale: "fr", domain: "acme.test", support_email: "Help@Acme.test", limits: { agents: 5 }, custom_attributes: { plan_name: "pro" } },
  });
  t.is(created.status, 200);
  const { id, features, ...rest } = created.body;
  t.is(typeof id, "number");
  t.deepEqual(rest, {
    name: "Acme",
    locale: "fr",
    domain: "acme.test",
    support_email: "help@acme.test",
    custom_attributes: { plan_name: "pro" },
    limits: { agents: 5 },
    status: "active",
  });
  t.deepEqual(Object.keys(features).sort(), [...DEFAULT_FEATURES].sort());
  t.true(Object.values(features).every((v) => v === true));
  t.false("ip_lookup" in features);

  const shown = await h.request("GET", `${accounts}/${id}`, { token: h.platformToken });
  t.is(shown.status, 200);
  t.deepEqual(shown.body, created.body);
  t.truthy(await h.knex("platform_app_permissibles").where({ permissible_type: "Account", permissible_id: id }).first());
});

test("create takes features {name: bool}: true enables, false disables", async (t) => {
  const created = await h.request("POST", accounts, { token: h.platformToken, body: { name: "F", features: { ip_lookup: true, agent_bots: false } } });
  t.is(created.status, 200);
  t.true(created.body.features.ip_lookup);
  t.false("agent_bots" in created.body.features);
});

test("update assigns columns, toggles features and writes an audit row", async (t) => {
  const { body: account } = await h.request("POST", accounts, { token: h.platformToken, body: { name: "Before" } });
  const updated = await h.request("PATCH", `${accounts}/${account.id}`, {
    token: h.platformToken,
    body: { name: "After", status: "suspended", features: { agent_bots: false, sla: true } },
  });
  t.is(updated.status, 200);
  t.is(updated.body.name, "After");
  t.is(updated.body.status, "suspended");
  t.false("agent_bots" in updated.body.features);
  t.true(updated.body.features.sla);
  t.true(updated.body.features.macros, "features not named stay as they were");
  t.deepEqual((await h.request("GET", `${accounts}/${account.id}`, { token: h.platformToken })).body, updated.body);

  const audits = await h.knex("audit_logs").where({ auditable_type: "Account", auditable_id: account.id });
  t.is(audits.length, 1);
  t.is(audits[0].action, "update");
  t.is(audits[0].account_id, account.id);
  t.deepEqual(audits[0].audited_changes.name, ["Before", "After"]);
  t.deepEqual(audits[0].audited_changes.status, ["active", "suspended"]);
  t.false("updated_at" in audits[0].audited_changes);
});

test("validation errors are 422 {message, attributes} and write nothing", async (t) => {
  const probe = randomUUID();
  const cases: [Record<string, unknown>, string, string][] = [
    [{}, "Name can't be blank", "name"],
    [{ name: "" }, "Name can't be blank", "name"],
    [{ name: 5 }, "Name must be of type string", "name"],
    [{ name: "X", domain: "d".repeat(101) }, "Domain is too long (maximum is 100 characters)", "domain"],
    [{ name: "X", support_email: "nope" }, "Support email is invalid", "support_email"],
    [{ name: "X", status: "closed" }, "Status is not included in the list", "status"],
    [{ name: "X", features: ["sla"] }, "Features must be of type record", "features"],
  ];
  for (const [body, message, attribute] of cases) {
    const response = await h.request("POST", accounts, { token: h.platformToken, body: { ...body, custom_attributes: { probe } } });
    t.is(response.status, 422, JSON.stringify(body));
    t.deepEqual(response.body, { message, attributes: [attribute] });
  }
  t.deepEqual(await h.knex("accounts").whereRaw("custom_attributes->>'probe' = ?", [probe]), []);
});

test("unknown and non-numeric ids are 404", async (t) => {
  for (const id of ["999999999", "abc", "1.5", "-1"]) {
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const response = await h.request(method, `${accounts}/${id}`, { token: h.platformToken, body: method === "PATCH" ? { name: "x" } : undefined });
      t.is(response.status, 404, `${method} ${id}`);
      t.deepEqual(response.body, { error: "Resource could not be found" });
    }
  }
});

test("delete answers 200 and the account is gone from the platform API at once", async (t) => {
  const { body: account } = await h.request("POST", accounts, { token: h.platformToken, body: { name: "Doomed" } });
  const deleted = await h.request("DELETE", `${accounts}/${account.id}`, { token: h.platformToken });
  t.is(deleted.status, 200);
  t.is((await h.request("GET", `${accounts}/${account.id}`, { token: h.platformToken })).status, 404);
  t.is((await h.request("PATCH", `${accounts}/${account.id}`, { token: h.platformToken, body: { name: "x" } })).status, 404);
});
