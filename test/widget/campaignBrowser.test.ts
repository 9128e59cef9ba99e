import { mkdir } from "node:fs/promises";
import path from "node:path";
import test from "ava";
import { createAccount } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { ARTEFACTS, closeSiteAfter, hostSite, launchBrowser } from "./browserSupport";
import { widgetInbox } from "./widgetSession";

/* The callbacks given to evaluate run in the page; the test's own compile has no DOM types. */
declare const window: any;
declare const document: any;

const h = useHarness(test, { relay: { sweepIntervalMs: 500 }, realtime: true });

const TIME_ON_PAGE_S = 1;
const MESSAGE = "Need a hand with your cart?";

test("an ongoing campaign shows on its page after its time on page; the visitor's reply opens its conversation with the campaign's message first", async (t) => {
  Object.assign(h.deps.settings, { frontendUrl: h.baseUrl });
  const account = await createAccount(h);
  const api = accountApi(h, account);
  const inbox = await widgetInbox(h, account);
  const site = await hostSite(inbox.web_widget_script);
  closeSiteAfter(t, site.server);
  const created = await expectOk(
    api.post("/campaigns", {
      campaign: {
        title: "Cart help",
        message: MESSAGE,
        inbox_id: inbox.id,
        sender_id: account.admin.id,
        trigger_rules: { url: `${site.url}cart`, time_on_page: TIME_ON_PAGE_S },
      },
    }),
    "campaign",
  );
  const admin = await h.knex("users").where("id", account.admin.id).first();

  const page = await (await launchBrowser(t)).newPage();
  await page.setViewport({ width: 1000, height: 800 });
  const frameOf = async () => (await (await page.waitForSelector(".cw-holder iframe"))!.contentFrame())!;

  // Another page of the site: nothing shows, however long the visitor stays.
  await page.goto(`${site.url}about`);
  await page.waitForFunction(() => window.$chatwoot?.hasLoaded === true);
  await new Promise((resolve) => setTimeout(resolve, (TIME_ON_PAGE_S + 1.5) * 1000));
  t.true(await page.$eval(".cw-holder", (node) => node.hidden), "no snippet on a page the campaign does not name");
  t.true(await (await frameOf()).$eval("#cw-campaign", (node) => node.hidden));

  // The campaign's page (trailing slash aside): the snippet shows once the time on page has passed, not before.
  await page.goto(`${site.url}cart/`);
  await page.waitForFunction(() => window.$chatwoot?.hasLoaded === true);
  const loadedAt = Date.now();
  const frame = await frameOf();
  await frame.waitForSelector("#cw-campaign:not([hidden])", { timeout: 15_000 });
  t.true(Date.now() - loadedAt >= TIME_ON_PAGE_S * 1000 - 250, "shown after time_on_page");
  t.is(await frame.$eval("#cw-campaign-text", (node) => node.textContent), MESSAGE);
  t.is(await frame.$eval("#cw-campaign-sender", (node) => node.textContent), admin.name);
  t.like(await page.$eval(".cw-holder", (node) => ({ hidden: node.hidden, unread: node.classList.contains("cw-unread") })), { hidden: false, unread: true });
  t.false(await page.evaluate(() => window.$chatwoot.isOpen));
  t.truthy(await page.evaluate(() => document.cookie.includes("cw_snooze_campaigns_till=")), "campaigns snooze once one has shown");
  await mkdir(ARTEFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTEFACTS, "campaign.png") });

  // Clicking it opens the widget with the campaign's message; nothing is written until the visitor replies.
  await (await frame.$("#cw-campaign-open"))!.click();
  await page.waitForFunction(() => window.$chatwoot.isOpen === true);
  t.false(await page.$eval(".cw-holder", (node) => node.classList.contains("cw-unread")));
  await frame.waitForFunction(
    (text: string) => [...document.querySelectorAll(".cw-theirs .cw-text")].some((node: any) => node.textContent === text),
    {},
    MESSAGE,
  );
  t.is((await h.knex("conversations").where("inbox_id", inbox.id)).length, 0);

  await frame.waitForFunction(() => document.activeElement?.id === "cw-input");
  await page.keyboard.type("Yes, the blue one");
  await page.keyboard.press("Enter");
  await frame.waitForSelector(".cw-mine[data-id]");

  const listed = await expectOk(api.get("/conversations?status=all"), "conversations");
  t.is(listed.data.payload.length, 1);
  const conversation = listed.data.payload[0];
  const messages = await expectOk(api.get(`/conversations/${conversation.id}/messages`), "messages");
  t.deepEqual(
    messages.payload.map((message: { content: string; message_type: number; sender?: { id: number; type: string } }) => [
      message.content,
      message.message_type,
      message.sender?.type,
    ]),
    [
      [MESSAGE, 1, "user"],
      ["Yes, the blue one", 0, "contact"],
    ],
  );
  t.is(messages.payload[0].sender.id, account.admin.id);
  const ofCampaign = await expectOk(
    api.post("/conversations/filter", { payload: [{ attribute_key: "campaign_id", filter_operator: "is_present", values: [], query_operator: null }] }),
    "filter by campaign",
  );
  t.deepEqual(
    ofCampaign.payload.map((item: { id: number }) => item.id),
    [conversation.id],
  );
  const row = await h.knex("conversations").where({ account_id: account.id, display_id: conversation.id }).first();
  const stored = await h.knex("campaigns").where({ account_id: account.id, display_id: created.id }).first();
  t.is(Number(row.campaign_id), Number(stored.id));
  // The widget's log is the server's: the campaign's message (now with its id) above the reply, once.
  t.deepEqual(await frame.$$eval(".cw-message:not(.cw-greeting) .cw-text", (nodes) => nodes.map((node) => node.textContent)), [MESSAGE, "Yes, the blue one"]);

  // Shown once: the campaign's page again shows no snippet.
  await page.goto(`${site.url}cart`);
  await page.waitForFunction(() => window.$chatwoot?.hasLoaded === true);
  await new Promise((resolve) => setTimeout(resolve, (TIME_ON_PAGE_S + 1.5) * 1000));
  t.true(await page.$eval(".cw-holder", (node) => node.hidden));
});
