import test from "ava";
import { SERVICE_VERSION } from "../../src/config";
import { createAccount, createUser } from "../support/factories";
import { expectOk, useHarness } from "../support/harness";

const h = useHarness(test);

test("GET /api answers the version and dependency status without a token", async (t) => {
  const response = await h.request("GET", "/api");
  t.is(response.status, 200);
  const { timestamp, ...rest } = response.body;
  t.deepEqual(rest, { version: SERVICE_VERSION, queue_services: "ok", data_services: "ok" });
  t.regex(timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  t.true(Math.abs(Date.parse(`${timestamp}Z`) - Date.now()) < 60_000, "the current UTC time");
});

test("GET /api/v1/profile renders the user partial with the token and every account", async (t) => {
  const account = await createAccount(h, "Profile Co");
  const other = await createAccount(h, "Second Co");
  await expectOk(
    h.request("POST", `/platform/api/v1/accounts/${other.id}/account_users`, {
      token: h.platformToken,
      body: { user_id: account.agent.id, role: "administrator" },
    }),
    "second membership",
  );

  const response = await h.request("GET", "/api/v1/profile", { token: account.agent.token });
  t.is(response.status, 200);
  const body = response.body;
  t.like(body, {
    id: account.agent.id,
    access_token: account.agent.token,
    email: account.agent.email,
    name: "Agent Person",
    available_name: "Agent Person",
    display_name: null,
    confirmed: true,
    provider: "email",
    uid: account.agent.email,
    ui_settings: {},
    type: null,
  });
  t.is(typeof body.pubsub_token, "string");
  const accounts = Object.fromEntries(body.accounts.map((a: { id: number }) => [a.id, a]));
  t.like(accounts[account.id], {
    name: "Profile Co",
    status: "active",
    role: "agent",
    permissions: ["agent"],
    availability: "online",
    availability_status: "online",
    auto_offline: true,
  });
  t.like(accounts[other.id], { name: "Second Co", role: "administrator" });
  t.true([account.id, other.id].includes(body.account_id));
});

test("the profile needs a user token: none, an unknown one and a platform token are refused as Chatwoot does", async (t) => {
  const none = await h.request("GET", "/api/v1/profile");
  t.is(none.status, 401);
  t.deepEqual(none.body, { errors: ["You need to sign in or sign up before continuing."] });
  const unknown = await h.request("GET", "/api/v1/profile", { token: "nope" });
  t.deepEqual([unknown.status, unknown.body], [401, { error: "Invalid Access Token" }]);
  const platform = await h.request("GET", "/api/v1/profile", { token: h.platformToken });
  t.deepEqual([platform.status, platform.body], [401, { error: "Access to this endpoint is not authorized for bots" }]);
});

test("PUT /api/v1/profile changes the name, display name, email, ui_settings and availability, wrapped or bare", async (t) => {
  const account = await createAccount(h);
  const user = account.agent;
  const newEmail = `renamed-${user.id}@example.com`;
  const response = await h.request("PUT", "/api/v1/profile", {
    token: user.token,
    body: {
      profile: {
        name: "Renamed",
        display_name: "Ren",
        email: newEmail.toUpperCase(),
        ui_settings: { theme: "dark" },
        availability: "busy",
        account_id: account.id,
      },
    },
  });
  t.is(response.status, 200);
  t.like(response.body, { name: "Renamed", display_name: "Ren", available_name: "Ren", email: newEmail, uid: newEmail, ui_settings: { theme: "dark" } });
  t.like(response.body.accounts[0], { id: account.id, availability: "busy" });
  const row = await h.knex("users").where({ id: user.id }).first();
  t.like(row, { name: "Renamed", email: newEmail });

  // ui_settings is replaced, as Rails assigns the hash; a bare body works too.
  const again = await expectOk(h.request("PUT", "/api/v1/profile", { token: user.token, body: { ui_settings: { rtl: true } } }), "bare update");
  t.deepEqual(again.ui_settings, { rtl: true });
  t.is(again.name, "Renamed");

  const fetched = await expectOk(h.request("GET", "/api/v1/profile", { token: user.token }), "profile");
  t.is(fetched.email, newEmail, "the next read sees the change");
});

test("profile updates are validated: a taken email, a blank name, an unknown availability or account", async (t) => {
  const account = await createAccount(h);
  const taken = await h.request("PUT", "/api/v1/profile", { token: account.agent.token, body: { profile: { email: account.admin.email } } });
  t.deepEqual([taken.status, taken.body], [422, { message: "Email has already been taken", attributes: ["email"] }]);
  const blank = await h.request("PUT", "/api/v1/profile", { token: account.agent.token, body: { profile: { name: " " } } });
  t.deepEqual([blank.status, blank.body], [422, { message: "Name can't be blank", attributes: ["name"] }]);
  const badEmail = await h.request("PUT", "/api/v1/profile", { token: account.agent.token, body: { profile: { email: "not an email" } } });
  t.deepEqual([badEmail.status, badEmail.body], [422, { message: "Email is invalid", attributes: ["email"] }]);
  const availability = await h.request("PUT", "/api/v1/profile", { token: account.agent.token, body: { profile: { availability: "away" } } });
  t.deepEqual([availability.status, availability.body.attributes], [422, ["availability"]]);
  const stranger = await createAccount(h);
  const notMine = await h.request("PUT", "/api/v1/profile", {
    token: account.agent.token,
    body: { profile: { availability: "online", account_id: stranger.id } },
  });
  t.deepEqual([notMine.status, notMine.body], [404, { error: "Resource could not be found" }]);
});

test("a password change needs the current password, a strong new one and a matching confirmation", async (t) => {
  const user = await createUser(h);
  const change = (profile: Record<string, unknown>) => h.request("PUT", "/api/v1/profile", { token: user.token, body: { profile } });

  const wrongCurrent = await change({ current_password: "wrong", password: "N3w-Passw0rd", password_confirmation: "N3w-Passw0rd" });
  t.deepEqual([wrongCurrent.status, wrongCurrent.body], [422, { error: "Invalid current password" }]);
  const missingCurrent = await change({ password: "N3w-Passw0rd" });
  t.deepEqual([missingCurrent.status, missingCurrent.body], [422, { error: "Invalid current password" }]);

  const weak = await change({ current_password: "Passw0rd!", password: "weakpassword", password_confirmation: "weakpassword" });
  t.is(weak.status, 422);
  t.deepEqual(weak.body.attributes, ["password"]);
  t.regex(weak.body.message, /must contain at least 1 uppercase character/);

  const mismatch = await change({ current_password: "Passw0rd!", password: "N3w-Passw0rd", password_confirmation: "N3w-Passw0rd-typo" });
  t.deepEqual([mismatch.status, mismatch.body], [422, { message: "Password confirmation doesn't match Password", attributes: ["password_confirmation"] }]);

  const before = (await h.knex("users").where({ id: user.id }).first()).encrypted_password;
  const changed = await change({ current_password: "Passw0rd!", password: "N3w-Passw0rd", password_confirmation: "N3w-Passw0rd" });
  t.is(changed.status, 200);
  const after = (await h.knex("users").where({ id: user.id }).first()).encrypted_password;
  t.not(after, before);

  // The old password no longer counts as the current one; the new one does.
  const withOld = await change({ current_password: "Passw0rd!", password: "An0ther-Pass", password_confirmation: "An0ther-Pass" });
  t.is(withOld.status, 422);
  const withNew = await change({ current_password: "N3w-Passw0rd", password: "An0ther-Pass" });
  t.is(withNew.status, 200);
  // An empty password is no change at all.
  t.is((await change({ password: "", name: "Still Me" })).status, 200);
});

test("availability and auto_offline have their own endpoints per account", async (t) => {
  const account = await createAccount(h);
  const token = account.agent.token;
  const set = await h.request("POST", "/api/v1/profile/availability", { token, body: { profile: { account_id: account.id, availability: "online" } } });
  t.is(set.status, 200);
  t.like(
    set.body.accounts.find((a: { id: number }) => a.id === account.id),
    { availability: "online", availability_status: "online" },
  );
  const offline = await expectOk(
    h.request("POST", "/api/v1/profile/auto_offline", { token, body: { profile: { account_id: account.id, auto_offline: false } } }),
    "auto offline",
  );
  t.false(offline.accounts.find((a: { id: number }) => a.id === account.id).auto_offline);
  const stranger = await createAccount(h);
  const notMine = await h.request("POST", "/api/v1/profile/availability", { token, body: { profile: { account_id: stranger.id, availability: "online" } } });
  t.is(notMine.status, 404);
  const missing = await h.request("POST", "/api/v1/profile/availability", { token, body: { profile: { availability: "online" } } });
  t.deepEqual([missing.status, missing.body.attributes], [422, ["account_id"]]);
});
