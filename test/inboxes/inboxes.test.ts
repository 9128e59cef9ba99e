import test from "ava";
import type { ApiError } from "../../src/errors";
import type { AppContext } from "../../src/http/context";
import { accountScope } from "../../src/middlewares/accountScope";
import { AgentBot } from "../../src/models/AgentBot";
import { createAccount, type TestAccount } from "../support/factories";
import { createInbox, setInboxMembers } from "../support/conversationFactories";
import { accountApi, useHarness } from "../support/harness";

const h = useHarness(test);

const path = (account: TestAccount) => `/api/v1/accounts/${account.id}/inboxes`;

test("an administrator creates an API inbox and sees every field, secrets included", async (t) => {
  const account = await createAccount(h);
  const response = await h.request("POST", path(account), {
    token: account.admin.token,
    body: { name: "API desk", greeting_enabled: true, greeting_message: "Hi", channel: { type: "api", webhook_url: "https://example.com/in" } },
  });
  t.is(response.status, 200);
  const inbox = response.body;
  t.like(inbox, {
    name: "API desk",
    channel_type: "Channel::Api",
    greeting_enabled: true,
    greeting_message: "Hi",
    webhook_url: "https://example.com/in",
    avatar_url: "",
    timezone: "UTC",
    enable_auto_assignment: true,
    working_hours_enabled: false,
    sender_name_type: "friendly",
    allow_messages_after_resolved: true,
    lock_to_single_conversation: false,
    callback_webhook_url: null,
    website_token: null,
    web_widget_script: null,
    widget_color: null,
    hmac_mandatory: false,
    provider: null,
    additional_attributes: {},
  });
  t.regex(inbox.hmac_token, /^\w{24}$/);
  t.regex(inbox.secret, /^\w{24}$/);
  t.regex(inbox.inbox_identifier, /^\w{24}$/);
  t.is(inbox.working_hours.length, 7);
  t.deepEqual(inbox.working_hours[1], {
    day_of_week: 1,
    closed_all_day: false,
    open_hour: 9,
    open_minutes: 0,
    close_hour: 17,
    close_minutes: 0,
    open_all_day: false,
  });
  t.true(inbox.working_hours[0].closed_all_day);
  const channel = await h.knex("channel_api").where("id", inbox.channel_id).first();
  t.is(channel.account_id, account.id);
  t.is(channel.secret, inbox.secret);

  const shown = await h.request("GET", `${path(account)}/${inbox.id}`, { token: account.admin.token });
  t.is(shown.status, 200);
  t.deepEqual(shown.body, inbox);
});

test("a web widget inbox has its widget fields and script; website_url is required", async (t) => {
  const account = await createAccount(h);
  const missing = await h.request("POST", path(account), { token: account.admin.token, body: { name: "Site", channel: { type: "web_widget" } } });
  t.is(missing.status, 422);
  t.deepEqual(missing.body, { message: "Website url can't be blank", attributes: ["website_url"] });

  const response = await h.request("POST", path(account), {
    token: account.admin.token,
    body: { name: "Site", channel: { type: "web_widget", website_url: "https://shop.example", widget_color: "#ff0000", welcome_title: "Hello" } },
  });
  t.is(response.status, 200);
  t.like(response.body, {
    channel_type: "Channel::WebWidget",
    website_url: "https://shop.example",
    widget_color: "#ff0000",
    welcome_title: "Hello",
    reply_time: "in_a_few_minutes",
    pre_chat_form_enabled: false,
    continuity_via_email: true,
    selected_feature_flags: ["attachments", "emoji_picker", "end_conversation"],
  });
  t.regex(response.body.website_token, /^\w{24}$/);
  t.true(response.body.web_widget_script.includes(response.body.website_token));
  t.false("secret" in response.body);
  t.false("webhook_url" in response.body);
});

test("create validation answers 422 in Chatwoot's shape and writes nothing", async (t) => {
  const account = await createAccount(h);
  const cases: [unknown, string, string][] = [
    [{ channel: { type: "api" } }, "Name can't be blank", "name"],
    [{ name: "X" }, "Channel can't be blank", "channel"],
    [{ name: "X", channel: { type: "telegram" } }, "Type is not included in the list", "type"],
    [{ name: "X", channel: { type: "api", webhook_url: "not a url" } }, "Webhook url is invalid", "webhook_url"],
    [{ name: "X", timezone: "Mars/Base", channel: { type: "api" } }, "Timezone is not included in the list", "timezone"],
  ];
  for (const [body, message, attribute] of cases) {
    const response = await h.request("POST", path(account), { token: account.admin.token, body });
    t.is(response.status, 422, JSON.stringify(body));
    t.deepEqual(response.body, { message, attributes: [attribute] });
  }
  t.is((await h.knex("inboxes").where("account_id", account.id)).length, 0);
  t.is((await h.knex("channel_api").where("account_id", account.id)).length, 0);
});

test("update changes inbox and channel settings, audits the inbox change; delete removes inbox and channel", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account, { name: "Before" });
  const updated = await h.request("PATCH", `${path(account)}/${inbox.id}`, {
    token: account.admin.token,
    body: {
      name: "After",
      timezone: "Europe/Berlin",
      working_hours_enabled: true,
      working_hours: [{ day_of_week: 1, open_hour: 8, open_minutes: 30, close_hour: 12, close_minutes: 0 }],
      channel: { webhook_url: "https://example.com/new", website_url: "ignored for api inboxes" },
    },
  });
  t.is(updated.status, 200);
  t.like(updated.body, {
    id: inbox.id,
    name: "After",
    timezone: "Europe/Berlin",
    working_hours_enabled: true,
    webhook_url: "https://example.com/new",
    website_url: null,
  });
  t.deepEqual(updated.body.working_hours, [
    { day_of_week: 1, closed_all_day: false, open_hour: 8, open_minutes: 30, close_hour: 12, close_minutes: 0, open_all_day: false },
  ]);

  const audits = await h.knex("audit_logs").where({ auditable_type: "Inbox", auditable_id: inbox.id }).orderBy("id");
  t.deepEqual(
    audits.map((a) => a.action),
    ["create", "update"],
  );
  t.like(audits[0], { user_id: account.admin.id, user_type: "User", username: account.admin.email, account_id: account.id, version: 1 });
  t.like(audits[0].audited_changes, { name: "Before", channel_type: "Channel::Api" });
  t.deepEqual(audits[1].audited_changes.name, ["Before", "After"]);
  t.deepEqual(audits[1].audited_changes.timezone, ["UTC", "Europe/Berlin"]);
  t.truthy(audits[1].remote_address);

  const removed = await h.request("DELETE", `${path(account)}/${inbox.id}`, { token: account.admin.token });
  t.is(removed.status, 200);
  t.is(removed.body, undefined, "head :ok has an empty body");
  t.is(await h.knex("inboxes").where("id", inbox.id).first(), undefined);
  t.is(await h.knex("channel_api").where("id", inbox.channel_id).first(), undefined);
  const destroyed = await h.knex("audit_logs").where({ auditable_type: "Inbox", auditable_id: inbox.id, action: "destroy" }).first();
  t.is(destroyed.audited_changes.name, "After");
  t.is((await h.request("GET", `${path(account)}/${inbox.id}`, { token: account.admin.token })).status, 404);
});

test("agents list and see only inboxes they belong to, without secrets, and cannot change inboxes", async (t) => {
  const account = await createAccount(h);
  const mine = await createInbox(h, account, { name: "b mine" });
  const other = await createInbox(h, account, { name: "A other" });
  await setInboxMembers(h, account, mine.id, [account.agent.id]);

  const adminList = await h.request("GET", path(account), { token: account.admin.token });
  t.deepEqual(
    adminList.body.payload.map((i: any) => i.name),
    ["A other", "b mine"],
  );

  const agentList = await h.request("GET", path(account), { token: account.agent.token });
  t.is(agentList.status, 200);
  t.deepEqual(
    agentList.body.payload.map((i: any) => i.id),
    [mine.id],
  );
  t.false("secret" in agentList.body.payload[0]);
  t.false("hmac_token" in agentList.body.payload[0]);
  t.is(agentList.body.payload[0].webhook_url, null);

  t.is((await h.request("GET", `${path(account)}/${mine.id}`, { token: account.agent.token })).status, 200);
  const denied = await h.request("GET", `${path(account)}/${other.id}`, { token: account.agent.token });
  t.is(denied.status, 401);
  t.deepEqual(denied.body, { error: "You are not authorized to do this action" });

  for (const [method, url, body] of [
    ["POST", path(account), { name: "x", channel: { type: "api" } }],
    ["PATCH", `${path(account)}/${mine.id}`, { name: "x" }],
    ["DELETE", `${path(account)}/${mine.id}`, undefined],
    ["POST", `${path(account)}/${mine.id}/set_agent_bot`, { agent_bot: null }],
  ] as const) {
    const response = await h.request(method, url, { token: account.agent.token, body });
    t.is(response.status, 401, `${method} ${url}`);
  }
  t.is((await h.knex("inboxes").where("id", mine.id).first()).name, "b mine");
});

test("inboxes of another account are not found", async (t) => {
  const account = await createAccount(h);
  const stranger = await createAccount(h);
  const inbox = await createInbox(h, stranger);
  t.is((await h.request("GET", `${path(account)}/${inbox.id}`, { token: account.admin.token })).status, 404);
  t.is((await h.request("PATCH", `${path(account)}/${inbox.id}`, { token: account.admin.token, body: { name: "x" } })).status, 404);
  t.is((await h.request("DELETE", `${path(account)}/${inbox.id}`, { token: account.admin.token })).status, 404);
  const foreign = await h.request("GET", `${path(stranger)}/${inbox.id}`, { token: account.admin.token });
  t.is(foreign.status, 401);
  t.deepEqual(foreign.body, { error: "You are not authorized to access this account" });
  t.deepEqual((await h.request("GET", path(account), { token: account.admin.token })).body, { payload: [] });
});

test("set_agent_bot attaches and detaches a bot, which may then act in the account", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const bot = await h.request("POST", "/platform/api/v1/agent_bots", { token: h.platformToken, body: { name: "Global helper" } });
  t.is(bot.status, 200);
  const agentBot = (await AgentBot.query().findById(bot.body.id))!;
  // The account check bot-allowed routes go through (Chatwoot's EnsureCurrentAccountHelper).
  const enterAccount = async () => {
    const ctx = {
      deps: h.deps,
      params: { account_id: String(account.id) },
      state: { principal: { kind: "agent_bot", bot: agentBot } },
    } as unknown as AppContext;
    let entered = false;
    await accountScope(ctx, async () => {
      entered = true;
    });
    return entered;
  };
  // A bot of no account may not act in this one until an inbox of the account uses it.
  const refusedBefore = await t.throwsAsync(enterAccount());
  t.deepEqual((refusedBefore as ApiError).body, { error: "Bot is not authorized to access this account" });

  const attached = await h.request("POST", `${path(account)}/${inbox.id}/set_agent_bot`, { token: account.admin.token, body: { agent_bot: bot.body.id } });
  t.is(attached.status, 200);
  t.like(await h.knex("agent_bot_inboxes").where("inbox_id", inbox.id).first(), { agent_bot_id: bot.body.id, account_id: account.id, status: "active" });
  t.true(await enterAccount());

  const detached = await h.request("POST", `${path(account)}/${inbox.id}/set_agent_bot`, { token: account.admin.token, body: { agent_bot: null } });
  t.is(detached.status, 200);
  t.is(await h.knex("agent_bot_inboxes").where("inbox_id", inbox.id).first(), undefined);
  await t.throwsAsync(enterAccount());

  const stranger = await createAccount(h);
  const foreignBot = await accountApi(h, stranger).post("/agent_bots", { name: "theirs" });
  const refused = await h.request("POST", `${path(account)}/${inbox.id}/set_agent_bot`, {
    token: account.admin.token,
    body: { agent_bot: foreignBot.body.id },
  });
  t.is(refused.status, 404);
});

test("reset_secret rotates the API channel secret", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account);
  const reset = await h.request("POST", `${path(account)}/${inbox.id}/reset_secret`, { token: account.admin.token });
  t.is(reset.status, 200);
  t.not(reset.body.secret, inbox.secret);
  t.is((await h.knex("channel_api").where("id", inbox.channel_id).first()).secret, reset.body.secret);
});
