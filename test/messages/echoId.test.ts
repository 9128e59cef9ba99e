import test from "ava";
import { conversationWorld, createConversation, postMessage } from "../conversations/setup";
import { expectOk, quickRetries, useHarness } from "../support/harness";
import { Receiver } from "../support/receiver";

const h = useHarness(test, { relay: true, settings: { delivery: quickRetries() } });

const createdWith = (receiver: Receiver, content: string) =>
  receiver.requests.find((request) => request.body.event === "message_created" && request.body.content === content)?.body;

test("echo_id on message create comes back in the response and in message_created to webhooks and agent bots, and is not stored", async (t) => {
  const world = await conversationWorld(h);
  const token = world.account.admin.token;
  const webhook = await new Receiver().start();
  const bot = await new Receiver().start();
  t.teardown(() => Promise.all([webhook.stop(), bot.stop()]));
  await expectOk(h.request("POST", `${world.base}/webhooks`, { token, body: { url: webhook.url, subscriptions: ["message_created"] } }), "webhook");
  const agentBot = await expectOk(h.request("POST", `${world.base}/agent_bots`, { token, body: { name: "Echo bot", outgoing_url: bot.url } }), "bot");
  await expectOk(h.request("POST", `${world.base}/inboxes/${world.inbox.id}/set_agent_bot`, { token, body: { agent_bot: agentBot.id } }), "set bot");
  const conversation = await createConversation(h, world);

  const reply = await postMessage(h, world, conversation.id, { content: "Optimistic", echo_id: "tmp-42" });
  t.is(reply.status, 200);
  t.is(reply.body.echo_id, "tmp-42");
  // Numbers (a client's counter) are taken as text.
  const numbered = await postMessage(h, world, conversation.id, { content: "Counted", echo_id: 7 });
  t.is(numbered.body.echo_id, "7");
  const plain = await postMessage(h, world, conversation.id, { content: "No echo" });
  t.false("echo_id" in plain.body);

  // The contact's own message through the public API.
  const publicBase = `/public/api/v1/inboxes/${(world.inbox as unknown as { inbox_identifier: string }).inbox_identifier}/contacts/${world.sourceId}/conversations`;
  const publicConversation = await expectOk(h.request("POST", publicBase, { body: {} }), "public conversation");
  const fromContact = await h.request("POST", `${publicBase}/${publicConversation.id}/messages`, { body: { content: "From the widget", echo_id: "widget-1" } });
  t.is(fromContact.status, 200);
  t.is(fromContact.body.echo_id, "widget-1");

  for (const receiver of [webhook, bot]) {
    await receiver.waitFor(() => ["Optimistic", "Counted", "No echo", "From the widget"].every((content) => createdWith(receiver, content)));
    t.is(createdWith(receiver, "Optimistic").echo_id, "tmp-42");
    t.is(createdWith(receiver, "Counted").echo_id, "7");
    t.false("echo_id" in createdWith(receiver, "No echo"));
    t.is(createdWith(receiver, "From the widget").echo_id, "widget-1");
  }

  // Transient, as Chatwoot's attr_accessor: the list never shows it.
  const list = await h.request("GET", `${world.base}/conversations/${conversation.id}/messages`, { token });
  t.true(list.body.payload.every((message: Record<string, unknown>) => !("echo_id" in message)));
});
