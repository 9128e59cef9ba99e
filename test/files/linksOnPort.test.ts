import test from "ava";
import { loadSettings } from "../../src/config";
import { conversationWorld, createConversation } from "../conversations/setup";
import { requestForm } from "../support/forms";
import { tempStorage, useHarness } from "../support/harness";

// A service started with PORT=3999 and no FRONTEND_URL, as `PORT=3999 npm start` is.
const { port, frontendUrl } = loadSettings({ ...process.env, PORT: "3999", FRONTEND_URL: "" });
const h = useHarness(test, { settings: { port, frontendUrl, storage: tempStorage() } });

test("without FRONTEND_URL, an attachment's data_url points at the port the service listens on", async (t) => {
  const world = await conversationWorld(h);
  const conversation = await createConversation(h, world);
  const created = await requestForm(
    h,
    "POST",
    `${world.base}/conversations/${conversation.id}/messages`,
    [["attachments[]", { filename: "notes.txt", content: "hello files", type: "text/plain" }]],
    world.account.admin.token,
  );
  t.is(created.status, 200, JSON.stringify(created.body));
  const url = new URL(created.body.attachments[0].data_url);
  t.is(url.origin, "http://localhost:3999");
  // The same path serves the file on the test's own port.
  const download = await fetch(`${h.baseUrl}${url.pathname}${url.search}`);
  t.is(download.status, 200);
  t.is(await download.text(), "hello files");
});
