import test from "ava";
import { randomUUID } from "node:crypto";
import { PlatformApp } from "../../src/models/PlatformApp";
import { createAccount, createUser } from "../support/factories";
import { expectOk, useHarness } from "../support/harness";

const h = useHarness(test, { settings: { frontendUrl: "https://chat.example.com" } });
let otherApp: string;
test.before(async () => {
  otherApp = (await PlatformApp.createWithToken(`other-${randomUUID()}`)).token;
});

const nonPermissible = { error: "Non permissible resource" };

test("GET /platform/api/v1/accounts lists only the app's own live accounts, in the platform account shape", async (t) => {
  const { token: appToken } = await PlatformApp.createWithToken(`lister-${randomUUID()}`);
  const empty = await h.request("GET", "/platform/api/v1/accounts", { token: appToken });
  t.deepEqual([empty.status, empty.body], [200, []]);
  const first = await expectOk(h.request("POST", "/platform/api/v1/accounts", { token: appToken, body: { name: "First" } }), "first");
  const second = await expectOk(h.request("POST", "/platform/api/v1/accounts", { token: appToken, body: { name: "Second" } }), "second");
  await expectOk(h.request("POST", "/platform/api/v1/accounts", { token: h.platformToken, body: { name: "Not mine" } }), "foreign");

  const list = await h.request("GET", "/platform/api/v1/accounts", { token: appToken });
  t.is(list.status, 200);
  t.deepEqual(list.body, [first, second]);
  await expectOk(h.request("DELETE", `/platform/api/v1/accounts/${first.id}`, { token: appToken }), "delete");
  const afterDelete = await expectOk(h.request("GET", "/platform/api/v1/accounts", { token: appToken }), "after delete");
  t.deepEqual(
    afterDelete.map((a: { id: number }) => a.id),
    [second.id],
    "an account being deleted is gone at once",
  );

  const userToken = await h.request("GET", "/platform/api/v1/accounts", { token: (await createUser(h)).token });
  t.deepEqual([userToken.status, userToken.body], [401, { error: "Invalid access_token" }]);
});

test("users/:id/login answers a one-time SSO link on FRONTEND_URL that signs the user in once", async (t) => {
  const user = await createUser(h, { email: `sso+${randomUUID()}@example.com` });
  const response = await h.request("GET", `/platform/api/v1/users/${user.id}/login`, { token: h.platformToken });
  t.is(response.status, 200);
  const url = new URL(response.body.url);
  t.is(`${url.origin}${url.pathname}`, "https://chat.example.com/app/login");
  t.is(url.searchParams.get("email"), user.email);
  t.true(response.body.url.includes(`email=${encodeURIComponent(user.email)}&`), "the email is URL-encoded");
  const token = url.searchParams.get("sso_auth_token")!;
  t.regex(token, /^[0-9a-f]{64}$/);
  t.falsy(await h.knex("user_sso_tokens").where({ token_digest: token }).first(), "only a digest is stored");

  const signIn = await h.request("POST", "/auth/sign_in", { body: { email: user.email, sso_auth_token: token } });
  t.is(signIn.status, 200);
  t.like(signIn.body.data, { id: user.id, email: user.email, access_token: user.token });
  const replay = await h.request("POST", "/auth/sign_in", { body: { email: user.email, sso_auth_token: token } });
  t.deepEqual([replay.status, replay.body], [401, { success: false, errors: ["Invalid login credentials. Please try again."] }]);

  const posted = await expectOk(h.request("POST", `/platform/api/v1/users/${user.id}/login`, { token: h.platformToken }), "post login");
  const other = await createUser(h);
  const wrongUser = await h.request("POST", "/auth/sign_in", {
    body: { email: other.email, sso_auth_token: new URL(posted.url).searchParams.get("sso_auth_token") },
  });
  t.is(wrongUser.status, 401, "a token works only for its own user");

  await h
    .knex("user_sso_tokens")
    .where({ user_id: user.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  const expired = await h.request("POST", "/auth/sign_in", {
    body: { email: user.email, sso_auth_token: new URL(posted.url).searchParams.get("sso_auth_token") },
  });
  t.is(expired.status, 401, "an expired link no longer works");
});

test("50 parallel sign-ins with one SSO token: exactly one succeeds", async (t) => {
  const user = await createUser(h);
  const { url } = await expectOk(h.request("GET", `/platform/api/v1/users/${user.id}/login`, { token: h.platformToken }), "login");
  const token = new URL(url).searchParams.get("sso_auth_token");
  const results = await Promise.all(
    Array.from({ length: 50 }, () => h.request("POST", "/auth/sign_in", { body: { email: user.email, sso_auth_token: token } })),
  );
  t.is(results.filter((r) => r.status === 200).length, 1);
  t.true(results.every((r) => r.status === 200 || r.status === 401));
});

test("sign in with a password; wrong or missing credentials are devise's 401", async (t) => {
  const user = await createUser(h);
  const signedIn = await h.request("POST", "/auth/sign_in", { body: { email: user.email.toUpperCase(), password: "Passw0rd!" } });
  t.is(signedIn.status, 200);
  t.is(signedIn.body.data.access_token, user.token);
  for (const body of [{ email: user.email, password: "wrong" }, { email: user.email }, { email: "nobody@example.com", password: "Passw0rd!" }]) {
    const response = await h.request("POST", "/auth/sign_in", { body });
    t.deepEqual([response.status, response.body], [401, { success: false, errors: ["Invalid login credentials. Please try again."] }]);
  }
});

test("users/:id/token answers the user's access token; login and token need the user to be permissible", async (t) => {
  const user = await createUser(h);
  const userRow = await h.knex("users").where({ id: user.id }).first();
  const response = await h.request("POST", `/platform/api/v1/users/${user.id}/token`, { token: h.platformToken });
  t.deepEqual(
    [response.status, response.body],
    [
      200,
      {
        access_token: user.token,
        expiry: null,
        user: { id: user.id, name: "Test User", display_name: null, email: user.email, pubsub_token: userRow.pubsub_token },
      },
    ],
  );
  t.deepEqual((await h.request("GET", `/platform/api/v1/users/${user.id}/token`, { token: h.platformToken })).body, response.body);

  for (const [method, path] of [
    ["GET", `/platform/api/v1/users/${user.id}/login`],
    ["POST", `/platform/api/v1/users/${user.id}/token`],
  ] as const) {
    const denied = await h.request(method, path, { token: otherApp });
    t.deepEqual([denied.status, denied.body], [401, nonPermissible], path);
  }
  t.is((await h.request("POST", "/platform/api/v1/users/999999999/token", { token: h.platformToken })).status, 404);
  const account = await createAccount(h);
  const asUser = await h.request("POST", `/platform/api/v1/users/${user.id}/token`, { token: account.admin.token });
  t.deepEqual([asUser.status, asUser.body], [401, { error: "Invalid access_token" }]);
});
