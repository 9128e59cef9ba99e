import { randomInt } from "node:crypto";
import test from "ava";
import { createAccount, createUser } from "../support/factories";
import { useHarness } from "../support/harness";
import { address, instance, limits, statuses } from "../support/rateLimitInstance";

const h = useHarness(test);

test("the failed-authentication throttle holds whatever case or trailing slash the path is spelt with", async (t) => {
  const api = await instance(h, limits({ authFailuresPerAddress: "3/300" }));
  t.teardown(() => api.close());
  const account = await createAccount(h);
  const attacker = address();

  const guesses = await statuses(3, () => api.send("GET", `/API/V1/Accounts/${account.id}/`, attacker, { token: "wrong-token" }));
  t.deepEqual(guesses, [401, 401, 401], "the router takes the path: the guesses are answered, and counted");
  for (const path of [`/API/V1/ACCOUNTS/${account.id}`, `/api/v1/accounts/${account.id}`, `/Platform/Api/V1/users/1`]) {
    const blocked = await api.send("GET", path, attacker, { token: account.admin.token });
    t.is(blocked.status, 429, path);
    t.is(blocked.text, "Retry later\n");
    t.true(Number(blocked.headers.get("retry-after")) > 0);
  }
  t.is((await api.send("GET", `/API/V1/ACCOUNTS/${account.id}`, address(), { token: account.admin.token })).status, 200, "another address gets in");
});

test("the public throttles count a path spelt in another case as the same inbox", async (t) => {
  const api = await instance(h, limits({ publicPerInbox: "2/60" }));
  t.teardown(() => api.close());
  const inbox = `inbox-${randomInt(1e9)}`;
  const paths = [`/public/api/v1/inboxes/${inbox}/contacts/x`, `/PUBLIC/API/V1/INBOXES/${inbox}/contacts/x`, `/Public/Api/v1/inboxes/${inbox}/contacts/x/`];
  const hits = [];
  for (const path of paths) hits.push((await api.send("GET", path, address())).status);
  t.not(hits[0], 429);
  t.not(hits[1], 429);
  t.is(hits[2], 429);
});

const signIn = (api: Awaited<ReturnType<typeof instance>>, from: string, email: string, password: string) =>
  api.send("POST", "/auth/sign_in", from, { body: { email, password } });

test("sign-in is throttled per address: after 5 attempts in 5 minutes even the right password gets 429 with Retry-After", async (t) => {
  const api = await instance(h, limits());
  t.teardown(() => api.close());
  const user = await createUser(h);
  const attacker = address();

  t.deepEqual(await statuses(5, () => signIn(api, attacker, user.email, "wrong-password")), Array(5).fill(401));
  const throttled = await signIn(api, attacker, user.email, "Passw0rd!");
  t.is(throttled.status, 429);
  t.is(throttled.text, "Retry later\n");
  const retryAfter = Number(throttled.headers.get("retry-after"));
  t.true(retryAfter > 0 && retryAfter <= 300, `Retry-After ${retryAfter}`);
  t.is((await signIn(api, attacker, (await createUser(h)).email, "Passw0rd!")).status, 429, "every email from that address");

  const owner = await signIn(api, address(), user.email, "Passw0rd!");
  t.is(owner.status, 200, "the user, from their own address, still signs in");
});

test("sign-in is throttled per email across addresses (case and spaces ignored), as Chatwoot's login/email", async (t) => {
  const api = await instance(h, limits());
  t.teardown(() => api.close());
  const user = await createUser(h);
  const spellings = [user.email, user.email.toUpperCase(), ` ${user.email} `];

  const guesses = await statuses(10, async () => signIn(api, address(), spellings[randomInt(spellings.length)]!, "wrong-password"));
  t.deepEqual(guesses, Array(10).fill(401));
  const throttled = await signIn(api, address(), user.email, "Passw0rd!");
  t.is(throttled.status, 429);
  t.true(Number(throttled.headers.get("retry-after")) > 0);

  const other = await createUser(h);
  t.is((await signIn(api, address(), other.email, "Passw0rd!")).status, 200, "another email is not affected");
});

test("the sign-in limits come from RATE_LIMIT_SIGN_IN_PER_ADDRESS and RATE_LIMIT_SIGN_IN_PER_EMAIL", async (t) => {
  const api = await instance(h, limits({ signInPerAddress: "2/60", signInPerEmail: "50/60" }));
  t.teardown(() => api.close());
  const user = await createUser(h);
  const from = address();
  t.deepEqual(await statuses(3, () => signIn(api, from, user.email, "Passw0rd!")), [200, 200, 429]);
  t.deepEqual(limits({ signInPerEmail: "3/60" }).signInPerEmail, { points: 3, seconds: 60 });
  t.deepEqual(limits().signInPerEmail, { points: 10, seconds: 900 });
});
