import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

let n = 0;
async function setup() {
  const account = await createAccount(h);
  const slug = `kb-${process.pid}-${++n}`;
  await expectOk(
    h.request("POST", `/api/v1/accounts/${account.id}/portals`, {
      token: account.admin.token,
      body: { portal: { name: "KB", slug, config: { default_locale: "en", allowed_locales: ["en", "es"] } } },
    }),
    "portal",
  );
  const base = `/api/v1/accounts/${account.id}/portals/${slug}`;
  return { account, slug, base };
}

const category = (account: TestAccount, base: string, body: Record<string, unknown>) =>
  expectOk(h.request("POST", `${base}/categories`, { token: account.admin.token, body: { category: body } }), "category");

test("categories: created per locale with a slug, listed by position, payload-wrapped", async (t) => {
  const { account, base } = await setup();
  const created = await h.request("POST", `${base}/categories`, { token: account.admin.token, body: { category: { name: "Getting Started", position: 2 } } });
  t.is(created.status, 200);
  t.like(created.body.payload, {
    name: "Getting Started",
    slug: "getting-started",
    locale: "en",
    position: 2,
    account_id: account.id,
    meta: { articles_count: 0 },
  });
  const first = await category(account, base, { name: "Billing", slug: "billing", position: 1 });
  await category(account, base, { name: "Facturación", slug: "billing", locale: "es" });

  const dup = await h.request("POST", `${base}/categories`, { token: account.admin.token, body: { category: { name: "Again", slug: "billing" } } });
  t.deepEqual([dup.status, dup.body], [422, { message: "Slug has already been taken", attributes: ["slug"] }]);
  const foreignLocale = await h.request("POST", `${base}/categories`, { token: account.admin.token, body: { category: { name: "X", locale: "de" } } });
  t.is(foreignLocale.status, 422);
  t.deepEqual(foreignLocale.body.attributes, ["locale"]);
  const byAgent = await h.request("POST", `${base}/categories`, { token: account.agent.token, body: { category: { name: "No" } } });
  t.is(byAgent.status, 401);

  const english = await expectOk(h.request("GET", `${base}/categories?locale=en`, { token: account.agent.token }), "list");
  t.deepEqual(
    english.payload.map((c: { slug: string }) => c.slug),
    ["billing", "getting-started"],
  );
  t.deepEqual(english.meta, { current_page: 1, categories_count: 2 });
  const updated = await h.request("PATCH", `${base}/categories/${first.payload.id}`, {
    token: account.admin.token,
    body: { category: { description: "Money" } },
  });
  t.like(updated.body.payload, { description: "Money", name: "Billing" });
  t.is((await h.request("DELETE", `${base}/categories/${first.payload.id}`, { token: account.admin.token })).status, 200);
  t.is((await h.request("GET", `${base}/categories/${first.payload.id}`, { token: account.admin.token })).status, 404);
});

test("articles: an agent writes a draft as its author, publishes it; the list filters and counts by status", async (t) => {
  const { account, base } = await setup();
  const billing = (await category(account, base, { name: "Billing" })).payload;
  const spanish = (await category(account, base, { name: "Cuenta", locale: "es" })).payload;
  const created = await h.request("POST", `${base}/articles`, {
    token: account.agent.token,
    body: { article: { title: "How to pay", content: "Pay with a card", description: "Payments", category_id: billing.id } },
  });
  t.is(created.status, 200);
  const article = created.body.payload;
  t.like(article, {
    title: "How to pay",
    content: "Pay with a card",
    description: "Payments",
    status: "draft",
    locale: "en",
    views: 0,
    account_id: account.id,
    category: { id: billing.id, name: "Billing", slug: billing.slug, locale: "en" },
    author: { id: account.agent.id, name: "Agent Person" },
    associated_articles: [],
  });
  t.regex(article.slug, /^\d+-how-to-pay$/);
  t.is(typeof article.updated_at, "number");

  const published = await h.request("PATCH", `${base}/articles/${article.id}`, { token: account.agent.token, body: { article: { status: "published" } } });
  t.is(published.body.payload.status, "published");
  await expectOk(
    h.request("POST", `${base}/articles`, { token: account.admin.token, body: { title: "Pagar", content: "Con tarjeta", category_id: spanish.id } }),
    "es",
  );
  await expectOk(
    h.request("POST", `${base}/articles`, { token: account.admin.token, body: { title: "Old", content: "Gone", status: "archived", category_id: billing.id } }),
    "old",
  );

  const english = await expectOk(h.request("GET", `${base}/articles?locale=en`, { token: account.agent.token }), "list en");
  t.deepEqual(english.meta, {
    current_page: 1,
    articles_count: 2,
    all_articles_count: 2,
    archived_articles_count: 1,
    published_count: 1,
    draft_articles_count: 0,
    mine_articles_count: 1,
  });
  const publishedOnly = await expectOk(h.request("GET", `${base}/articles?locale=en&status=published`, { token: account.agent.token }), "published");
  t.deepEqual(
    publishedOnly.payload.map((a: { id: number }) => a.id),
    [article.id],
  );
  const spanishList = await expectOk(h.request("GET", `${base}/articles?locale=es`, { token: account.agent.token }), "es");
  t.is(spanishList.payload[0].locale, "es", "an article takes its category's locale");
  const searched = await expectOk(h.request("GET", `${base}/articles?query=car`, { token: account.agent.token }), "search");
  t.deepEqual(
    searched.payload.map((a: { id: number }) => a.id),
    [article.id],
    "prefix search over the content",
  );
  const mine = await expectOk(h.request("GET", `${base}/articles?author_id=${account.admin.id}`, { token: account.agent.token }), "author");
  t.is(mine.payload.length, 2);
});

test("articles: validation in Chatwoot's words, another portal's category refused, delete for administrators", async (t) => {
  const { account, base } = await setup();
  const other = await setup();
  const foreign = (await category(other.account, other.base, { name: "Theirs" })).payload;
  const blank = await h.request("POST", `${base}/articles`, { token: account.agent.token, body: { article: { title: "" } } });
  t.deepEqual([blank.status, blank.body.attributes], [422, ["title", "content"]]);
  t.is(blank.body.message, "Title can't be blank, Content can't be blank");
  const wrongCategory = await h.request("POST", `${base}/articles`, {
    token: account.agent.token,
    body: { article: { title: "A", content: "B", category_id: foreign.id } },
  });
  t.deepEqual([wrongCategory.status, wrongCategory.body], [422, { message: "Category must exist", attributes: ["category"] }]);
  const enCategory = (await category(account, base, { name: "English" })).payload;
  const mismatch = await h.request("POST", `${base}/articles`, {
    token: account.agent.token,
    body: { article: { title: "A", content: "B", category_id: enCategory.id, locale: "es" } },
  });
  t.deepEqual([mismatch.status, mismatch.body], [422, { message: "Locale must be the category's locale", attributes: ["locale"] }]);
  const badStatus = await h.request("POST", `${base}/articles`, {
    token: account.agent.token,
    body: { article: { title: "A", content: "B", status: "live" } },
  });
  t.is(badStatus.status, 422);

  const article = (await expectOk(h.request("POST", `${base}/articles`, { token: account.agent.token, body: { title: "A", content: "B" } }), "a")).payload;
  t.is((await h.request("GET", `${other.base}/articles/${article.id}`, { token: other.account.admin.token })).status, 404);
  t.is((await h.request("DELETE", `${base}/articles/${article.id}`, { token: account.agent.token })).status, 401);
  t.is((await h.request("DELETE", `${base}/articles/${article.id}`, { token: account.admin.token })).status, 200);
  t.is((await h.request("GET", `${base}/articles/${article.id}`, { token: account.admin.token })).status, 404);
});
