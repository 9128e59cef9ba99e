import test from "ava";
import { createAccount } from "../support/factories";
import { pngOf, requestForm } from "../support/forms";
import { accountApi, tempStorage, useHarness } from "../support/harness";

const h = useHarness(test, { settings: { storage: tempStorage() } });

async function download(url: string) {
  const response = await fetch(`${h.baseUrl}${new URL(url).pathname}`);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), type: response.headers.get("content-type") };
}

const AVATAR_URL = /^http:\/\/localhost:3000\/files\/avatars\/accounts\/\d+\/avatars\/(contact|agent_bot|inbox)\/[0-9a-f-]{36}\.png$/;

test("a contact's avatar file is stored and served as its thumbnail; a new one replaces it and deleting the contact removes it", async (t) => {
  const account = await createAccount(h);
  const base = `/api/v1/accounts/${account.id}/contacts`;
  const first = await pngOf(64, 64);
  const created = await requestForm(
    h,
    "POST",
    base,
    [
      ["name", "Pictured"],
      ["avatar", { filename: "me.png", content: first, type: "image/png" }],
    ],
    account.admin.token,
  );
  t.is(created.status, 200, JSON.stringify(created.body));
  const thumbnail = created.body.payload.contact.thumbnail;
  t.regex(thumbnail, AVATAR_URL);
  const served = await download(thumbnail);
  t.is(served.type, "image/png");
  t.true(served.bytes.equals(first));
  // The contact_created payload shows the same avatar.
  const event = await h.knex("events").where({ account_id: account.id, name: "contact_created" }).first();
  t.is(event.payload.thumbnail, thumbnail);

  const second = await pngOf(32, 32);
  const updated = await requestForm(
    h,
    "PATCH",
    `${base}/${created.body.payload.id ?? created.body.payload.contact.id}`,
    [["avatar", { filename: "new.png", content: second, type: "image/png" }]],
    account.admin.token,
  );
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.not(updated.body.payload.thumbnail, thumbnail);
  t.true((await download(updated.body.payload.thumbnail)).bytes.equals(second));
  t.is((await download(thumbnail)).status, 404, "the replaced avatar is gone");

  t.is((await h.request("DELETE", `${base}/${created.body.payload.contact.id}`, { token: account.admin.token })).status, 200);
  t.is((await download(updated.body.payload.thumbnail)).status, 404);
});

test("avatar files are checked as Chatwoot checks them: images only, 422 otherwise, nothing written", async (t) => {
  const account = await createAccount(h);
  const refused = await requestForm(
    h,
    "POST",
    `/api/v1/accounts/${account.id}/contacts`,
    [
      ["name", "Nope"],
      ["avatar", { filename: "a.txt", content: "text", type: "text/plain" }],
    ],
    account.admin.token,
  );
  t.is(refused.status, 422);
  t.deepEqual(refused.body, { message: "Avatar filetype not supported", attributes: ["avatar"] });
  t.deepEqual(await h.knex("contacts").where({ account_id: account.id, name: "Nope" }), []);
  const json = await h.request("POST", `/api/v1/accounts/${account.id}/contacts`, {
    token: account.admin.token,
    body: { name: "Json", avatar: "https://x.test/a.png" },
  });
  t.is(json.status, 422);
  // Paths outside the avatar shape are never served without a signature.
  t.is((await download(`http://x/files/avatars/accounts/${account.id}/attachments/x.png`)).status, 404);
});

test("agent bots (account and platform) and inboxes take avatar files", async (t) => {
  const account = await createAccount(h);
  const png = await pngOf(48, 48);
  const bot = await requestForm(
    h,
    "POST",
    `/api/v1/accounts/${account.id}/agent_bots`,
    [
      ["name", "Face bot"],
      ["avatar", { filename: "bot.png", content: png, type: "image/png" }],
    ],
    account.admin.token,
  );
  t.is(bot.status, 200, JSON.stringify(bot.body));
  t.regex(bot.body.thumbnail, AVATAR_URL);
  t.true((await download(bot.body.thumbnail)).bytes.equals(png));

  const platformBot = await requestForm(
    h,
    "POST",
    "/platform/api/v1/agent_bots",
    [
      ["name", "System face"],
      ["avatar", { filename: "s.png", content: png, type: "image/png" }],
    ],
    h.platformToken,
  );
  t.is(platformBot.status, 200, JSON.stringify(platformBot.body));
  t.regex(platformBot.body.thumbnail, /\/files\/avatars\/shared\/avatars\/agent_bot\/[0-9a-f-]{36}\.png$/);
  t.is((await download(platformBot.body.thumbnail)).status, 200);
  const patched = await requestForm(
    h,
    "PATCH",
    `/platform/api/v1/agent_bots/${platformBot.body.id}`,
    [["avatar", { filename: "s2.png", content: await pngOf(20, 20), type: "image/png" }]],
    h.platformToken,
  );
  t.is(patched.status, 200);
  t.is((await download(platformBot.body.thumbnail)).status, 404);
  t.is((await h.request("DELETE", `/platform/api/v1/agent_bots/${platformBot.body.id}`, { token: h.platformToken })).status, 200);
  t.is((await download(patched.body.thumbnail)).status, 404, "a deleted bot's avatar goes with it");

  const inbox = await requestForm(
    h,
    "POST",
    `/api/v1/accounts/${account.id}/inboxes`,
    [
      ["name", "Faces"],
      ["channel[type]", "api"],
      ["avatar", { filename: "i.png", content: png, type: "image/png" }],
    ],
    account.admin.token,
  );
  t.is(inbox.status, 200, JSON.stringify(inbox.body));
  t.regex(inbox.body.avatar_url, AVATAR_URL);
  const renamed = await requestForm(h, "PATCH", `/api/v1/accounts/${account.id}/inboxes/${inbox.body.id}`, [["name", "Still faces"]], account.admin.token);
  t.is(renamed.body.avatar_url, inbox.body.avatar_url);
  t.true((await download(renamed.body.avatar_url)).bytes.equals(png));

  t.is((await accountApi(h, account).delete(`/agent_bots/${bot.body.id}`)).status, 200);
  t.is((await download(bot.body.thumbnail)).status, 404);
});

test("a user's avatar file on PUT /api/v1/profile is stored and served as avatar_url; a new one replaces it; other types are 422", async (t) => {
  const account = await createAccount(h);
  const first = await pngOf(48, 48);
  const set = await requestForm(
    h,
    "PUT",
    "/api/v1/profile",
    [
      ["name", "Pictured Agent"],
      ["avatar", { filename: "me.png", content: first, type: "image/png" }],
    ],
    account.admin.token,
  );
  t.is(set.status, 200, JSON.stringify(set.body));
  t.is(set.body.name, "Pictured Agent");
  const avatarUrl = set.body.avatar_url;
  t.regex(avatarUrl, /^http:\/\/localhost:3000\/files\/avatars\/shared\/avatars\/user\/[0-9a-f-]{36}\.png$/);
  t.true((await download(avatarUrl)).bytes.equals(first));
  t.is((await h.request("GET", "/api/v1/profile", { token: account.admin.token })).body.avatar_url, avatarUrl);

  const second = await pngOf(24, 24);
  const replaced = await requestForm(
    h,
    "PATCH",
    "/api/v1/profile",
    [["avatar", { filename: "new.png", content: second, type: "image/png" }]],
    account.admin.token,
  );
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.not(replaced.body.avatar_url, avatarUrl);
  t.true((await download(replaced.body.avatar_url)).bytes.equals(second));
  t.is((await download(avatarUrl)).status, 404, "the replaced avatar is gone");

  const refused = await requestForm(
    h,
    "PUT",
    "/api/v1/profile",
    [
      ["name", "Nope"],
      ["avatar", { filename: "a.txt", content: "text", type: "text/plain" }],
    ],
    account.admin.token,
  );
  t.is(refused.status, 422);
  t.deepEqual(refused.body, { message: "Avatar filetype not supported", attributes: ["avatar"] });
  t.is((await h.request("GET", "/api/v1/profile", { token: account.admin.token })).body.name, "Pictured Agent", "nothing written");
});
