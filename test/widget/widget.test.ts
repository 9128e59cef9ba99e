import { createHmac } from "node:crypto";
import test from "ava";
import { widgetTokenSecret } from "../../src/services/widgetTokens";
import { browserInfo, browserLanguage } from "../../src/services/widgetBrowser";
import { createAccount, type TestAccount } from "../support/factories";
import { expectOk, quickRetries, useHarness } from "../support/harness";
import { widgetInbox as createWidgetInbox } from "./widgetSession";
import { Receiver, signatureValid, type ReceivedRequest } from "../support/receiver";

const h = useHarness(test, { relay: true, settings: { delivery: quickRetries() } });

const admin = (account: TestAccount) => (method: string, path: string, body?: unknown) =>
  expectOk(h.request(method, `/api/v1/accounts/${account.id}${path}`, { token: account.admin.token, body }), `${method} ${path}`);

const widgetInbox = (account: TestAccount) => createWidgetInbox(h, account, { welcome_title: "Hi there" });

const config = (websiteToken: string, authToken?: string) =>
  h.request("POST", `/api/v1/widget/config?website_token=${websiteToken}`, { headers: authToken ? { "X-Auth-Token": authToken } : {} });

const triggered = (websiteToken: string, authToken: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  h.request("POST", `/api/v1/widget/events?website_token=${websiteToken}&locale=fr`, {
    body,
    headers: { ...(authToken ? { "X-Auth-Token": authToken } : {}), ...headers },
  });

/** An HS256 token signed by hand, byte for byte as the service signed widget tokens before it used jose. */
function handSigned(claims: object, secret: string, header: object = { alg: "HS256", typ: "JWT" }): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${part(header)}.${part(claims)}`;
  return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`;
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
const webwidgetEvents = (requests: ReceivedRequest[]) => requests.filter((r) => r.body.event === "webwidget_triggered");

test("config creates a visitor with a contact inbox and a token; a second config with that token resumes the same contact", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(account);

  const first = await config(inbox.website_token);
  t.is(first.status, 200);
  const { contact, website_channel_config: channelConfig, auth_token: authToken } = first.body;
  t.regex(contact.name, /^[a-z]+-[a-z]+-\d{1,3}$/);
  t.like(contact, { email: null, phone_number: null, identifier: null });
  t.is(typeof contact.pubsub_token, "string");
  t.is(channelConfig.auth_token, authToken);
  t.like(channelConfig, {
    account_id: account.id,
    website_token: inbox.website_token,
    website_name: "Shop",
    welcome_title: "Hi there",
    widget_color: inbox.widget_color,
    timezone: "UTC",
    utc_off_set: "+00:00",
    locale: "en",
    portal: null,
    enabled_features: inbox.selected_feature_flags,
  });
  const claims = claimsOf(authToken);
  t.is(claims.inbox_id, inbox.id);
  t.true(claims.exp > claims.iat);
  if (!h.deps.settings.secretKeyBase) {
    t.deepEqual(await h.knex("service_secrets").pluck("name"), ["secret_key_base"], "without SECRET_KEY_BASE the key is generated once and kept");
  }

  const shown = await admin(account)("GET", `/contacts/${contact.id}`);
  t.deepEqual(
    shown.payload.contact_inboxes.map((ci: { source_id: string; inbox: { id: number } }) => [ci.source_id, ci.inbox.id]),
    [[claims.source_id, inbox.id]],
  );
  const created = await h.knex("events").where({ account_id: account.id, name: "contact_created" }).pluck("payload");
  t.deepEqual(
    created.map((p) => p.id),
    [contact.id],
    "contact_created is recorded as for any new contact",
  );

  const again = await config(inbox.website_token, authToken);
  t.is(again.status, 200);
  t.is(again.body.contact.id, contact.id);
  t.is(again.body.contact.pubsub_token, contact.pubsub_token);
  t.is(claimsOf(again.body.auth_token).source_id, claims.source_id);
  t.deepEqual(await h.knex("contacts").where("account_id", account.id).pluck("id"), [contact.id]);

  // A token that is not ours, or one of another widget, starts a new visitor as Chatwoot does.
  const otherInbox = await widgetInbox(account);
  for (const stranger of ["not-a-token", handSigned({ source_id: claims.source_id, inbox_id: inbox.id }, "another key")]) {
    const fresh = await config(inbox.website_token, stranger);
    t.is(fresh.status, 200);
    t.not(fresh.body.contact.id, contact.id);
  }
  const elsewhere = await config(otherInbox.website_token, authToken);
  t.not(elsewhere.body.contact.id, contact.id);
});

test("a token issued before (hand-signed HS256) still resumes its visitor; expired, unsigned or foreign ones do not", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(account);
  const first = await config(inbox.website_token);
  const claims = claimsOf(first.body.auth_token);
  const secret = await widgetTokenSecret(h.knex);
  const now = Math.floor(Date.now() / 1000);
  const issued = handSigned({ source_id: claims.source_id, inbox_id: inbox.id, iat: now - 86_400, exp: now + 86_400 }, secret);
  t.is((await config(inbox.website_token, issued)).body.contact.id, first.body.contact.id);
  const unsigned = `${handSigned(claims, secret, { alg: "none", typ: "JWT" }).split(".").slice(0, 2).join(".")}.`;
  for (const refused of [
    handSigned({ ...claims, exp: now - 1 }, secret),
    unsigned,
    handSigned(claims, secret, { alg: "HS512", typ: "JWT" }),
    handSigned(claims, "another key"),
  ]) {
    t.not((await config(inbox.website_token, refused)).body.contact.id, first.body.contact.id);
  }
});

test("events records one webwidget_triggered for subscribed webhooks and the inbox's bot only, signed, with the contact inbox payload", async (t) => {
  const account = await createAccount(h);
  const api = admin(account);
  const [subscribed, unsubscribed, inboxBotReceiver, assigneeBotReceiver] = await Promise.all([1, 2, 3, 4].map(() => new Receiver().start()));
  for (const receiver of [subscribed, unsubscribed, inboxBotReceiver, assigneeBotReceiver]) t.teardown(() => receiver!.stop());

  const inbox = await widgetInbox(account);
  const { payload: hook } = await api("POST", "/webhooks", { url: subscribed!.url, subscriptions: ["webwidget_triggered"] });
  await api("POST", "/webhooks", { url: unsubscribed!.url, subscriptions: ["contact_created", "conversation_created", "message_created"] });
  const inboxBot = await api("POST", "/agent_bots", { name: "Greeter", outgoing_url: inboxBotReceiver!.url });
  const assigneeBot = await api("POST", "/agent_bots", { name: "Other", outgoing_url: assigneeBotReceiver!.url });
  await api("POST", `/inboxes/${inbox.id}/set_agent_bot`, { agent_bot: inboxBot.id });

  const session = (await expectOk(config(inbox.website_token), "config")) as { contact: { id: number }; auth_token: string };
  const conversation = await api("POST", "/conversations", {
    inbox_id: inbox.id,
    contact_id: session.contact.id,
    source_id: claimsOf(session.auth_token).source_id,
  });
  await api("POST", `/conversations/${conversation.id}/assignments`, { assignee_type: "AgentBot", assignee_id: assigneeBot.id });

  const ignored = await triggered(inbox.website_token, session.auth_token, { name: "something.else" });
  t.is(ignored.status, 204);
  const userAgent = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.127 Safari/537.36";
  const response = await triggered(
    inbox.website_token,
    session.auth_token,
    {
      name: "webwidget.triggered",
      event_info: { initiated_at: { timestamp: "Mon Jun 01 2026" }, referer: "https://shop.example/cart", widget_language: "spoofed" },
    },
    { "User-Agent": userAgent, "Accept-Language": "de-DE;q=0.8, en-GB, en;q=0.9" },
  );
  t.is(response.status, 204);
  t.is(response.body, undefined);

  await subscribed!.waitFor((r) => webwidgetEvents(r).length > 0);
  await inboxBotReceiver!.waitFor((r) => webwidgetEvents(r).length > 0);
  // The unsubscribed webhook is live (it gets its contact_created) but must never see the widget event.
  await unsubscribed!.waitFor((r) => r.some((request) => request.body.event === "contact_created"));
  await new Promise((resolve) => setTimeout(resolve, 1500));

  const delivered = webwidgetEvents(subscribed!.requests);
  t.is(delivered.length, 1);
  t.true(signatureValid(delivered[0]!, hook.webhook.secret));
  const body = delivered[0]!.body;
  t.like(body, {
    event: "webwidget_triggered",
    contact: { id: session.contact.id, account: { id: account.id } },
    inbox: { id: inbox.id, name: "Shop" },
    account: { id: account.id },
    source_id: claimsOf(session.auth_token).source_id,
    current_conversation: { id: conversation.id, inbox_id: inbox.id, channel: "Channel::WebWidget" },
  });
  t.is(typeof body.id, "number");
  t.deepEqual(body.event_info, {
    initiated_at: { timestamp: "Mon Jun 01 2026" },
    referer: "https://shop.example/cart",
    widget_language: "fr",
    browser_language: "en",
    browser: { browser_name: "Chrome", browser_version: "126.0.6478.127", device_name: "Unknown", platform_name: "Macintosh", platform_version: "10.15.7" },
  });

  const toBot = webwidgetEvents(inboxBotReceiver!.requests);
  t.is(toBot.length, 1);
  t.true(signatureValid(toBot[0]!, inboxBot.secret));
  t.deepEqual(toBot[0]!.body, body);
  t.is(webwidgetEvents(assigneeBotReceiver!.requests).length, 0, "a conversation's assignee bot does not get widget events");
  t.is(webwidgetEvents(unsubscribed!.requests).length, 0);
  t.is((await h.knex("events").where({ account_id: account.id, name: "webwidget_triggered" }).pluck("id")).length, 1);
});

test("unknown website_token is 404; a missing, forged or foreign token is Chatwoot's 404; a suspended account is 401", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(account);
  const other = await widgetInbox(account);
  const { auth_token: authToken } = await expectOk(config(inbox.website_token), "config");
  const event = { name: "webwidget.triggered" };
  const notFound = { error: "Resource could not be found" };

  for (const response of [
    await config("nope"),
    await h.request("POST", "/api/v1/widget/config"),
    await triggered("nope", authToken, event),
    await triggered(inbox.website_token, undefined, event),
    await triggered(inbox.website_token, "garbage", event),
    await triggered(inbox.website_token, handSigned(claimsOf(authToken), "another key"), event),
    await triggered(other.website_token, authToken, event),
  ]) {
    t.is(response.status, 404);
    t.deepEqual(response.body, notFound);
  }
  // Chatwoot clients may name the widget in the JSON body instead of the query.
  const inBody = await h.request("POST", "/api/v1/widget/events", {
    body: { website_token: inbox.website_token, ...event },
    headers: { "X-Auth-Token": authToken },
  });
  t.is(inBody.status, 204);

  await expectOk(h.request("PATCH", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken, body: { status: "suspended" } }), "suspend");
  for (const response of [await config(inbox.website_token, authToken), await triggered(inbox.website_token, authToken, event)]) {
    t.is(response.status, 401);
    t.deepEqual(response.body, { error: "Account is suspended" });
  }
});

test("browser detection reads the user agent and Accept-Language as Chatwoot's browser gem does", (t) => {
  t.deepEqual(
    browserInfo("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"),
    {
      browser_name: "Safari",
      browser_version: "17.4",
      device_name: "iPhone",
      platform_name: "iOS (iPhone)",
      platform_version: "17.4",
    },
  );
  t.like(browserInfo("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 Edg/125.0.2535.67"), {
    browser_name: "Microsoft Edge",
    browser_version: "125.0.2535.67",
    platform_name: "Windows",
    platform_version: "10.0",
  });
  t.like(browserInfo("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36"), {
    browser_name: "Chrome",
    platform_name: "Android",
    platform_version: "14",
  });
  t.like(browserInfo("Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0"), {
    browser_name: "Firefox",
    browser_version: "127.0",
    platform_name: "Generic Linux",
    platform_version: "0",
  });
  t.deepEqual(browserInfo(undefined), {
    browser_name: "Unknown Browser",
    browser_version: "0.0",
    device_name: "Unknown",
    platform_name: "Other",
    platform_version: "0",
  });

  t.is(browserLanguage("pt-BR,pt;q=0.9,en;q=0.8"), "pt");
  t.is(browserLanguage("en;q=0.5, DE-at"), "de");
  t.is(browserLanguage("fr;q=0, es;q=0.3"), "es");
  t.is(browserLanguage(undefined), null);
});
