import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import test from "ava";
import { createAccount } from "../support/factories";
import { eventually } from "../support/eventually";
import { pngOf } from "../support/forms";
import { accountApi, tempStorage, useHarness } from "../support/harness";
import { createOwnDatabase, type OwnDatabase } from "../support/ownDatabase";

let db: OwnDatabase;
let images: Server;
let imageBase: string;
let png: Buffer;
const hits = new Map<string, number>();

test.before(async () => {
  png = await pngOf(80, 80);
  // An image host on loopback (allowed outside production, as for webhooks).
  images = createServer((req, res) => {
    const count = (hits.get(req.url!) ?? 0) + 1;
    hits.set(req.url!, count);
    if (req.url === "/face.png" || (req.url === "/flaky.png" && count > 1)) {
      res.writeHead(200, { "content-type": "image/png" }).end(png);
    } else if (req.url === "/flaky.png") {
      res.writeHead(503).end("busy");
    } else if (req.url === "/page.png") {
      res.writeHead(200, { "content-type": "image/png" }).end("<html>not an image</html>");
    } else {
      res.writeHead(404).end("no");
    }
  });
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  db = await createOwnDatabase("files_avatars");
});
const h = useHarness(test, () => ({ relay: true, databaseUrl: db.url, settings: { storage: tempStorage() } }));
test.after.always(async () => {
  images?.close();
  await db?.drop();
});

async function download(url: string) {
  const response = await fetch(`${h.baseUrl}${new URL(url).pathname}`);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

test("a contact's avatar_url is fetched in the background and served as its thumbnail", async (t) => {
  const account = await createAccount(h);
  const url = `${imageBase}/face.png`;
  const created = await accountApi(h, account).post("/contacts", { name: "Face", avatar_url: url });
  t.is(created.status, 200);
  const id = created.body.payload.contact.id;
  // At once: the URL as given, until the image is stored.
  t.is(created.body.payload.contact.thumbnail, url);
  const shown = await eventually(
    () => accountApi(h, account).get(`/contacts/${id}`),
    (r) => r.body.payload.thumbnail !== url,
    "the stored avatar",
  );
  t.regex(shown.body.payload.thumbnail, /\/files\/avatars\/accounts\/\d+\/avatars\/contact\/[0-9a-f-]{36}\.png$/);
  t.true((await download(shown.body.payload.thumbnail)).bytes.equals(png));
});

test("an agent bot's avatar_url is fetched, with retries through a failing host", async (t) => {
  const account = await createAccount(h);
  const url = `${imageBase}/flaky.png`;
  const bot = await h.request("POST", `/api/v1/accounts/${account.id}/agent_bots`, {
    token: account.admin.token,
    body: { name: "Flaky face", avatar_url: url },
  });
  t.is(bot.status, 200);
  const row = await eventually(
    () => h.knex("agent_bots").where("id", bot.body.id).first(),
    (r) => r.avatar_key !== null,
    "the bot's stored avatar",
  );
  t.is(row.avatar_fetched_url, url);
  t.true(hits.get("/flaky.png")! >= 2);
  const shown = await accountApi(h, account).get(`/agent_bots/${bot.body.id}`);
  t.true((await download(shown.body.thumbnail)).bytes.equals(png));
});

test("bad avatar URLs never fail the request and store nothing: a 404, a page that is not an image", async (t) => {
  const account = await createAccount(h);
  for (const url of [`${imageBase}/gone.png`, `${imageBase}/page.png`]) {
    const created = await accountApi(h, account).post("/contacts", { name: "Bad", avatar_url: url });
    t.is(created.status, 200);
    const row = await eventually(
      () => h.knex("contacts").where("id", created.body.payload.contact.id).first(),
      (r) => r.avatar_fetched_url === url,
      `the attempt at ${url}`,
    );
    t.is(row.avatar_key, null);
    t.is(hits.get(new URL(url).pathname), 1, "a permanent failure is not retried");
    const shown = await accountApi(h, account).get(`/contacts/${row.id}`);
    t.is(shown.body.payload.thumbnail, url);
  }
});
