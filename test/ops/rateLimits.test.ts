import { randomInt } from "node:crypto";
import test from "ava";
import { loadRateLimits } from "../../src/config";
import { createInbox } from "../support/conversationFactories";
import { eventually } from "../support/eventually";
import { createAccount } from "../support/factories";
import { useHarness } from "../support/harness";
import { address, instance, limits, statuses } from "../support/rateLimitInstance";

const h = useHarness(test);

test("the 11th unknown token from one address gets 429 with Retry-After, even with a right token; another address is unaffected", async (t) => {
  const api = await instance(h, limits());
  t.teardown(() => api.close());
  const account = await createAccount(h);
  const attacker = address();

  const guesses = await statuses(10, () => api.send("GET", "/api/v1/accounts/1", attacker, { token: "wrong-token" }));
  t.deepEqual(guesses, Array(10).fill(401));

  const throttled = await api.send("GET", `/api/v1/accounts/${account.id}`, attacker, { token: "another-wrong-token" });
  t.is(throttled.status, 429);
  t.is(throttled.text, "Retry later\n");
  const retryAfter = Number(throttled.headers.get("retry-after"));
  t.true(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 300, `Retry-After ${throttled.headers.get("retry-after")}`);

  // A right guess from there is refused too: the address learns nothing more.
  t.is((await api.send("GET", `/api/v1/accounts/${account.id}`, attacker, { token: account.admin.token })).status, 429);

  const neighbour = address();
  t.is((await api.send("GET", `/api/v1/accounts/${account.id}`, neighbour, { token: "wrong-token" })).status, 401);
  t.is((await api.send("GET", `/api/v1/accounts/${account.id}`, neighbour, { token: account.admin.token })).status, 200);
});

test("only unknown tokens count: role refusals and valid requests never throttle an address", async (t) => {
  const api = await instance(h, limits({ authFailuresPerAddress: "2/300" }));
  t.teardown(() => api.close());
  const account = await createAccount(h);
  const from = address();
  // An agent asking for an administrator's endpoint gets 401, which is not a failed authentication.
  const refused = await statuses(5, () => api.send("GET", `/api/v1/accounts/${account.id}/webhooks`, from, { token: account.agent.token }));
  t.deepEqual(refused, Array(5).fill(401));
  t.is((await api.send("GET", `/api/v1/accounts/${account.id}`, from, { token: account.admin.token })).status, 200);
});

test("two API instances on one database share the counters", async (t) => {
  const [first, second] = [await instance(h, limits({ authFailuresPerAddress: "4/300" })), await instance(h, limits({ authFailuresPerAddress: "4/300" }))];
  t.teardown(() => Promise.all([first.close(), second.close()]));
  const attacker = address();
  t.deepEqual(await statuses(2, () => first.send("GET", "/api/v1/accounts/1", attacker, { token: "nope" })), [401, 401]);
  t.deepEqual(await statuses(2, () => second.send("GET", "/platform/api/v1/users/1", attacker, { token: "nope" })), [401, 401]);
  t.is((await first.send("GET", "/api/v1/accounts/1", attacker, { token: "nope" })).status, 429);
  t.is((await second.send("GET", "/api/v1/accounts/1", attacker, { token: "nope" })).status, 429);
});

test("with the in-process mirror, a block counted by one instance reaches another at once, and a new instance starts knowing it", async (t) => {
  const rules = limits({ authFailuresPerAddress: "3/300" });
  const [first, second] = [await instance(h, rules, { mirror: true }), await instance(h, rules, { mirror: true })];
  t.teardown(() => Promise.all([first.close(), second.close()]));
  const account = await createAccount(h);
  const attacker = address();
  const right = () => ({ token: account.admin.token });

  t.deepEqual(await statuses(3, () => first.send("GET", "/api/v1/accounts/1", attacker, { token: "nope" })), [401, 401, 401]);
  t.is((await first.send("GET", `/api/v1/accounts/${account.id}`, attacker, right())).status, 429);
  // The other process hears of it through PostgreSQL, within moments rather than at the window's end.
  const heard = await eventually(
    () => second.send("GET", `/api/v1/accounts/${account.id}`, attacker, right()),
    (r) => r.status === 429,
    "the block",
    5_000,
  );
  const retryAfter = Number(heard.headers.get("retry-after"));
  t.true(retryAfter > 0 && retryAfter <= 300, `Retry-After ${retryAfter}`);
  t.is((await second.send("GET", `/api/v1/accounts/${account.id}`, address(), right())).status, 200);

  const later = await instance(h, rules, { mirror: true });
  t.teardown(() => later.close());
  t.is((await later.send("GET", `/api/v1/accounts/${account.id}`, attacker, right())).status, 429);
});

test("the public widget API is limited per address and per inbox", async (t) => {
  const api = await instance(h, limits({ publicPerAddress: "3/60", publicPerInbox: "5/60", widgetSessionsPerAddress: "100/60" }));
  t.teardown(() => api.close());
  const account = await createAccount(h);
  const [shop, other] = [
    await createInbox(h, account, { name: "Shop", channel: { type: "web_widget", website_url: "https://shop.example" } }),
    await createInbox(h, account, { name: "Other", channel: { type: "web_widget", website_url: "https://other.example" } }),
  ];
  const config = (token: string, from: string) => api.send("POST", `/api/v1/widget/config?website_token=${token}`, from);

  const visitor = address();
  t.deepEqual(await statuses(4, () => config(shop.website_token, visitor)), [200, 200, 200, 429]);
  // The same visitor is refused on every inbox; a neighbour is not.
  t.is((await config(other.website_token, visitor)).status, 429);
  t.is((await config(shop.website_token, address())).status, 200);

  // Per inbox: the shop has had 4 counted requests; one more from anywhere fills it, the next is refused.
  t.is((await config(shop.website_token, address())).status, 200);
  const flooded = await config(shop.website_token, address());
  t.is(flooded.status, 429);
  t.is(flooded.text, "Retry later\n");
  t.is((await config(other.website_token, address())).status, 200);
});

test("new widget sessions are limited per address; a visitor who resumes a session is not counted", async (t) => {
  const api = await instance(h, limits({ widgetSessionsPerAddress: "2/3600" }));
  t.teardown(() => api.close());
  const account = await createAccount(h);
  const shop = await createInbox(h, account, { name: "Shop", channel: { type: "web_widget", website_url: "https://shop.example" } });
  const from = address();
  const first = await api.send("POST", `/api/v1/widget/config?website_token=${shop.website_token}`, from);
  const authToken = JSON.parse(first.text).auth_token as string;
  t.is((await api.send("POST", `/api/v1/widget/config?website_token=${shop.website_token}`, from)).status, 200);
  t.is((await api.send("POST", `/api/v1/widget/config?website_token=${shop.website_token}`, from)).status, 429);
  t.is((await api.send("POST", `/api/v1/widget/config?website_token=${shop.website_token}`, from, { headers: { "X-Auth-Token": authToken } })).status, 200);
});

test("the public client API is limited per inbox identifier", async (t) => {
  const api = await instance(h, limits({ publicPerInbox: "2/60" }));
  t.teardown(() => api.close());
  const inbox = `inbox-${randomInt(1e9)}`;
  const hits = await statuses(3, () => api.send("GET", `/public/api/v1/inboxes/${inbox}/contacts/x`, address()));
  t.deepEqual(
    hits.map((status) => status === 429),
    [false, false, true],
  );
  t.not((await api.send("GET", `/public/api/v1/inboxes/${inbox}-other/contacts/x`, address())).status, 429);
});

test("platform user creation is limited per address", async (t) => {
  const api = await instance(h, limits({ platformUserCreatesPerAddress: "2/60" }));
  t.teardown(() => api.close());
  const from = address();
  const create = (n: number) =>
    api.send("POST", "/platform/api/v1/users", from, {
      token: h.platformToken,
      body: { name: `U${n}`, email: `u${randomInt(1e9)}@example.com`, password: "Password1!" },
    });
  t.deepEqual([(await create(1)).status, (await create(2)).status, (await create(3)).status], [200, 200, 429]);
  t.is((await api.send("GET", "/platform/api/v1/users/0", from, { token: h.platformToken })).status, 404, "other platform calls go on");
});

test("limits come from the environment as requests/seconds; RATE_LIMITS=off turns them off", (t) => {
  t.deepEqual(loadRateLimits({ RATE_LIMIT_AUTH_FAILURES: "3/60" })!.authFailuresPerAddress, { points: 3, seconds: 60 });
  t.deepEqual(loadRateLimits({})!.authFailuresPerAddress, { points: 10, seconds: 300 });
  t.is(loadRateLimits({ RATE_LIMITS: "off" }), undefined);
  t.throws(() => loadRateLimits({ RATE_LIMIT_PUBLIC_PER_INBOX: "lots" }), { message: /RATE_LIMIT_PUBLIC_PER_INBOX/ });
});
