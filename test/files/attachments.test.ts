import { readdir } from "node:fs/promises";
import path from "node:path";
import test from "ava";
import { FileUrlSigner, fileUrlSigner } from "../../src/storage/urls";
import { conversationWorld, createConversation, postMessage, type ConversationWorld } from "../conversations/setup";
import { createContact, createInbox } from "../support/conversationFactories";
import { leftoverUploads, ownTmpDir, pngOf, requestForm, type FormFields } from "../support/forms";
import { tempStorage, useHarness } from "../support/harness";

const storage = tempStorage();
// 1 MB, so the size limit is tested without moving 40 MB around.
const h = useHarness(test, { settings: { storage, maxUploadBytes: 1024 * 1024 } });
let tmp: string;
test.before(async () => {
  tmp = await ownTmpDir();
});

/** Every file in storage, as keys. */
async function storedKeys(): Promise<string[]> {
  const entries = await readdir(storage.root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(storage.root, path.join(e.parentPath, e.name)));
}

/** GETs a file URL (absolute, under FRONTEND_URL) from the test's server. */
async function download(url: string) {
  const { pathname } = new URL(url);
  const response = await fetch(`${h.baseUrl}${pathname}`);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

async function postFiles(world: ConversationWorld, displayId: number, fields: FormFields) {
  return requestForm(h, "POST", `${world.base}/conversations/${displayId}/messages`, fields, world.account.admin.token);
}

// Serial, so no other test's upload is in flight when it checks that no upload is left on disk.
test.serial("a message with attachments and no text: stored, shown in Chatwoot's shape, downloadable through its data_url", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const png = await pngOf(40, 30);
  const created = await postFiles(world, conversation.id, [
    ["attachments[]", { filename: "photo.png", content: png, type: "image/png" }],
    ["attachments[]", { filename: "notes.txt", content: "hello files", type: "text/plain" }],
  ]);
  t.is(created.status, 200, JSON.stringify(created.body));
  t.is(created.body.content, null);
  const [image, text] = created.body.attachments;
  t.like(image, {
    message_id: created.body.id,
    file_type: "image",
    account_id: world.account.id,
    extension: "png",
    content_type: "image/png",
    file_size: png.length,
    thumb_url: "",
  });
  t.like(text, { message_id: created.body.id, file_type: "file", account_id: world.account.id, extension: "txt", file_size: 11, width: null, height: null });
  t.deepEqual(Object.keys(image).sort(), [
    "account_id",
    "content_type",
    "data_url",
    "extension",
    "file_size",
    "file_type",
    "height",
    "id",
    "message_id",
    "thumb_url",
    "width",
  ]);

  const got = await download(image.data_url);
  t.is(got.status, 200);
  t.true(got.bytes.equals(png));
  t.is(got.headers.get("content-type"), "image/png");
  const gotText = await download(text.data_url);
  t.is(gotText.bytes.toString(), "hello files");
  // Not a type a browser should render on our origin.
  t.regex(gotText.headers.get("content-disposition")!, /^attachment; filename="notes.txt"/);
  t.is(gotText.headers.get("x-content-type-options"), "nosniff");

  t.is((await storedKeys()).filter((key) => key.startsWith(`accounts/${world.account.id}/attachments/`)).length, 2);

  // Listed with the message, and in the outbox's message_created payload (what webhooks and agent bots receive).
  const listed = await h.request("GET", `${world.base}/conversations/${conversation.id}/messages`, { token: world.account.admin.token });
  t.deepEqual(listed.body.payload.at(-1).attachments, created.body.attachments);
  const event = await h.knex("events").where({ account_id: world.account.id, name: "message_created" }).orderBy("id", "desc").first();
  t.deepEqual(event.payload.attachments, created.body.attachments);
  t.is(event.payload.content, null);

  // A message with files may also have text; one without either is still refused.
  const both = await postFiles(world, conversation.id, [
    ["content", "See attached"],
    ["attachments[]", { filename: "a.pdf", content: "%PDF-1.4", type: "application/pdf" }],
  ]);
  t.is(both.status, 200);
  t.is(both.body.content, "See attached");
  t.is(both.body.attachments[0].file_type, "file");
  const none = await postFiles(world, conversation.id, [["private", "true"]]);
  t.is(none.status, 422);
  t.deepEqual(none.body, { error: "Validation failed: Content can't be blank" });
  t.deepEqual(await leftoverUploads(tmp).then((dirs) => dirs.filter((d) => d.startsWith("convo-upload-"))), []);
});

test("file types come from the declared type, else the file name; audio and video are their own types", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const created = await postFiles(world, conversation.id, [
    ["attachments[]", { filename: "voice.ogg", content: "OggS....", type: "application/octet-stream" }],
    ["attachments[]", { filename: "clip.mp4", content: "....ftyp", type: "video/mp4" }],
    ["attachments[]", { filename: "blob", content: "???", type: "application/octet-stream" }],
  ]);
  t.is(created.status, 200, JSON.stringify(created.body));
  t.deepEqual(
    created.body.attachments.map((a: any) => [a.file_type, a.content_type, a.extension]),
    [
      ["audio", "audio/ogg", "ogg"],
      ["video", "video/mp4", "mp4"],
      ["file", "application/octet-stream", null],
    ],
  );
});

test("files over the size limit, and types a web widget may not send, are refused with 422 and leave nothing stored", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const big = Buffer.alloc(1024 * 1024 + 10, 1);
  const tooBig = await postFiles(world, conversation.id, [
    ["content", "big"],
    ["attachments[]", { filename: "big.bin", content: big, type: "application/pdf" }],
  ]);
  t.is(tooBig.status, 422);
  t.deepEqual(tooBig.body, { error: "Validation failed: Attachments file size is too big" });
  const empty = await postFiles(world, conversation.id, [["attachments[]", { filename: "empty.txt", content: "", type: "text/plain" }]]);
  t.is(empty.status, 422);
  t.deepEqual(empty.body, { error: "Validation failed: Attachments file is empty" });

  // JSON cannot carry files: a string where a file belongs is refused, not ignored.
  const json = await postMessage(h, world, conversation.id, { content: "x", attachments: ["https://example.com/a.png"] });
  t.is(json.status, 422);

  const widget = await createInbox(h, world.account, { name: "Site", channel: { type: "web_widget", website_url: "https://shop.example.com" } });
  const { contact } = await createContact(h, world.account, { name: "Visitor", inbox_id: widget.id });
  const widgetConversation = await h.request("POST", `${world.base}/conversations`, {
    token: world.account.admin.token,
    body: { inbox_id: widget.id, contact_id: contact.id },
  });
  t.is(widgetConversation.status, 200);
  const exe = await postFiles(world, widgetConversation.body.id, [["attachments[]", { filename: "run.exe", content: "MZ", type: "application/x-msdownload" }]]);
  t.is(exe.status, 422);
  t.deepEqual(exe.body, { error: "Validation failed: Attachments file type not supported" });
  const pdf = await postFiles(world, widgetConversation.body.id, [["attachments[]", { filename: "doc.pdf", content: "%PDF", type: "application/pdf" }]]);
  t.is(pdf.status, 200);
  // The API inbox takes any type, as Chatwoot's does.
  const apiExe = await postFiles(world, conversation.id, [["attachments[]", { filename: "run.exe", content: "MZ", type: "application/x-msdownload" }]]);
  t.is(apiExe.status, 200);

  const added = (await storedKeys()).filter((key) => key.startsWith(`accounts/${world.account.id}/`));
  t.is(added.length, 2, "only the accepted pdf and exe are stored");
  t.is(
    await h
      .knex("attachments")
      .whereIn("storage_key", added)
      .count("* as n")
      .first()
      .then((r) => Number(r!.n)),
    2,
  );
});

test("file URLs reach only their own file: forged, altered, expired and cross-account URLs are refused", async (t) => {
  const world = await conversationWorld(h);
  const other = await conversationWorld(h, "Other");
  const conversation = await createConversation(h, world);
  const created = await postFiles(world, conversation.id, [["attachments[]", { filename: "secret.txt", content: "account one only", type: "text/plain" }]]);
  const attachment = created.body.attachments[0];
  const url = new URL(attachment.data_url);
  const [, , token, filename] = url.pathname.split("/");
  const [payload, signature] = token!.split(".");
  t.is((await download(attachment.data_url)).status, 200);

  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
  const reencode = (changed: Record<string, unknown>) => Buffer.from(JSON.stringify({ ...claims, ...changed })).toString("base64url");
  const attempts = {
    "another account named, same signature": `${reencode({ a: other.account.id })}.${signature}`,
    "a later expiry, same signature": `${reencode({ e: claims.e + 86_400 })}.${signature}`,
    "a made-up signature": `${payload}.${Buffer.alloc(32).toString("base64url")}`,
    "no signature": payload!,
  };
  for (const [what, forged] of Object.entries(attempts)) {
    t.is((await download(`http://x${"/files"}/${forged}/${filename}`)).status, 404, what);
  }

  // Even a genuine signature cannot name another account's key: the key's own account must match.
  const signer = await fileUrlSigner(h.knex);
  const crossAccount = signer.url({ accountId: other.account.id, key: claims.k, contentType: "text/plain", filename: "x.txt" });
  t.is((await download(crossAccount)).status, 404);
  const escape = signer.url({
    accountId: world.account.id,
    key: `accounts/${world.account.id}/../${other.account.id}/x`,
    contentType: "text/plain",
    filename: "x",
  });
  t.is((await download(escape)).status, 404);
  // Signed with another secret.
  const stranger = new FileUrlSigner(Buffer.from("not the service secret"), h.deps.settings.fileUrlTtlSeconds, "http://x");
  t.is((await download(stranger.url({ accountId: world.account.id, key: claims.k, contentType: "text/plain", filename: "x" }))).status, 404);
  // Expired: a URL made 8 days ago (the default lifetime is 7).
  const old = signer.url({ accountId: world.account.id, key: claims.k, contentType: "text/plain", filename: "x" }, Date.now() - 8 * 86_400_000);
  t.is((await download(old)).status, 404);
  const fresh = signer.url({ accountId: world.account.id, key: claims.k, contentType: "text/plain", filename: "x" });
  t.is((await download(fresh)).bytes.toString(), "account one only");
});

test("deleting a message, a contact or an inbox removes the files of their messages", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const first = await postFiles(world, conversation.id, [
    ["content", "one"],
    ["attachments[]", { filename: "one.txt", content: "1", type: "text/plain" }],
  ]);
  const second = await postFiles(world, conversation.id, [["attachments[]", { filename: "two.txt", content: "2", type: "text/plain" }]]);
  const keyOf = async (messageId: number) => (await h.knex("attachments").where("message_id", messageId).first())!.storage_key as string;
  const firstKey = await keyOf(first.body.id);
  const secondKey = await keyOf(second.body.id);
  t.true((await storedKeys()).includes(firstKey));

  const deleted = await h.request("DELETE", `${world.base}/conversations/${conversation.id}/messages/${first.body.id}`, { token: world.account.admin.token });
  t.is(deleted.status, 200);
  t.like(deleted.body, { content: "This message was deleted", content_attributes: { deleted: true } });
  t.false("attachments" in deleted.body);
  t.false((await storedKeys()).includes(firstKey));
  t.is((await download(first.body.attachments[0].data_url)).status, 404);
  t.true((await storedKeys()).includes(secondKey));

  t.is((await h.request("DELETE", `${world.base}/contacts/${world.contact.id}`, { token: world.account.admin.token })).status, 200);
  t.false((await storedKeys()).includes(secondKey));
  t.deepEqual(await h.knex("file_deletions").where("account_id", world.account.id), []);

  const inboxWorld = await conversationWorld(h, "Inbox owner");
  const inboxConversation = await createConversation(h, inboxWorld);
  const third = await postFiles(inboxWorld, inboxConversation.id, [["attachments[]", { filename: "three.txt", content: "3", type: "text/plain" }]]);
  const thirdKey = await keyOf(third.body.id);
  t.is((await h.request("DELETE", `${inboxWorld.base}/inboxes/${inboxWorld.inbox.id}`, { token: inboxWorld.account.admin.token })).status, 200);
  t.false((await storedKeys()).includes(thirdKey));
});

test("conversations/:id/attachments lists the conversation's files newest first, with the message's time and sender; other accounts get 404", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const first = await postFiles(world, conversation.id, [["attachments[]", { filename: "a.txt", content: "first file", type: "text/plain" }]]);
  const second = await postFiles(world, conversation.id, [
    ["content", "two more"],
    ["attachments[]", { filename: "b.txt", content: "second file", type: "text/plain" }],
    ["attachments[]", { filename: "c.png", content: await pngOf(4, 4), type: "image/png" }],
  ]);
  t.is(first.status, 200);
  t.is(second.status, 200);
  await postMessage(h, world, conversation.id, { content: "no files here" });

  const listed = await h.request("GET", `${world.base}/conversations/${conversation.id}/attachments`, { token: world.account.agent.token });
  t.is(listed.status, 200, JSON.stringify(listed.body));
  t.is(listed.body.meta.total_count, 3);
  t.deepEqual(
    listed.body.payload.map((a: any) => a.id),
    [...second.body.attachments, ...first.body.attachments].map((a: any) => a.id).sort((x: number, y: number) => y - x),
  );
  const newest = listed.body.payload.find((a: any) => a.extension === "png");
  t.like(newest, { message_id: second.body.id, file_type: "image", account_id: world.account.id, created_at: second.body.created_at });
  t.like(newest.sender, { id: world.account.admin.id, type: "user" });
  t.true((await download(listed.body.payload.at(-1).data_url)).bytes.equals(Buffer.from("first file")));

  const other = await conversationWorld(h, "Other");
  const foreign = await h.request("GET", `${other.base}/conversations/${conversation.id}/attachments`, { token: other.account.admin.token });
  t.deepEqual(foreign.body.payload ?? [], [], "another account sees none of these files");
  t.is((await h.request("GET", `${world.base}/conversations/999999/attachments`, { token: world.account.admin.token })).status, 404);
});
