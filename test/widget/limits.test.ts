import test from "ava";
import { createAccount } from "../support/factories";
import { useHarness } from "../support/harness";
import { address, instance, limits, statuses } from "../support/rateLimitInstance";
import { widgetInbox } from "./widgetSession";

const h = useHarness(test);

const authTokenOf = (text: string): string => JSON.parse(text).auth_token;

test("a visitor's writes are limited per contact: another visitor at the same address, and reads, go on", async (t) => {
  const api = await instance(h, limits({ widgetWritesPerContact: "3/60", widgetSessionsPerAddress: "100/60" }));
  t.teardown(() => api.close());
  const inbox = await widgetInbox(h, await createAccount(h));
  const office = address();
  const session = async () => authTokenOf((await api.send("POST", `/api/v1/widget/config?website_token=${inbox.website_token}`, office)).text);
  const [first, second] = [await session(), await session()];
  const write = (token: string) =>
    api.send("POST", `/api/v1/widget/messages?website_token=${inbox.website_token}`, office, {
      body: { message: { content: "hi" } },
      headers: { "X-Auth-Token": token },
    });

  t.deepEqual(await statuses(4, () => write(first)), [200, 200, 200, 429]);
  t.is((await write(second)).status, 200, "another visitor behind the same address");
  const read = await api.send("GET", `/api/v1/widget/messages?website_token=${inbox.website_token}`, office, { headers: { "X-Auth-Token": first } });
  t.is(read.status, 200);
  t.is(JSON.parse(read.text).length, 3);
});

test("new widget conversations are limited per address; the widget page without a session counts as a new session", async (t) => {
  const api = await instance(h, limits({ widgetConversationsPerAddress: "2/3600", widgetSessionsPerAddress: "2/3600" }));
  t.teardown(() => api.close());
  const inbox = await widgetInbox(h, await createAccount(h));
  const from = address();
  const page = await api.send("GET", `/widget?website_token=${inbox.website_token}`, from);
  t.is(page.status, 200);
  const authToken = /"authToken":"([^"]+)"/.exec(page.text)![1]!;
  const start = () =>
    api.send("POST", `/api/v1/widget/conversations?website_token=${inbox.website_token}`, from, {
      body: { message: { content: "hello" } },
      headers: { "X-Auth-Token": authToken },
    });
  t.deepEqual(await statuses(3, start), [200, 200, 429]);

  t.is((await api.send("GET", `/widget?website_token=${inbox.website_token}`, from)).status, 200);
  t.is((await api.send("GET", `/widget?website_token=${inbox.website_token}`, from)).status, 429);
  t.is((await api.send("GET", `/widget?website_token=${inbox.website_token}&cw_conversation=${authToken}`, from)).status, 200, "a resumed session");
});
