import test from "ava";
import { createAccount } from "../support/factories";
import { expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

let n = 0;
async function publishedPortal() {
  const account = await createAccount(h);
  const slug = `pub-${process.pid}-${++n}`;
  await expectOk(
    h.request("POST", `/api/v1/accounts/${account.id}/portals`, {
      token: account.admin.token,
      body: { portal: { name: "Public KB", slug, header_text: "Hi", config: { allowed_locales: ["en", "es"] } } },
    }),
    "portal",
  );
  const base = `/api/v1/accounts/${account.id}/portals/${slug}`;
  const cat = (await expectOk(h.request("POST", `${base}/categories`, { token: account.admin.token, body: { name: "Setup", slug: "setup" } }), "cat")).payload;
  const write = async (body: Record<string, unknown>) =>
    (
      await expectOk(
        h.request("POST", `${base}/articles`, { token: account.admin.token, body: { category_id: cat.id, status: "published", ...body } }),
        "article",
      )
    ).payload;
  return { account, slug, base, cat, write };
}

test("a portal page reads the published articles of a locale, searches them and reads one by slug", async (t) => {
  const { slug, cat, write } = await publishedPortal();
  const install = await write({ title: "Install the widget", content: "Paste the script tag", position: 1 });
  const invite = await write({ title: "Invite agents", content: "Agents join by email", position: 2 });
  await write({ title: "Secret draft", content: "Not yet", status: "draft" });
  await write({ title: "Instalar", content: "Pegar", locale: "es", category_id: null });

  const list = await h.request("GET", `/hc/${slug}/en/articles`);
  t.is(list.status, 200);
  t.deepEqual(
    list.body.payload.map((a: { id: number }) => a.id),
    [install.id, invite.id],
  );
  t.deepEqual(list.body.meta, { articles_count: 2 });
  t.like(list.body.payload[0], {
    slug: install.slug,
    title: "Install the widget",
    status: "published",
    locale: "en",
    category: { id: cat.id, slug: "setup", locale: "en" },
    author: { name: "Admin Person" },
    portal: { slug, name: "Public KB", header_text: "Hi", config: { allowed_locales: ["en", "es"], default_locale: "en" } },
  });
  t.false("account" in list.body.payload[0].portal);

  const search = await expectOk(h.request("GET", `/hc/${slug}/en/articles.json?query=agen`), "search");
  t.deepEqual(
    search.payload.map((a: { id: number }) => a.id),
    [invite.id],
  );
  const none = await expectOk(h.request("GET", `/hc/${slug}/en/articles?query=${encodeURIComponent("'&|!")}`), "punctuation");
  t.is(none.payload.length, 2, "a query without words searches nothing away");
  const byCategory = await expectOk(h.request("GET", `/hc/${slug}/en/categories/setup/articles`), "category");
  t.is(byCategory.payload.length, 2);
  const categories = await expectOk(h.request("GET", `/hc/${slug}/en/categories`), "categories");
  t.like(categories.payload[0], { slug: "setup", name: "Setup", meta: { articles_count: 2 } });

  const one = await h.request("GET", `/hc/${slug}/articles/${install.slug}`);
  t.is(one.status, 200);
  t.like(one.body, { id: install.id, content: "Paste the script tag", views: 1 });
  t.is((await h.request("GET", `/hc/${slug}/articles/${install.slug}.json`)).body.views, 2);
  const portal = await h.request("GET", `/hc/${slug}`);
  t.like(portal.body, { slug, name: "Public KB" });
});

test("drafts, archived portals and unknown slugs are 404; 50 concurrent readers all count as views", async (t) => {
  const { account, slug, write } = await publishedPortal();
  const draft = await write({ title: "Draft", content: "Hidden", status: "draft" });
  const article = await write({ title: "Popular", content: "Read me" });
  t.deepEqual((await h.request("GET", `/hc/${slug}/articles/${draft.slug}`)).status, 404);
  t.is((await h.request("GET", `/hc/nope-${slug}/en/articles`)).status, 404);
  t.is((await h.request("GET", `/hc/${slug}/xx-<>/articles`)).status, 404);

  const before = await h.knex("articles").where({ id: article.id }).first();
  const reads = await Promise.all(Array.from({ length: 50 }, () => h.request("GET", `/hc/${slug}/articles/${article.slug}`)));
  t.true(reads.every((r) => r.status === 200));
  const row = await h.knex("articles").where({ id: article.id }).first();
  t.is(row.views, 50);
  t.is(row.updated_at.toISOString(), before.updated_at.toISOString(), "a view is not an update");
  const byViews = await expectOk(h.request("GET", `/hc/${slug}/en/articles?sort=views`), "views");
  t.is(byViews.payload[0].id, article.id);

  await expectOk(h.request("POST", `/api/v1/accounts/${account.id}/portals/${slug}/archive`, { token: account.admin.token }), "archive");
  t.is((await h.request("GET", `/hc/${slug}/en/articles`)).status, 404);
  t.is((await h.request("GET", `/hc/${slug}/articles/${article.slug}`)).status, 404);
});
