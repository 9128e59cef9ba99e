import { readdir } from "node:fs/promises";
import path from "node:path";
import test from "ava";
import sharp from "sharp";
import { accountDeletionWorkflowId } from "../../src/temporal/contracts";
import { conversationWorld, createConversation } from "../conversations/setup";
import { eventually } from "../support/eventually";
import { pngOf, requestForm } from "../support/forms";
import { tempStorage, useHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";
import { Receiver } from "../support/receiver";

let db: OwnDatabase;
const storage = tempStorage();
const receiver = new Receiver();
test.before(async () => {
  // A database of its own: only this file's worker (which shares its storage) runs its analyses.
  db = await createOwnDatabase("files_analysis");
  await receiver.start();
});
const h = useHarness(test, () => ({ relay: true, databaseUrl: db.url, settings: { storage } }));
test.after.always(async () => {
  await receiver.stop();
  await db?.drop();
});

async function accountFiles(accountId: number): Promise<string[]> {
  const dir = path.join(storage.root, "accounts", String(accountId));
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
}

async function download(url: string) {
  const response = await fetch(`${h.baseUrl}${new URL(url).pathname}`);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), type: response.headers.get("content-type") };
}

test("an image's dimensions and thumbnail come from a workflow after the message; webhooks carry the attachments", async (t) => {
  const world = await conversationWorld(h);
  const hook = await h.request("POST", `${world.base}/webhooks`, {
    token: world.account.admin.token,
    body: { url: receiver.url, subscriptions: ["message_created"] },
  });
  t.is(hook.status, 200, JSON.stringify(hook.body));
  const conversation = await createConversation(h, world);
  const png = await pngOf(600, 400);
  const created = await requestForm(
    h,
    "POST",
    `${world.base}/conversations/${conversation.id}/messages`,
    [
      ["content", "Look"],
      ["attachments[]", { filename: "wide.png", content: png, type: "image/png" }],
      // A JPEG's signature with nothing readable after it: taken, but no image sharp can measure.
      [
        "attachments[]",
        { filename: "broken.jpg", content: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("not really a jpeg")]), type: "image/jpeg" },
      ],
    ],
    world.account.admin.token,
  );
  t.is(created.status, 200, JSON.stringify(created.body));
  // At once: no dimensions yet, as Chatwoot answers before its analysis job.
  t.like(created.body.attachments[0], { file_type: "image", width: null, height: null, thumb_url: "" });

  const [delivered] = await receiver.waitFor((requests) => requests.some((r) => r.body.event === "message_created" && r.body.id === created.body.id));
  const webhook = receiver.requests.find((r) => r.body.id === created.body.id)!.body;
  t.truthy(delivered);
  t.deepEqual(webhook.attachments, created.body.attachments);
  t.is((await download(webhook.attachments[0].data_url)).bytes.length, png.length);

  const [wide, broken] = await eventually(
    () => h.knex("attachments").where("message_id", created.body.id).orderBy("id"),
    (rows) => rows.every((row) => row.analyzed_at !== null),
    "both images analysed",
  );
  t.like(wide, { width: 600, height: 400 });
  t.truthy(wide.thumb_key);
  t.like(broken, { width: null, height: null, thumb_key: null });

  const listed = await h.request("GET", `${world.base}/conversations/${conversation.id}/messages`, { token: world.account.admin.token });
  const [shownWide, shownBroken] = listed.body.payload.at(-1).attachments;
  t.like(shownWide, { width: 600, height: 400 });
  t.like(shownBroken, { width: null, height: null, thumb_url: "" });
  const thumb = await download(shownWide.thumb_url);
  t.is(thumb.status, 200);
  t.is(thumb.type, "image/png");
  t.like(await sharp(thumb.bytes).metadata(), { format: "png", width: 250, height: 167 });
});

test("deleting an account removes all its stored files in the deletion workflow", async (t) => {
  const world = await conversationWorld(h, "Doomed");
  const other = await conversationWorld(h, "Survivor");
  for (const w of [world, other]) {
    const conversation = await createConversation(h, w);
    const created = await requestForm(
      h,
      "POST",
      `${w.base}/conversations/${conversation.id}/messages`,
      [["attachments[]", { filename: "pic.png", content: await pngOf(300, 300), type: "image/png" }]],
      w.account.admin.token,
    );
    t.is(created.status, 200);
  }
  // Attachment and thumbnail.
  await eventually(
    () => accountFiles(world.account.id),
    (files) => files.length === 2,
    "the thumbnail of the doomed account",
  );

  t.is((await h.request("DELETE", `/platform/api/v1/accounts/${world.account.id}`, { token: h.platformToken })).status, 200);
  await h.deps.temporal.client.workflow.getHandle(accountDeletionWorkflowId(h.deps.temporal.installationId, world.account.id)).result();
  t.deepEqual(await accountFiles(world.account.id), []);
  t.deepEqual(await h.knex("attachments").where("account_id", world.account.id), []);
  t.deepEqual(await h.knex("file_deletions").where("account_id", world.account.id), []);
  t.true((await accountFiles(other.account.id)).length >= 1);
});
