import { mkdir } from "node:fs/promises";
import path from "node:path";
import test from "ava";
import { setInboxMembers } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";
import { subscribeAgent } from "../realtime/world";
import { ARTEFACTS, closeSiteAfter, hostSite, launchBrowser, widgetFrame } from "./browserSupport";
import { widgetInbox } from "./widgetSession";

/* The callbacks given to evaluate run in the page; the test's own compile has no DOM types. */
declare const window: any;
declare const document: any;
declare const getComputedStyle: any;

const h = useHarness(test, { relay: { sweepIntervalMs: 500 }, realtime: true });

test("a page with the embed snippet opens the widget; the visitor's message reaches the API and the agent's cable; the reply appears live", async (t) => {
  // The snippet the dashboard hands out names FRONTEND_URL: here the test server.
  Object.assign(h.deps.settings, { frontendUrl: h.baseUrl });
  const account = await createAccount(h);
  const api = accountApi(h, account);
  const inbox = await widgetInbox(
    h,
    account,
    { welcome_title: "Hi, we are Shop", welcome_tagline: "Ask us anything", widget_color: "#6a1b9a" },
    { greeting_enabled: true, greeting_message: "Welcome to Shop!" },
  );
  await setInboxMembers(h, account, inbox.id, [account.agent.id]);
  const agent = await subscribeAgent(h, account.id, account.agent.id);
  t.teardown(() => agent.close());
  const site = await hostSite(inbox.web_widget_script);
  closeSiteAfter(t, site.server);

  const page = await (await launchBrowser(t)).newPage();
  await page.setViewport({ width: 1000, height: 800 });
  await page.goto(site.url);
  await page.waitForFunction(() => window.$chatwoot?.hasLoaded === true);
  const bubble = await page.waitForSelector("button.cw-bubble");
  t.is(await bubble!.evaluate((node) => node.getAttribute("aria-label")), "Open chat");
  await bubble!.click();
  t.is(await bubble!.evaluate((node) => node.getAttribute("aria-expanded")), "true");

  const frame = await widgetFrame(page);
  t.is(await frame.$eval("#cw-title", (node) => node.textContent), "Hi, we are Shop");
  t.is(await frame.$eval("#cw-tagline", (node) => node.textContent), "Ask us anything");
  t.is(await frame.$eval("#cw-input-label", (node) => node.textContent), "Type your message", "the composer is labelled");
  t.true((await frame.$eval(".cw-greeting", (node) => node.textContent))!.includes("Welcome to Shop!"));
  t.is(await frame.$eval(".cw-header", (node) => getComputedStyle(node).backgroundColor), "rgb(106, 27, 154)", "themed by widget_color");

  // The composer has the focus once the widget opens: the visitor types and presses Enter.
  await frame.waitForFunction(() => document.activeElement?.id === "cw-input");
  await page.keyboard.type("Hello from the browser");
  await page.keyboard.press("Enter");

  const created = await agent.next("message.created", (data) => data.content === "Hello from the browser");
  t.like(created.data, { message_type: 0, inbox_id: inbox.id, sender: { type: "contact" } });
  const conversationId = created.data.conversation_id;
  const listed = await expectOk(api.get(`/conversations/${conversationId}/messages`), "agent's list");
  t.true(listed.payload.some((message: { content: string }) => message.content === "Hello from the browser"));

  const asAgent = accountApi(h, account, account.agent.token);
  await expectOk(asAgent.post(`/conversations/${conversationId}/messages`, { content: "Hello! How can we help?" }), "agent reply");
  await frame.waitForFunction(() => [...document.querySelectorAll(".cw-theirs .cw-text")].some((node) => node.textContent === "Hello! How can we help?"), {
    timeout: 20_000,
  });
  t.is(await frame.$$eval(".cw-mine .cw-text", (nodes) => nodes.map((node) => node.textContent)).then((texts) => texts.join("|")), "Hello from the browser");

  // A choice (as a booking bot asks): the visitor clicks an option, the answer is kept on the message.
  const choice = await expectOk(
    asAgent.post(`/conversations/${conversationId}/messages`, {
      content: "Which day suits you?",
      content_type: "input_select",
      content_attributes: {
        items: [
          { title: "Monday", value: "mon" },
          { title: "Tuesday", value: "tue" },
        ],
      },
    }),
    "choice",
  );
  const option = await frame.waitForSelector(`[data-id="${choice.id}"] .cw-option:last-child`);
  await option!.click();
  await frame.waitForSelector(`[data-id="${choice.id}"] .cw-option[aria-pressed="true"]`);
  const answered = await expectOk(asAgent.get(`/conversations/${conversationId}/messages`), "agent's list");
  t.deepEqual(answered.payload.find((message: { id: number }) => message.id === choice.id).content_attributes.submitted_values, [
    { title: "Tuesday", value: "tue" },
  ]);

  await mkdir(ARTEFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTEFACTS, "widget.png") });

  // window.$chatwoot as a site drives it: a label and the visitor's custom attributes reach the account.
  await expectOk(api.post("/labels", { title: "checkout" }), "label");
  await page.evaluate(() => {
    const chatwoot = window.$chatwoot;
    chatwoot.setLabel("checkout");
    chatwoot.setCustomAttributes({ plan: "gold" });
  });
  await t.notThrowsAsync(async () => {
    for (let tries = 0; tries < 100; tries++) {
      const conversation = await expectOk(api.get(`/conversations/${conversationId}`), "conversation");
      const contact = await expectOk(api.get(`/contacts/${created.data.sender.id}`), "contact");
      if (conversation.labels.includes("checkout") && contact.payload.custom_attributes.plan === "gold") return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("setLabel and setCustomAttributes did not reach the account");
  });

  // Escape closes the widget and gives the focus back to the launcher.
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => window.$chatwoot.isOpen === false);
  t.is(await page.evaluate(() => document.activeElement?.className), "cw-bubble");
});
