import { randomUUID } from "node:crypto";
import test from "ava";
import { PlatformApp } from "../../src/models/PlatformApp";
import { addToAccount } from "../support/factories";
import { accountApi, useHarness } from "../support/harness";

const h = useHarness(test);

const users = "/platform/api/v1/users";
const uniqueEmail = () => `person-${randomUUID()}@example.com`;

test("create answers the platform user payload field by field, with a working access token", async (t) => {
  const email = uniqueEmail();
  const created = await h.request("POST", users, {
    token: h.platformToken,
    body: { name: "Jane Doe", display_name: "Jane", email: email.toUpperCase(), password: "Passw0rd!", custom_attributes: { crm_id: 7 } },
  });
  t.is(created.status, 200);
  const { id, access_token, pubsub_token, ...rest } = created.body;
  t.is(typeof id, "number");
  t.regex(access_token, /^[1-9A-HJ-NP-Za-km-z]{24}$/);
  t.regex(pubsub_token, /^[1-9A-HJ-NP-Za-km-z]{24}$/);
  t.deepEqual(rest, {
    account_id: null,
    available_name: "Jane",
    avatar_url: "",
    confirmed: true,
    display_name: "Jane",
    message_signature: null,
    email,
    hmac_identifier: "",
    inviter_id: null,
    name: "Jane Doe",
    provider: "email",
    role: null,
    ui_settings: {},
    uid: email,
    type: null,
    custom_attributes: { crm_id: 7 },
    accounts: [],
  });
  const row = await h.knex("users").where({ id }).first();
  t.regex(row.encrypted_password, /^scrypt\$/);
  t.not(row.encrypted_password.includes("Passw0rd!"), true);

  const shown = await h.request("GET", `${users}/${id}`, { token: h.platformToken });
  t.deepEqual(shown.body, created.body);
});

test("the user's memberships appear in accounts, and account_id/role follow the active membership", async (t) => {
  const { body: user } = await h.request("POST", users, { token: h.platformToken, body: { name: "Member", email: uniqueEmail(), password: "Passw0rd!" } });
  t.false("custom_attributes" in user, "absent when the user has none");
  const { body: account } = await h.request("POST", "/platform/api/v1/accounts", { token: h.platformToken, body: { name: "Shop" } });
  await addToAccount(h, account.id, user.id, "administrator");
  const shown = await h.request("GET", `${users}/${user.id}`, { token: h.platformToken });
  t.is(shown.body.account_id, account.id);
  t.is(shown.body.role, "administrator");
  t.deepEqual(shown.body.accounts, [
    {
      id: account.id,
      name: "Shop",
      status: "active",
      active_at: null,
      role: "administrator",
      permissions: ["administrator"],
      availability: "online",
      availability_status: "online",
      auto_offline: true,
      custom_role_id: null,
      custom_role: null,
    },
  ]);
});

test("creating a user whose email the app already has answers that user unchanged, as Chatwoot's from_email does", async (t) => {
  const email = uniqueEmail();
  const { body: original } = await h.request("POST", users, { token: h.platformToken, body: { name: "Original", email, password: "Passw0rd!" } });
  const again = await h.request("POST", users, { token: h.platformToken, body: { name: "Renamed", email: email.toUpperCase(), password: "Other1!x" } });
  t.is(again.status, 200);
  t.deepEqual(again.body, original);
  t.is((await h.knex("users").whereRaw("lower(email) = ?", [email])).length, 1);
});

test("creating a user whose email belongs to another app's user is refused without its token or id, and hands nothing over (a deviation from Chatwoot)", async (t) => {
  const email = uniqueEmail();
  const { body: original } = await h.request("POST", users, { token: h.platformToken, body: { name: "Original", email, password: "Passw0rd!" } });
  const other = await PlatformApp.createWithToken(`other-${randomUUID()}`);

  const refused = await h.request("POST", users, { token: other.token, body: { name: "Impostor", email: email.toUpperCase(), password: "Other1!x" } });
  t.is(refused.status, 422);
  t.deepEqual(refused.body, { message: "Email has already been taken", attributes: ["email"] });
  t.false(JSON.stringify(refused.body).includes(original.access_token));
  t.false(JSON.stringify(refused.body).includes(String(original.id)));

  // Still not the other app's to read or change: no password reset through the back door.
  t.is((await h.request("GET", `${users}/${original.id}`, { token: other.token })).status, 401);
  t.is((await h.request("PATCH", `${users}/${original.id}`, { token: other.token, body: { password: "Hijack1!x" } })).status, 401);
  const stored = await h.knex("users").where("id", original.id).first();
  t.is(stored.name, "Original");
  t.is((await h.knex("platform_app_permissibles").where({ permissible_type: "User", permissible_id: original.id })).length, 1);
});

test("update assigns fields, merges custom_attributes and changes email and uid", async (t) => {
  const { body: user } = await h.request("POST", users, {
    token: h.platformToken,
    body: { name: "Old", email: uniqueEmail(), password: "Passw0rd!", custom_attributes: { a: 1, b: 2 } },
  });
  const email = uniqueEmail();
  const updated = await h.request("PATCH", `${users}/${user.id}`, {
    token: h.platformToken,
    body: { name: "New", display_name: "Newbie", email, custom_attributes: { b: 3, c: 4 } },
  });
  t.is(updated.status, 200);
  t.deepEqual(updated.body, {
    ...user,
    name: "New",
    display_name: "Newbie",
    available_name: "Newbie",
    email,
    uid: email,
    custom_attributes: { a: 1, b: 3, c: 4 },
  });

  const before = (await h.knex("users").where({ id: user.id }).first()).encrypted_password;
  t.is((await h.request("PATCH", `${users}/${user.id}`, { token: h.platformToken, body: { password: "N3wPass!" } })).status, 200);
  t.not((await h.knex("users").where({ id: user.id }).first()).encrypted_password, before);
});

test("updating to an email another user has is 422 and changes nothing", async (t) => {
  const taken = uniqueEmail();
  await h.request("POST", users, { token: h.platformToken, body: { name: "A", email: taken, password: "Passw0rd!" } });
  const { body: user } = await h.request("POST", users, { token: h.platformToken, body: { name: "B", email: uniqueEmail(), password: "Passw0rd!" } });
  const response = await h.request("PATCH", `${users}/${user.id}`, { token: h.platformToken, body: { email: taken.toUpperCase() } });
  t.is(response.status, 422);
  t.deepEqual(response.body, { message: "Email has already been taken", attributes: ["email"] });
  t.is((await h.knex("users").where({ id: user.id }).first()).email, user.email);
});

test("password rule and other validation errors are 422 and write nothing", async (t) => {
  const probe = randomUUID();
  const cases: [Record<string, unknown>, string, string][] = [
    [{ password: "password1!" }, "Password must contain at least 1 uppercase character (A..Z)", "password"],
    [{ password: "PASSWORD1!" }, "Password must contain at least 1 lowercase character (a..z)", "password"],
    [{ password: "Password!" }, "Password must contain at least 1 digit (0..9)", "password"],
    [{ password: "Passw0rd" }, "Password must contain at least 1 special character", "password"],
    [{ password: "Pa0!" }, "Password is too short (minimum is 6 characters)", "password"],
    [{ email: "not-an-email" }, "Email is invalid", "email"],
    [{ email: undefined }, "Email can't be blank", "email"],
    [{ name: undefined }, "Name can't be blank", "name"],
    [{ name: 42 }, "Name must be of type string", "name"],
    [{ custom_attributes: "x" }, "Custom attributes must be of type record", "custom_attributes"],
  ];
  for (const [override, message, attribute] of cases) {
    const body = { name: "V", email: uniqueEmail(), password: "Passw0rd!", display_name: probe, ...override };
    const response = await h.request("POST", users, { token: h.platformToken, body });
    t.is(response.status, 422, JSON.stringify(override));
    t.true(String(response.body.message).startsWith(message), `${response.body.message} vs ${message}`);
    t.deepEqual(response.body.attributes, [attribute]);
  }
  t.deepEqual(await h.knex("users").where({ display_name: probe }), []);
});

test("delete removes the user, its token and its memberships; unknown ids are 404", async (t) => {
  const { body: user } = await h.request("POST", users, { token: h.platformToken, body: { name: "Gone", email: uniqueEmail(), password: "Passw0rd!" } });
  const { body: account } = await h.request("POST", "/platform/api/v1/accounts", { token: h.platformToken, body: { name: "Shop" } });
  await addToAccount(h, account.id, user.id, "agent");
  t.is((await h.request("DELETE", `${users}/${user.id}`, { token: h.platformToken })).status, 200);
  t.is((await h.request("GET", `${users}/${user.id}`, { token: h.platformToken })).status, 404);
  t.deepEqual(await h.knex("account_users").where({ user_id: user.id }), []);
  t.deepEqual(await h.knex("access_tokens").where({ owner_type: "User", owner_id: user.id }), []);
  const stale = await accountApi(h, account, user.access_token).get();
  t.deepEqual(stale, { ...stale, status: 401, body: { error: "Invalid Access Token" } });

  for (const id of ["999999999", "abc"]) {
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const response = await h.request(method, `${users}/${id}`, { token: h.platformToken, body: method === "PATCH" ? { name: "x" } : undefined });
      t.is(response.status, 404, `${method} ${id}`);
      t.deepEqual(response.body, { error: "Resource could not be found" });
    }
  }
});
