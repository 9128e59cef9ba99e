import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import test from "ava";
import S3rver from "s3rver";
import { storageSettings } from "../../src/config";
import { storageFromEnv } from "../../src/storage";
import { S3Storage, s3ClientConfig } from "../../src/storage/s3";
import { LocalStorage } from "../../src/storage/local";
import { conversationWorld, createConversation } from "../conversations/setup";
import { requestForm } from "../support/forms";
import { useHarness } from "../support/harness";

/**
 * The S3 path end to end against s3rver, an S3 implementation running inside this test process on
 * loopback (no outside service): uploads, signed downloads and deletion go through the AWS SDK.
 */
let s3: S3rver;
let endpoint: string;
test.before(async () => {
  s3 = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: await mkdtemp(path.join(os.tmpdir(), "s3rver-")),
    configureBuckets: [{ name: "convo-files", configs: [] }],
  });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
});
const h = useHarness(test, () => ({
  settings: {
    storage: storageSettings({
      ACTIVE_STORAGE_SERVICE: "s3_compatible",
      STORAGE_BUCKET_NAME: "convo-files",
      STORAGE_ENDPOINT: endpoint,
      STORAGE_ACCESS_KEY_ID: "S3RVER",
      STORAGE_SECRET_ACCESS_KEY: "S3RVER",
      STORAGE_PREFIX: "test-installation",
    }),
  },
}));
test.after.always(async () => {
  await s3?.close();
});

const bucket = () =>
  new S3Storage({ bucket: "convo-files", region: "us-east-1", endpoint, accessKeyId: "S3RVER", secretAccessKey: "S3RVER", prefix: "test-installation" });

async function read(storage: S3Storage, key: string): Promise<string | undefined> {
  const object = await storage.get(key);
  if (!object) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString();
}

test("with s3_compatible storage, attachments go to the bucket, download through their data_url and go with their message", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const created = await requestForm(
    h,
    "POST",
    `${world.base}/conversations/${conversation.id}/messages`,
    [["attachments[]", { filename: "report.txt", content: "stored in a bucket", type: "text/plain" }]],
    world.account.admin.token,
  );
  t.is(created.status, 200, JSON.stringify(created.body));
  const { storage_key: key } = await h.knex("attachments").where("message_id", created.body.id).first();
  t.is(await read(bucket(), key), "stored in a bucket");

  const response = await fetch(`${h.baseUrl}${new URL(created.body.attachments[0].data_url).pathname}`);
  t.is(response.status, 200);
  t.is(await response.text(), "stored in a bucket");

  const deleted = await h.request("DELETE", `${world.base}/conversations/${conversation.id}/messages/${created.body.id}`, { token: world.account.admin.token });
  t.is(deleted.status, 200);
  t.is(await read(bucket(), key), undefined);
});

test("deletePrefix removes an account's objects and nothing of other accounts", async (t) => {
  const storage = bucket();
  await storage.put("accounts/901/attachments/a.txt", { bytes: Buffer.from("a") }, "text/plain");
  await storage.put("accounts/901/avatars/contact/b.png", { bytes: Buffer.from("b") }, "image/png");
  await storage.put("accounts/9011/attachments/c.txt", { bytes: Buffer.from("c") }, "text/plain");
  t.is(await storage.deletePrefix("accounts/901/", 100), 2);
  t.is(await storage.deletePrefix("accounts/901/", 100), 0);
  t.is(await read(storage, "accounts/9011/attachments/c.txt"), "c");
});

test("the environment picks the storage with Chatwoot's variable names", (t) => {
  t.true(storageFromEnv({}) instanceof LocalStorage);
  t.is((storageFromEnv({ STORAGE_DIR: "/srv/files" }) as LocalStorage).root, "/srv/files");
  const amazon = storageFromEnv({ ACTIVE_STORAGE_SERVICE: "amazon", S3_BUCKET_NAME: "b", AWS_REGION: "eu-west-1" }) as S3Storage;
  t.like(amazon.options, { bucket: "b", region: "eu-west-1" });
  t.like(s3ClientConfig(amazon.options), { region: "eu-west-1", forcePathStyle: false });
  t.false("endpoint" in s3ClientConfig(amazon.options));
  const compatible = storageFromEnv({
    ACTIVE_STORAGE_SERVICE: "s3_compatible",
    STORAGE_BUCKET_NAME: "c",
    STORAGE_ENDPOINT: "https://minio.internal:9000",
    STORAGE_FORCE_PATH_STYLE: "false",
  }) as S3Storage;
  t.like(s3ClientConfig(compatible.options), { endpoint: "https://minio.internal:9000", forcePathStyle: false, requestChecksumCalculation: "WHEN_REQUIRED" });
  t.is(compatible.objectKey("accounts/1/x"), "accounts/1/x");
  t.is(new S3Storage({ bucket: "c", region: "r", prefix: "/tenant-a/" }).objectKey("accounts/1/x"), "tenant-a/accounts/1/x");
  t.throws(() => compatible.objectKey("accounts/1/../2/x"));
  t.throws(() => storageFromEnv({ ACTIVE_STORAGE_SERVICE: "amazon" }), { message: /S3_BUCKET_NAME is required/ });
  t.throws(() => storageFromEnv({ ACTIVE_STORAGE_SERVICE: "ftp" }), { message: /not one of/ });
});
