import test from "ava";
import { campaignsForPage, matchesPage, secondsOnPage, type WidgetCampaign } from "../../web/widget/campaigns";

const campaign = (id: number, url: unknown, businessHours = false, timeOnPage: unknown = 5): WidgetCampaign => ({
  id,
  trigger_rules: { url, time_on_page: timeOnPage },
  trigger_only_during_business_hours: businessHours,
  message: "Hi",
  sender: null,
});

// Node has no URLPattern: these are the rules of a browser without it (Chromium's are in campaignBrowser.test.ts).
test("without URLPattern a rule must equal the page's URL, trailing slashes aside", (t) => {
  t.true(matchesPage("https://shop.example/cart", "https://shop.example/cart/"));
  t.true(matchesPage("https://shop.example/cart/", "https://shop.example/cart"));
  t.false(matchesPage("https://shop.example/cart", "https://shop.example/cart/checkout"));
  t.false(matchesPage("https://shop.example/cart", "not a url"));
});

test("campaignsForPage: the page's campaigns, business-hours ones only while the inbox is open", (t) => {
  const campaigns = [
    campaign(1, "https://shop.example/cart"),
    campaign(2, "https://shop.example/cart", true),
    campaign(3, "https://shop.example/"),
    campaign(4, null),
  ];
  t.deepEqual(
    campaignsForPage(campaigns, "https://shop.example/cart", true).map((item) => item.id),
    [1, 2],
  );
  t.deepEqual(
    campaignsForPage(campaigns, "https://shop.example/cart", false).map((item) => item.id),
    [1],
  );
});

test("secondsOnPage takes numbers and numeric text; nonsense is at once", (t) => {
  t.is(secondsOnPage(campaign(1, "", false, 3)), 3);
  t.is(secondsOnPage(campaign(1, "", false, "7")), 7);
  t.is(secondsOnPage(campaign(1, "", false, "soon")), 0);
  t.is(secondsOnPage(campaign(1, "", false, -2)), 0);
});
