import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { newVisitor, widgetInbox } from "./widgetSession";

const h = useHarness(test);

/** An ongoing campaign of a website inbox, made as the dashboard makes one. */
async function campaign(account: TestAccount, inboxId: number, attributes: Record<string, unknown> = {}) {
  return expectOk(
    accountApi(h, account).post("/campaigns", {
      campaign: {
        title: "Cart help",
        message: "Need a hand with your cart?",
        inbox_id: inboxId,
        sender_id: account.admin.id,
        trigger_rules: { url: "https://shop.example/cart", time_on_page: 3 },
        ...attributes,
      },
    }),
    "campaign",
  );
}

const campaigns = (websiteToken: string) => h.request("GET", `/api/v1/widget/campaigns?website_token=${websiteToken}`);

test("GET /campaigns lists the inbox's enabled ongoing campaigns in Chatwoot's shape, without a visitor token", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(h, account);
  const other = await widgetInbox(h, account, { website_url: "https://other.example" });
  const shown = await campaign(account, inbox.id, { trigger_only_during_business_hours: true });
  const anonymous = await campaign(account, inbox.id, { sender_id: null, message: "Browsing? Ask us.", trigger_rules: { url: "https://shop.example/*" } });
  await campaign(account, inbox.id, { enabled: false, message: "disabled" });
  await campaign(account, other.id, { message: "another inbox's" });
  // A one-off on the website inbox cannot be made through the API (the inbox decides the type); a row that is one anyway is not served.
  await h.knex("campaigns").insert({
    account_id: account.id,
    display_id: 99,
    title: "Old",
    message: "one-off",
    inbox_id: inbox.id,
    campaign_type: "one_off",
    scheduled_at: new Date(),
    enabled: true,
  });

  const listed = await campaigns(inbox.website_token);
  t.is(listed.status, 200);
  const admin = await h.knex("users").where("id", account.admin.id).first();
  t.deepEqual(listed.body, [
    {
      id: shown.id,
      trigger_rules: { url: "https://shop.example/cart", time_on_page: 3 },
      trigger_only_during_business_hours: true,
      message: "Need a hand with your cart?",
      sender: { name: admin.name, avatar_url: "" },
    },
    {
      id: anonymous.id,
      trigger_rules: { url: "https://shop.example/*" },
      trigger_only_during_business_hours: false,
      message: "Browsing? Ask us.",
      sender: null,
    },
  ]);
  t.deepEqual(
    (await campaigns(other.website_token)).body.map((item: { message: string }) => item.message),
    ["another inbox's"],
  );

  // Disabling one in the dashboard takes it off the widget's list.
  await expectOk(accountApi(h, account).patch(`/campaigns/${shown.id}`, { campaign: { enabled: false } }), "disable");
  t.deepEqual(
    (await campaigns(inbox.website_token)).body.map((item: { id: number }) => item.id),
    [anonymous.id],
  );
});

test("GET /campaigns: an unknown or missing website token is a 404, a suspended account's widget a 401; none without the campaigns feature", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(h, account);
  const created = await campaign(account, inbox.id);
  t.is((await campaigns("nope")).status, 404);
  t.is((await h.request("GET", "/api/v1/widget/campaigns")).status, 404);

  await expectOk(
    h.request("PATCH", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken, body: { features: { campaigns: false } } }),
    "feature off",
  );
  const listed = await campaigns(inbox.website_token);
  t.is(listed.status, 200);
  t.deepEqual(listed.body, []);
  const visitor = await newVisitor(h, inbox.website_token);
  t.is((await visitor.call("POST", "/events", { name: "campaign.triggered", event_info: { campaign_id: created.id } })).status, 204);
  t.deepEqual((await visitor.call("GET", "/conversations")).body, {}, "nor does campaign.triggered open anything");

  await h.knex("accounts").where("id", account.id).update({ status: "suspended" });
  t.is((await campaigns(inbox.website_token)).status, 401);
});

test("campaign.triggered opens the visitor's conversation with the campaign's message from its sender, once", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(h, account);
  const created = await campaign(account, inbox.id);
  const visitor = await newVisitor(h, inbox.website_token);
  const trigger = (campaignId: unknown) =>
    visitor.call("POST", "/events", { name: "campaign.triggered", event_info: { campaign_id: campaignId, referer: "https://shop.example/cart" } });

  t.is((await trigger("999")).status, 204, "an unknown campaign starts nothing");
  t.deepEqual((await visitor.call("GET", "/conversations")).body, {});
  t.is((await trigger(String(created.id))).status, 204);
  const conversation = (await visitor.call("GET", "/conversations")).body;
  t.like(conversation, { inbox_id: inbox.id, status: "open" });
  const row = await h.knex("conversations").where({ account_id: account.id, display_id: conversation.id }).first();
  const stored = await h.knex("campaigns").where({ account_id: account.id, display_id: created.id }).first();
  t.is(Number(row.campaign_id), Number(stored.id));
  t.is(row.additional_attributes.referer, "https://shop.example/cart");

  await expectOk(visitor.call("POST", "/messages", { message: { content: "Yes please" } }), "reply");
  t.is((await trigger(created.id)).status, 204, "a second trigger adds nothing");
  const listed = await expectOk(accountApi(h, account).get(`/conversations/${conversation.id}/messages`), "messages");
  t.deepEqual(
    listed.payload.map((message: { content: string; message_type: number; sender?: { id: number } }) => [
      message.content,
      message.message_type,
      message.sender?.id,
    ]),
    [
      ["Need a hand with your cart?", 1, account.admin.id],
      ["Yes please", 0, visitor.contactId],
    ],
  );
  // The account API finds it by campaign (Chatwoot's campaign_id filter).
  const filtered = await expectOk(
    accountApi(h, account).post("/conversations/filter", {
      payload: [{ attribute_key: "campaign_id", filter_operator: "is_present", values: [], query_operator: null }],
    }),
    "filter",
  );
  t.deepEqual(
    filtered.payload.map((item: { id: number }) => item.id),
    [conversation.id],
  );

  // A disabled campaign, or a visitor who already wrote, starts nothing.
  const writer = await newVisitor(h, inbox.website_token);
  await expectOk(writer.call("POST", "/messages", { message: { content: "Hi" } }), "own message");
  await writer.call("POST", "/events", { name: "campaign.triggered", event_info: { campaign_id: created.id } });
  const late = await newVisitor(h, inbox.website_token);
  await expectOk(accountApi(h, account).patch(`/campaigns/${created.id}`, { campaign: { enabled: false } }), "disable");
  await late.call("POST", "/events", { name: "campaign.triggered", event_info: { campaign_id: created.id } });
  t.deepEqual((await late.call("GET", "/conversations")).body, {});
  const ofCampaign = await h.knex("conversations").where({ account_id: account.id }).whereNotNull("campaign_id");
  t.deepEqual(
    ofCampaign.map((item) => item.display_id),
    [conversation.id],
  );
});

test("50 triggers and first messages at once: one conversation, the campaign's message first when it opened it", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(h, account);
  const created = await campaign(account, inbox.id);
  const visitor = await newVisitor(h, inbox.website_token);
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      i % 2
        ? visitor.call("POST", "/events", { name: "campaign.triggered", event_info: { campaign_id: created.id } })
        : visitor.call("POST", "/messages", { message: { content: `reply ${i}` } }),
    ),
  );
  t.deepEqual(
    results.filter((result) => result.status >= 300).map((result) => result.status),
    [],
  );
  const rows = await h.knex("conversations").where({ account_id: account.id });
  t.is(rows.length, 1);
  const messages = await h.knex("messages").where("conversation_id", rows[0].id).orderBy("id");
  t.is(messages.filter((message) => message.content === "Need a hand with your cart?").length, rows[0].campaign_id ? 1 : 0);
  if (rows[0].campaign_id) t.is(messages[0].content, "Need a hand with your cart?");
  t.is(messages.filter((message) => message.message_type === 0).length, 25);
});
