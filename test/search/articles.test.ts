import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { accountApi, expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

let n = 0;
async function helpCenter(account: TestAccount) {
  const slug = `search-kb-${process.pid}-${++n}`;
  const api = accountApi(h, account);
  await expectOk(api.post("/portals", { portal: { name: "KB", slug, config: { default_locale: "en", allowed_locales: ["en", "es"] } } }), "portal");
  const category = (await expectOk(api.post(`/portals/${slug}/categories`, { category: { name: "Billing" } }), "category")).payload;
  const article = async (body: Record<string, unknown>) => (await expectOk(api.post(`/portals/${slug}/articles`, { article: body }), "article")).payload;
  return { slug, category, article };
}

const search = (account: TestAccount, query: string, token = account.admin.token) =>
  h.request("GET", `/api/v1/accounts/${account.id}/search/articles${query}`, { token });

test("search/articles finds the account's published articles by word prefixes, in Chatwoot's search partial", async (t) => {
  const account = await createAccount(h);
  const { slug, category, article } = await helpCenter(account);
  const refund = await article({ title: "Refunds", content: "How refunds reach your card", status: "published", category_id: category.id });
  const uncategorised = await article({ title: "Payment methods", description: "Cards and refunding", content: "We take cards.", status: "published" });
  await article({ title: "Refund policy draft", content: "Not yet", status: "draft" });
  await article({ title: "Old refund rules", content: "Gone", status: "archived" });

  const response = await search(account, "?q=refund", account.agent.token);
  t.is(response.status, 200);
  t.deepEqual(Object.keys(response.body.payload), ["articles"]);
  t.deepEqual(
    response.body.payload.articles.map((a: { id: number }) => a.id).sort(),
    [refund.id, uncategorised.id].sort(),
    "published only: drafts and archived articles are not found",
  );
  const found = response.body.payload.articles.find((a: { id: number }) => a.id === refund.id);
  t.deepEqual(found, {
    id: refund.id,
    title: "Refunds",
    locale: "en",
    content: "How refunds reach your card",
    slug: refund.slug,
    portal_slug: slug,
    account_id: account.id,
    category_name: "Billing",
    status: "published",
    updated_at: found.updated_at,
  });
  t.is(typeof found.updated_at, "number");
  t.is(response.body.payload.articles.find((a: { id: number }) => a.id === uncategorised.id).category_name, null);

  // Every word must start a word of the article; case does not matter; punctuation is no syntax.
  t.deepEqual(
    (await search(account, "?q=REFUNDS%20card")).body.payload.articles.map((a: { id: number }) => a.id),
    [refund.id],
  );
  t.deepEqual((await search(account, "?q=refund%20%26%20!%7C%20(")).body.payload.articles.length, 2);
  t.deepEqual((await search(account, "?q=nothing-like-it")).body.payload.articles, []);
});

test("search/articles: a blank or wordless q finds nothing, as pg_search's blank query; other accounts' articles never", async (t) => {
  const account = await createAccount(h);
  const { article } = await helpCenter(account);
  await article({ title: "Shipping times", content: "Two days", status: "published" });
  for (const query of ["", "?q=", "?q=%20%20", "?q=%26%26", "?q=&page=1"]) {
    const response = await search(account, query);
    t.deepEqual([response.status, response.body], [200, { payload: { articles: [] } }], query);
  }
  const other = await createAccount(h);
  t.deepEqual((await search(other, "?q=shipping")).body, { payload: { articles: [] } });
  t.is((await search(account, "?q=shipping")).body.payload.articles.length, 1);
});

test("search/articles pages 15 at a time, best match first; page is lenient", async (t) => {
  const account = await createAccount(h);
  const { article } = await helpCenter(account);
  for (let i = 0; i < 17; i++) await article({ title: `Guide ${i}`, content: "About invoices", status: "published" });
  // The word in the title, twice more in the content: the best match.
  const best = await article({ title: "Invoices", content: "Invoices and invoices", status: "published" });
  const first = (await search(account, "?q=invoice")).body.payload.articles;
  t.is(first.length, 15);
  t.is(first[0].id, best.id);
  const second = (await search(account, "?q=invoice&page=2")).body.payload.articles;
  t.is(second.length, 3);
  t.deepEqual(new Set([...first, ...second].map((a: { id: number }) => a.id)).size, 18, "no article on two pages");
  t.deepEqual((await search(account, "?q=invoice&page=0")).body.payload.articles, first, "page 0 is page 1");
  t.deepEqual((await search(account, "?q=invoice&page=abc")).body.payload.articles, first, "a page that is no number is page 1");
  t.deepEqual((await search(account, "?q=invoice&page=3")).body.payload.articles, []);
});

test("search/articles: members only; other accounts and bots refused; an over-long q is 422", async (t) => {
  const account = await createAccount(h);
  const stranger = await createAccount(h);
  const outsider = await search(account, "?q=x", stranger.admin.token);
  t.deepEqual([outsider.status, outsider.body], [401, { error: "You are not authorized to access this account" }]);
  const bot = await expectOk(accountApi(h, account).post("/agent_bots", { name: "Bot" }), "bot");
  const asBot = await search(account, "?q=x", bot.access_token);
  t.deepEqual([asBot.status, asBot.body], [401, { error: "Access to this endpoint is not authorized for bots" }]);
  t.is((await search(account, "?q=x", "")).status, 401);
  const long = await search(account, `?q=${"x".repeat(1001)}`);
  t.is(long.status, 422);
});
