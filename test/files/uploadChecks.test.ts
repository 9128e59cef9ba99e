import test from "ava";
import contentDisposition from "content-disposition";
import { conversationWorld, createConversation } from "../conversations/setup";
import { createAccount } from "../support/factories";
import { pngOf, requestForm } from "../support/forms";
import { tempStorage, useHarness } from "../support/harness";

const h = useHarness(test, { settings: { storage: tempStorage() } });

const PAGE = "<html><body><script>alert(document.cookie)</script></body></html>";

async function download(url: string) {
  const response = await fetch(`${h.baseUrl}${new URL(url).pathname}`);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

test("an attachment declared as an image must be that image: a page declared image/png is 422 and nothing is stored", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const path = `${world.base}/conversations/${conversation.id}/messages`;
  const before = await h.knex("attachments").where({ account_id: world.account.id });

  for (const [filename, type] of [
    ["photo.png", "image/png"],
    ["photo.jpg", "image/jpeg"],
    ["photo.png", "application/octet-stream"],
  ] as const) {
    const refused = await requestForm(h, "POST", path, [["attachments[]", { filename, content: PAGE, type }]], world.account.admin.token);
    t.deepEqual(
      [refused.status, refused.body],
      [422, { error: "Validation failed: Attachments file content does not match its type" }],
      `${filename} as ${type}`,
    );
  }
  const png = await pngOf(8, 8);
  const mislabelled = await requestForm(
    h,
    "POST",
    path,
    [["attachments[]", { filename: "photo.jpg", content: png, type: "image/jpeg" }]],
    world.account.admin.token,
  );
  t.is(mislabelled.status, 422, "a PNG declared as a JPEG");
  t.deepEqual(await h.knex("attachments").where({ account_id: world.account.id }), before);

  const fine = await requestForm(
    h,
    "POST",
    path,
    [
      ["attachments[]", { filename: "photo.png", content: png, type: "image/png" }],
      ["attachments[]", { filename: "page.html", content: PAGE, type: "text/html" }],
    ],
    world.account.admin.token,
  );
  t.is(fine.status, 200, "real images, and files that claim to be no image, are taken");
});

test("an avatar declared as an image must be that image", async (t) => {
  const account = await createAccount(h);
  const refused = await requestForm(
    h,
    "POST",
    `/api/v1/accounts/${account.id}/contacts`,
    [
      ["name", "Forged"],
      ["avatar", { filename: "me.png", content: PAGE, type: "image/png" }],
    ],
    account.admin.token,
  );
  t.deepEqual([refused.status, refused.body], [422, { message: "Avatar content does not match its filetype", attributes: ["avatar"] }]);
  t.deepEqual(await h.knex("contacts").where({ account_id: account.id, name: "Forged" }), []);
  const profile = await requestForm(h, "PUT", "/api/v1/profile", [["avatar", { filename: "me.gif", content: PAGE, type: "image/gif" }]], account.admin.token);
  t.is(profile.status, 422);

  const real = await requestForm(
    h,
    "POST",
    `/api/v1/accounts/${account.id}/contacts`,
    [
      ["name", "Real"],
      ["avatar", { filename: "me.png", content: await pngOf(8, 8), type: "image/png" }],
    ],
    account.admin.token,
  );
  t.is(real.status, 200);
});

test("non-ASCII file names are kept in UTF-8 and come back in the download's filename*", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const names = ["отчёт №1.pdf", "café 東京 'quote'.txt"];
  const created = await requestForm(
    h,
    "POST",
    `${world.base}/conversations/${conversation.id}/messages`,
    [
      ["attachments[]", { filename: names[0]!, content: "%PDF-1.4\n%%EOF\n", type: "application/pdf" }],
      ["attachments[]", { filename: names[1]!, content: "hello", type: "text/plain" }],
    ],
    world.account.admin.token,
  );
  t.is(created.status, 200, JSON.stringify(created.body));
  const rows = await h.knex("attachments").where({ message_id: created.body.id }).orderBy("id");
  t.deepEqual(
    rows.map((row) => row.filename),
    names,
  );
  for (const [i, attachment] of created.body.attachments.entries()) {
    const got = await download(attachment.data_url);
    t.is(got.status, 200);
    const header = got.headers.get("content-disposition")!;
    t.regex(header, /filename\*=UTF-8''/);
    t.is(contentDisposition.parse(header).parameters.filename, names[i]);
  }
});
