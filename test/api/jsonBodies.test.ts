import test from "ava";
import { createContact } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

test("a JSON answer is UTF-8 with its length in bytes, and HEAD answers the same length without the body", async (t) => {
  const account = await createAccount(h);
  const name = "Zoë Ōtani 日本語 👋";
  const { contact } = await createContact(h, account, { name });
  const url = `${h.baseUrl}/api/v1/accounts/${account.id}/contacts/${contact.id}`;
  const headers = { api_access_token: account.admin.token };

  const got = await fetch(url, { headers });
  const bytes = Buffer.from(await got.arrayBuffer());
  t.is(got.status, 200);
  t.is(got.headers.get("content-type"), "application/json; charset=utf-8");
  t.is(Number(got.headers.get("content-length")), bytes.length);
  // More bytes than characters: a length in characters would cut the body short.
  t.true(bytes.length > bytes.toString("utf8").length);
  t.is(JSON.parse(bytes.toString("utf8")).payload.name, name);

  const head = await fetch(url, { method: "HEAD", headers });
  t.is(head.status, 200);
  t.is(head.headers.get("content-type"), "application/json; charset=utf-8");
  t.is(Number(head.headers.get("content-length")), bytes.length);
  t.is((await head.arrayBuffer()).byteLength, 0);

  // An array answered whole (the agents), and an error in Chatwoot's shape, are JSON too.
  const agents = await fetch(`${h.baseUrl}/api/v1/accounts/${account.id}/agents`, { headers });
  t.is(agents.headers.get("content-type"), "application/json; charset=utf-8");
  const agentsText = await agents.text();
  t.is(Number(agents.headers.get("content-length")), Buffer.byteLength(agentsText));
  t.true(Array.isArray(JSON.parse(agentsText)));
  const missing = await fetch(`${h.baseUrl}/api/v1/accounts/${account.id}/contacts/0`, { headers });
  t.is(missing.status, 404);
  t.is(missing.headers.get("content-type"), "application/json; charset=utf-8");
  t.deepEqual(await missing.json(), { error: "Resource could not be found" });
});
