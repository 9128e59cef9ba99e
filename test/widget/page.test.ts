import test from "ava";
import { createAccount } from "../support/factories";
import { useHarness } from "../support/harness";
import { widgetInbox } from "./widgetSession";

const h = useHarness(test);

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${h.baseUrl}${path}`, { headers });
const bootOf = (html: string) => JSON.parse(/<script type="application\/json" id="cw-boot">(.*?)<\/script>/s.exec(html)![1]!);

test("the embed snippet's SDK and the widget page's script and styles are served, bundled, with validators", async (t) => {
  const sdk = await get("/packs/js/sdk.js");
  t.is(sdk.status, 200);
  t.regex(sdk.headers.get("content-type")!, /^application\/javascript/);
  const code = await sdk.text();
  t.true(code.includes("chatwootSDK"), "defines window.chatwootSDK");
  t.false(code.includes("import "), "bundled: no module imports left");
  const etag = sdk.headers.get("etag")!;
  t.is((await get("/packs/js/sdk.js", { "If-None-Match": etag })).status, 304);

  const script = await get("/packs/js/widget.js");
  t.is(script.status, 200);
  t.true((await script.text()).includes("RoomChannel"), "ActionCable's client is bundled in");
  const styles = await get("/packs/js/widget.css");
  t.regex(styles.headers.get("content-type")!, /^text\/css/);
  t.is((await get("/packs/js/other.js")).status, 404);
});

test("the widget page: 404 for an unknown token; a new visitor or the one of cw_conversation; the inbox's theme; framing as allowed_domains says", async (t) => {
  const account = await createAccount(h);
  const inbox = await widgetInbox(
    h,
    account,
    { welcome_title: "</script><script>alert(1)</script>", widget_color: "#123456", allowed_domains: "shop.example, *.shop.example" },
    { working_hours_enabled: true, out_of_office_message: "Back Monday", greeting_enabled: true, greeting_message: "Hello!" },
  );
  t.is((await get("/widget?website_token=unknown")).status, 404);
  t.is((await get("/widget")).status, 404);

  const page = await get(`/widget?website_token=${inbox.website_token}&locale=fr`);
  t.is(page.status, 200);
  t.regex(page.headers.get("content-type")!, /^text\/html/);
  const policy = page.headers.get("content-security-policy")!;
  t.true(policy.includes("script-src 'self'"));
  t.true(policy.includes("frame-ancestors shop.example *.shop.example"));
  t.is(page.headers.get("x-frame-options"), null);
  const html = await page.text();
  t.true(html.includes('<html lang="fr">'));
  t.false(html.includes("</script><script>alert"), "the title cannot close the data block");
  const boot = bootOf(html);
  t.like(boot.channel, {
    websiteToken: inbox.website_token,
    welcomeTitle: "</script><script>alert(1)</script>",
    widgetColor: "#123456",
    workingHoursEnabled: true,
    outOfOfficeMessage: "Back Monday",
    greetingMessage: "Hello!",
    locale: "fr",
  });
  const visitors = () => h.knex("contacts").where({ account_id: account.id }).pluck("id");
  t.is((await visitors()).length, 1, "the page made a visitor");

  const again = bootOf(await (await get(`/widget?website_token=${inbox.website_token}&cw_conversation=${boot.authToken}`)).text());
  t.is(again.pubsubToken, boot.pubsubToken, "the same visitor");
  t.is((await visitors()).length, 1);
  const fresh = bootOf(await (await get(`/widget?website_token=${inbox.website_token}&cw_conversation=forged`)).text());
  t.not(fresh.pubsubToken, boot.pubsubToken);
});
