import test from "ava";
import { createAccount, type TestAccount } from "../support/factories";
import { expectOk, useHarness } from "../support/harness";
import { createInbox } from "../support/conversationFactories";

const h = useHarness(test);

const portals = (a: { id: number }) => `/api/v1/accounts/${a.id}/portals`;
let n = 0;
const slug = (base: string) => `${base}-${process.pid}-${++n}`;

async function makePortal(account: TestAccount, body: Record<string, unknown> = {}) {
  return expectOk(
    h.request("POST", portals(account), { token: account.admin.token, body: { portal: { name: "Docs", slug: slug("docs"), ...body } } }),
    "portal",
  );
}

test("an administrator creates a portal; it renders Chatwoot's portal with its locales and counts", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account, { channel: { type: "web_widget", website_url: "https://example.com" } });
  const s = slug("help");
  const response = await h.request("POST", portals(account), {
    token: account.admin.token,
    body: {
      portal: { name: "Help", slug: s, color: "#1f93ff", page_title: "Acme help", config: { default_locale: "fr", allowed_locales: ["en"] } },
      inbox_id: inbox.id,
    },
  });
  t.is(response.status, 200);
  t.like(response.body, {
    name: "Help",
    slug: s,
    color: "#1f93ff",
    page_title: "Acme help",
    archived: false,
    account_id: account.id,
    custom_domain: null,
    inbox: { id: inbox.id },
    config: {
      default_locale: "fr",
      allowed_locales: [
        { code: "fr", articles_count: 0, categories_count: 0 },
        { code: "en", articles_count: 0, categories_count: 0 },
      ],
    },
    meta: { all_articles_count: 0, archived_articles_count: 0, published_count: 0, draft_articles_count: 0, categories_count: 0, default_locale: "fr" },
  });
  const row = await h.knex("portals").where({ slug: s }).first();
  t.is(Number(row.account_id), account.id);

  const shown = await h.request("GET", `${portals(account)}/${s}`, { token: account.agent.token });
  t.deepEqual([shown.status, shown.body.id], [200, response.body.id]);
  const list = await h.request("GET", portals(account), { token: account.agent.token });
  t.is(list.status, 200);
  t.deepEqual(list.body.meta, { current_page: 1, portals_count: 1 });
  t.deepEqual(
    list.body.payload.map((p: { slug: string }) => p.slug),
    [s],
  );
});

test("agents may read but not manage portals; other accounts see a 404", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h);
  const denied = await h.request("POST", portals(account), { token: account.agent.token, body: { portal: { name: "X", slug: slug("x") } } });
  t.deepEqual([denied.status, denied.body], [401, { error: "You are not authorized to do this action" }]);
  const portal = await makePortal(account);
  for (const [method, path] of [
    ["PATCH", `${portals(account)}/${portal.slug}`],
    ["DELETE", `${portals(account)}/${portal.slug}`],
    ["POST", `${portals(account)}/${portal.slug}/archive`],
  ] as const)
    t.is((await h.request(method, path, { token: account.agent.token, body: { portal: { name: "Y" } } })).status, 401, `${method} ${path}`);
  const foreign = await h.request("GET", `${portals(other)}/${portal.slug}`, { token: other.admin.token });
  t.deepEqual([foreign.status, foreign.body], [404, { error: "Resource could not be found" }]);
  t.is((await h.request("GET", portals(other), { token: other.admin.token })).body.payload.length, 0);
});

test("name and slug are required, the slug is URL-safe and unique, even under 50 racing creates", async (t) => {
  const account = await createAccount(h);
  const blank = await h.request("POST", portals(account), { token: account.admin.token, body: { portal: { name: " " } } });
  t.deepEqual([blank.status, blank.body], [422, { message: "Name can't be blank, Slug can't be blank", attributes: ["name", "slug"] }]);
  const spaced = await h.request("POST", portals(account), { token: account.admin.token, body: { portal: { name: "A", slug: "a b" } } });
  t.deepEqual([spaced.status, spaced.body], [422, { message: "Slug is invalid", attributes: ["slug"] }]);
  const s = slug("race");
  const racing = await Promise.all(
    Array.from({ length: 50 }, () => h.request("POST", portals(account), { token: account.admin.token, body: { portal: { name: "Race", slug: s } } })),
  );
  t.is(racing.filter((r) => r.status === 200).length, 1);
  t.true(racing.filter((r) => r.status !== 200).every((r) => r.status === 422 && r.body.message === "Slug has already been taken"));
  const badLocale = await h.request("POST", portals(account), {
    token: account.admin.token,
    body: { portal: { name: "L", slug: slug("l"), config: { allowed_locales: ["<x>"] } } },
  });
  t.is(badLocale.status, 422);
});

test("update changes the named fields; archive hides nothing from the account; delete removes it with its articles", async (t) => {
  const account = await createAccount(h);
  const portal = await makePortal(account, { header_text: "Welcome" });
  const updated = await h.request("PATCH", `${portals(account)}/${portal.slug}`, {
    token: account.admin.token,
    body: { portal: { name: "Renamed", config: { allowed_locales: ["en", "de"] } } },
  });
  t.is(updated.status, 200);
  t.like(updated.body, { name: "Renamed", header_text: "Welcome", slug: portal.slug });
  t.deepEqual(
    updated.body.config.allowed_locales.map((l: { code: string }) => l.code),
    ["en", "de"],
  );
  const archived = await h.request("POST", `${portals(account)}/${portal.slug}/archive`, { token: account.admin.token });
  t.is(archived.status, 200);
  t.true((await h.request("GET", `${portals(account)}/${portal.slug}`, { token: account.admin.token })).body.archived);

  await expectOk(
    h.request("POST", `${portals(account)}/${portal.slug}/articles`, { token: account.agent.token, body: { article: { title: "T", content: "C" } } }),
    "article",
  );
  const deleted = await h.request("DELETE", `${portals(account)}/${portal.slug}`, { token: account.admin.token });
  t.is(deleted.status, 200);
  t.is((await h.request("GET", `${portals(account)}/${portal.slug}`, { token: account.admin.token })).status, 404);
  t.is((await h.knex("articles").where({ portal_id: portal.id })).length, 0);
});
