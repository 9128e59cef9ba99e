import test from "ava";
import { createAccount } from "../support/factories";
import { createContact, createInbox } from "../support/conversationFactories";
import { useHarness } from "../support/harness";
import { conversationWorld, createConversation } from "../conversations/setup";

const h = useHarness(test);

/** `levels` objects inside each other, as JSON text (JSON.stringify itself overflows on deep values). */
const deepJson = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"leaf":true}${"}".repeat(levels - 1)}`;

/** A small, ordinary nested value. */
const nested = (levels: number) => JSON.parse(deepJson(levels));

/** 3,500 levels is 21 KB, which used to overflow the stack when the model cloned it. */
const DEEP = "__DEEP__";
const withDeep = (body: Record<string, unknown>, levels = 3500) => JSON.stringify(body).replaceAll(`"${DEEP}"`, deepJson(levels));

/** A body nested far deeper than any stack, in a field of the given name. */
const rawDeepBody = (levels: number, field: string) => withDeep({ name: "Deep", [field]: DEEP }, levels);

test("deeply nested free-form fields answer 422 on every route that takes one, with nothing written", async (t) => {
  const world = await conversationWorld(h);
  const { account, base } = world;
  const admin = { token: account.admin.token };
  const conversation = await createConversation(h, world);
  const widget = await createInbox(h, account, { name: "Shop", channel: { type: "web_widget", website_url: "https://shop.example" } });
  const visitor = await h.request("POST", `/api/v1/widget/config?website_token=${widget.website_token}`);
  const before = await h.knex("contacts").where("account_id", account.id).count("* as n").first();

  const cases: [string, string, Record<string, unknown>, string?][] = [
    ["POST", `${base}/contacts`, { name: "Deep", custom_attributes: DEEP }],
    ["POST", `${base}/contacts`, { name: "Deep", additional_attributes: DEEP }],
    ["PATCH", `${base}/contacts/${world.contact.id}`, { additional_attributes: DEEP }],
    ["PATCH", `${base}/contacts/${world.contact.id}`, { custom_attributes: DEEP }],
    ["POST", `${base}/conversations`, { inbox_id: world.inbox.id, contact_id: world.contact.id, additional_attributes: DEEP }],
    ["POST", `${base}/conversations/${conversation.id}/custom_attributes`, { custom_attributes: DEEP }],
    ["POST", `${base}/conversations/${conversation.id}/messages`, { content: "hi", content_attributes: DEEP }],
    ["POST", `${base}/agent_bots`, { name: "Deep bot", bot_config: DEEP }],
    [
      "POST",
      `${base}/automation_rules`,
      {
        name: "Deep",
        event_name: "message_created",
        conditions: [{ attribute_key: "content", filter_operator: "contains", values: [DEEP] }],
        actions: [{ action_name: "add_label", action_params: [DEEP] }],
      },
    ],
    ["POST", `${base}/scheduling/resources`, { name: "Dr. Deep", custom_attributes: DEEP }],
    ["PATCH", `/platform/api/v1/accounts/${account.id}`, { limits: DEEP }, h.platformToken],
    [
      "POST",
      "/platform/api/v1/users",
      { name: "Deep", email: `deep-${account.id}@example.com`, password: "Passw0rd!", custom_attributes: DEEP },
      h.platformToken,
    ],
  ];
  // 40 levels passes the whole-body guard and meets the fields' own limit; 3,500 meets the body guard.
  for (const levels of [40, 3500]) {
    for (const [method, path, body, token] of cases) {
      const response = await h.request(method, path, { token: token ?? admin.token, rawBody: withDeep(body, levels) });
      const what = `${levels} levels: ${method} ${path} ${Object.keys(body).join(",")}: ${JSON.stringify(response.body).slice(0, 200)}`;
      t.is(response.status, 422, what);
      t.regex(JSON.stringify(response.body), /nested too deeply/, what);
    }
  }

  // The public widget endpoint needs no account credentials: any visitor gets a session token (above).
  const widgetEvent = (levels: number) =>
    h.request("POST", `/api/v1/widget/events?website_token=${widget.website_token}`, {
      rawBody: withDeep({ name: "webwidget.triggered", event_info: DEEP }, levels),
      headers: { "X-Auth-Token": visitor.body.auth_token },
    });
  for (const levels of [40, 5000]) {
    const event = await widgetEvent(levels);
    t.is(event.status, 422, `${levels}: ${JSON.stringify(event.body).slice(0, 200)}`);
  }
  t.is((await h.knex("events").where({ account_id: account.id, name: "webwidget_triggered" })).length, 0);

  t.deepEqual(await h.knex("contacts").where("account_id", account.id).count("* as n").first(), before);
  t.is((await h.knex("agent_bots").where("account_id", account.id)).length, 0);
  t.is((await h.knex("users").where("email", `deep-${account.id}@example.com`)).length, 0);
  const platform = await h.request("GET", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken });
  t.deepEqual(platform.body.limits, {});
});

test("free-form fields have a size limit too; ordinary nesting is accepted", async (t) => {
  const account = await createAccount(h);
  const path = `/api/v1/accounts/${account.id}/contacts`;
  const huge = await h.request("POST", path, { token: account.admin.token, body: { name: "Huge", additional_attributes: { notes: "x".repeat(70 * 1024) } } });
  t.is(huge.status, 422);
  t.regex(JSON.stringify(huge.body), /too large/);

  const fine = await createContact(h, account, { additional_attributes: nested(20) });
  t.deepEqual(fine.contact.additional_attributes, nested(20));
});

test("a whole body nested deeper than the stack answers 422 whatever field holds it, and the service keeps serving", async (t) => {
  const account = await createAccount(h);
  for (const field of ["unknown_field", "custom_attributes", "contact"]) {
    const response = await h.request("POST", `/api/v1/accounts/${account.id}/contacts`, { token: account.admin.token, rawBody: rawDeepBody(100_000, field) });
    t.is(response.status, 422, `${field}: ${JSON.stringify(response.body).slice(0, 200)}`);
  }
  const widget = await h.request("POST", "/api/v1/widget/events?website_token=nope", { rawBody: rawDeepBody(100_000, "event_info") });
  t.true(widget.status < 500, `widget: ${widget.status}`);
  // Still serving: health answers with its dependencies up (its status also depends on a relay, absent here).
  t.like((await h.request("GET", "/health")).body, { database: "ok", temporal: "ok" });
});
