import test from "ava";
import { conversationWorld, createConversation, postMessage, type ConversationWorld } from "../conversations/setup";
import { expectOk, useHarness } from "../support/harness";
import { at, happenedAt, report, unix } from "./setup";

const h = useHarness(test);

const threeDays = { since: unix(at(0)), until: unix(at(3)) };
const days = [0, 1, 2].map((day) => unix(at(day)));

test("conversation metrics: the account's open conversations now, or each agent's, most open first", async (t) => {
  const world = await conversationWorld(h, "Live");
  const { admin, agent } = world.account;
  const answered = await createConversation(h, world, { assignee_id: agent.id });
  await expectOk(postMessage(h, world, answered.id, { content: "Hi" }, agent.token), "reply");
  await createConversation(h, world, { assignee_id: agent.id });
  await createConversation(h, world);
  const resolved = await createConversation(h, world, { assignee_id: admin.id });
  await expectOk(
    h.request("POST", `${world.base}/conversations/${resolved.id}/toggle_status`, { token: admin.token, body: { status: "resolved" } }),
    "resolve",
  );

  const account = await report(h, world, "reports/conversations", { type: "account" });
  t.deepEqual([account.status, account.body], [200, { open: 3, unattended: 2, unassigned: 1 }]);

  const agents = await report(h, world, "reports/conversations", { type: "agent" });
  t.is(agents.status, 200);
  t.deepEqual(agents.body, [
    { id: agent.id, name: "Agent Person", email: agent.email, thumbnail: "", availability: "online", metric: { open: 2, unattended: 1 } },
    { id: admin.id, name: "Admin Person", email: admin.email, thumbnail: "", availability: "online", metric: { open: 0, unattended: 0 } },
  ]);
  t.deepEqual((await report(h, world, "reports/conversations", { type: "agent", page: 2 })).body, [], "25 agents a page");
});

/** An account whose Support inbox is run by an agent bot. */
async function botWorld() {
  const world = await conversationWorld(h, "Bots");
  const bot = await expectOk(
    h.request("POST", `${world.base}/agent_bots`, { token: world.account.admin.token, body: { name: "Triage", outgoing_url: "https://bot.test/hook" } }),
    "create bot",
  );
  await expectOk(
    h.request("POST", `${world.base}/inboxes/${world.inbox.id}/set_agent_bot`, { token: world.account.admin.token, body: { agent_bot: bot.id } }),
    "set bot",
  );
  return { world, botToken: bot.access_token as string };
}

/**
 * b1: the bot answers and resolves on day 0 (a bot resolution); b2: the bot hands off at 10:15 on
 * day 0 and the agent answers at 10:25; b3: the bot hands off at 10:05 on day 1, the agent answers
 * at 10:35 and resolves (not a bot resolution).
 */
async function botTimeline(world: ConversationWorld, botToken: string) {
  const { account } = world;
  const step = <T>(time: Date, calls: () => Promise<T>) => happenedAt(h, account.id, time, calls);
  const toggle = (id: number, token: string, status: string) =>
    expectOk(h.request("POST", `${world.base}/conversations/${id}/toggle_status`, { token, body: { status } }), `toggle ${status}`);
  const start = (time: Date) =>
    step(time, async () => {
      const conversation = await createConversation(h, world, { assignee_id: account.agent.id });
      await expectOk(postMessage(h, world, conversation.id, { content: "Hello", message_type: "incoming" }), "contact writes");
      return conversation.id as number;
    });

  const b1 = await start(at(0, 9));
  await step(at(0, 9, 5), () => expectOk(postMessage(h, world, b1, { content: "Here is the answer" }, botToken), "bot answers"));
  await step(at(0, 9, 10), () => toggle(b1, botToken, "resolved"));

  const b2 = await start(at(0, 10));
  await step(at(0, 10, 15), () => toggle(b2, botToken, "open"));
  await step(at(0, 10, 25), () => expectOk(postMessage(h, world, b2, { content: "A human here" }, account.agent.token), "agent answers"));

  const b3 = await start(at(1, 10));
  await step(at(1, 10, 5), () => toggle(b3, botToken, "open"));
  await step(at(1, 10, 35), () => expectOk(postMessage(h, world, b3, { content: "A human here" }, account.agent.token), "agent answers"));
  await step(at(1, 11), () => toggle(b3, account.agent.token, "resolved"));
}

test("bot resolutions and handoffs, and first responses timed from the handoff", async (t) => {
  const { world, botToken } = await botWorld();
  await botTimeline(world, botToken);
  const statuses = await h.knex("conversations").where("account_id", world.account.id).orderBy("display_id").pluck("status");
  t.deepEqual(statuses, ["resolved", "open", "resolved"], "conversations in the bot's inbox start pending and move as the timeline says");

  const summary = await report(h, world, "reports/bot_summary", { type: "account", ...threeDays });
  t.deepEqual(
    [summary.status, summary.body],
    [200, { bot_resolutions_count: 1, bot_handoffs_count: 2, previous: { bot_resolutions_count: 0, bot_handoffs_count: 0 } }],
  );
  const series = async (metric: string) => (await report(h, world, "reports", { metric, type: "account", ...threeDays })).body;
  t.deepEqual(
    await series("bot_resolutions_count"),
    [1, 0, 0].map((value, i) => ({ value, timestamp: days[i] })),
  );
  t.deepEqual(
    await series("bot_handoffs_count"),
    [1, 1, 0].map((value, i) => ({ value, timestamp: days[i] })),
  );
  t.deepEqual(
    await series("resolutions_count"),
    [1, 1, 0].map((value, i) => ({ value, timestamp: days[i] })),
  );
  t.deepEqual(
    await series("avg_first_response_time"),
    [
      [600, 1],
      [1800, 1],
      [0, 0],
    ].map(([value, count], i) => ({ value, timestamp: days[i], count })),
    "a bot's answer is no first response; a human's is timed from the handoff",
  );
});

test("bot metrics: conversations in the bot's inboxes, their outgoing messages, resolution and handoff rates", async (t) => {
  const { world, botToken } = await botWorld();
  await botTimeline(world, botToken);
  // A conversation in an inbox without a bot is not the bot's.
  const sales = await expectOk(
    h.request("POST", `${world.base}/inboxes`, { token: world.account.admin.token, body: { name: "Sales", channel: { type: "api" } } }),
    "inbox",
  );
  await happenedAt(h, world.account.id, at(0, 12), () => createConversation(h, world, { inbox_id: sales.id }));

  const metrics = await report(h, world, "reports/bot_metrics", threeDays);
  t.deepEqual([metrics.status, metrics.body], [200, { conversation_count: 3, message_count: 3, resolution_rate: 33, handoff_rate: 66 }]);
  t.deepEqual((await report(h, world, "reports/bot_metrics", { since: unix(at(1)), until: unix(at(2)) })).body, {
    conversation_count: 1,
    message_count: 1,
    resolution_rate: 0,
    handoff_rate: 100,
  });
  t.deepEqual((await report(h, world, "reports/bot_metrics", {})).body, { conversation_count: 0, message_count: 0, resolution_rate: 0, handoff_rate: 0 });
});
