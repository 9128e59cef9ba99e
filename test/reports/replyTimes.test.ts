import test from "ava";
import { Conversation } from "../../src/models/Conversation";
import { autoResolvedActivity } from "../../src/conversations/activityMessages";
import { resolveConversation } from "../../src/conversations/status";
import { conversationWorld, createConversation, postMessage } from "../conversations/setup";
import { expectOk, useHarness } from "../support/harness";
import { at, happenedAt, report, unix } from "./setup";

const h = useHarness(test);

test("a reply is timed from the first contact message since the last public reply or resolution", async (t) => {
  const world = await conversationWorld(h, "Waits");
  const { account } = world;
  const step = <T>(minute: number, calls: () => Promise<T>) => happenedAt(h, account.id, at(0, 9, minute), calls);
  const contact = (id: number, content: string) => expectOk(postMessage(h, world, id, { content, message_type: "incoming" }), "contact writes");
  const agent = (id: number, body: Record<string, unknown>) => expectOk(postMessage(h, world, id, body, account.agent.token), "agent writes");

  const id = await step(0, async () => {
    const conversation = await createConversation(h, world, { assignee_id: account.agent.id });
    await contact(conversation.id, "Hello");
    return conversation.id as number;
  });
  await step(5, () => agent(id, { content: "Hi" })); // the first response: 300 s
  await step(10, () => contact(id, "One more thing")); // the wait starts
  await step(12, () => contact(id, "Are you there?")); // still the same wait
  await step(15, () => agent(id, { content: "Looking into it", private: true })); // a note does not end it
  await step(20, () => agent(id, { content: "Done" })); // reply time 600 s
  await step(30, () => contact(id, "Thanks, bye")); // a wait that the resolution ends unanswered
  await step(40, async () => {
    // Resolved by the system, as auto-resolve does: every resolution is in the record, whoever made it.
    const conversation = (await Conversation.findByDisplayId(account.id, id))!;
    await resolveConversation(h.knex, conversation, null, { activityContent: autoResolvedActivity(10) });
  });
  await step(50, () => contact(id, "Actually, one more")); // reopens; a new wait
  await step(55, () => agent(id, { content: "Sure" })); // reply time 300 s, not 1500

  const day = { type: "account", since: unix(at(0)), until: unix(at(1)) };
  const summary = await report(h, world, "reports/summary", day);
  t.like(summary.body, {
    avg_first_response_time: 300,
    reply_time: 450,
    resolutions_count: 1,
    avg_resolution_time: 2400,
    outgoing_messages_count: 4,
    incoming_messages_count: 5,
  });
  const hourly = (await report(h, world, "reports", { ...day, metric: "reply_time", group_by: "hour" })).body;
  t.deepEqual(
    hourly,
    Array.from({ length: 24 }, (_, hour) => ({ value: hour === 9 ? 450 : 0, timestamp: unix(at(0, hour)), count: hour === 9 ? 2 : 0 })),
  );
});

test("a bot's public reply ends the wait too, and a campaign's or automation's message is no human reply", async (t) => {
  const world = await conversationWorld(h, "Bot waits");
  const { account } = world;
  const bot = await expectOk(
    h.request("POST", `${world.base}/agent_bots`, { token: account.admin.token, body: { name: "Helper", outgoing_url: "https://bot.test" } }),
    "bot",
  );
  const step = <T>(minute: number, calls: () => Promise<T>) => happenedAt(h, account.id, at(0, 9, minute), calls);
  const contact = (id: number, content: string) => expectOk(postMessage(h, world, id, { content, message_type: "incoming" }), "contact writes");

  const id = await step(0, async () => {
    const conversation = await createConversation(h, world);
    await contact(conversation.id, "Hello");
    return conversation.id as number;
  });
  await step(1, () => expectOk(postMessage(h, world, id, { content: "Campaign news", campaign_id: 7 }, account.agent.token), "campaign"));
  await step(5, () => expectOk(postMessage(h, world, id, { content: "Hi" }, account.agent.token), "agent")); // first response 300 s
  await step(10, () => contact(id, "Question"));
  await step(14, () => expectOk(postMessage(h, world, id, { content: "An answer" }, bot.access_token), "bot")); // ends the wait, no reply time
  await step(20, () => contact(id, "Another"));
  await step(30, () => expectOk(postMessage(h, world, id, { content: "Human answer" }, account.agent.token), "agent")); // 600 s

  const summary = await report(h, world, "reports/summary", { type: "account", since: unix(at(0)), until: unix(at(1)) });
  t.like(summary.body, { avg_first_response_time: 300, reply_time: 600 });
});
