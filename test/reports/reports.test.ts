import test from "ava";
import { accountApi, useHarness } from "../support/harness";
import { at, createLabel, createTeam, ensureTeamsAndLabels, report, reportWorld, unix, type ReportWorld } from "./setup";

const h = useHarness(test);
let world: ReportWorld;
test.before(async () => {
  await ensureTeamsAndLabels(h);
  world = await reportWorld(h);
});

const HOUR = 3600;
/** Days 0, 1 and 2 of the timeline. */
const threeDays = { since: unix(at(0)), until: unix(at(3)) };
const days = [0, 1, 2].map((day) => unix(at(day)));

async function series(target: ReportWorld, query: Record<string, string | number | boolean>) {
  const response = await report(h, target, "reports", query);
  if (response.status !== 200) throw new Error(`reports ${JSON.stringify(query)}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}
const counts = (values: number[], timestamps = days) => values.map((value, i) => ({ value, timestamp: timestamps[i] }));
const averages = (values: [number, number][], timestamps = days) => values.map(([value, count], i) => ({ value, timestamp: timestamps[i], count }));

test("counts per day over a range, empty days included", async (t) => {
  const of = (metric: string) => series(world, { metric, type: "account", ...threeDays });
  t.deepEqual(await of("conversations_count"), counts([2, 1, 0]));
  t.deepEqual(await of("incoming_messages_count"), counts([3, 1, 0]));
  t.deepEqual(await of("outgoing_messages_count"), counts([3, 1, 0]), "private notes are outgoing messages; activity messages are not");
  t.deepEqual(await of("resolutions_count"), counts([1, 1, 0]));
  t.deepEqual(await of("bot_resolutions_count"), counts([0, 0, 0]));
  t.deepEqual(await of("bot_handoffs_count"), counts([0, 0, 0]));
});

test("averages per day carry the number of events they average", async (t) => {
  const of = (metric: string) => series(world, { metric, type: "account", ...threeDays });
  t.deepEqual(
    await of("avg_first_response_time"),
    averages([
      [600, 1],
      [1800, 1],
      [0, 0],
    ]),
  );
  t.deepEqual(
    await of("reply_time"),
    averages([
      [1800, 1],
      [0, 0],
      [0, 0],
    ]),
  );
  t.deepEqual(
    await of("avg_resolution_time"),
    averages([
      [5400, 1],
      [7200, 1],
      [0, 0],
    ]),
  );
});

test("the range is [since, until): what happens at until belongs to the next range", async (t) => {
  // c1 resolves at 11:30 on day 0; c2 is created at 02:00 on day 1.
  t.deepEqual(
    await series(world, { metric: "resolutions_count", type: "account", since: unix(at(0, 11, 30)), until: unix(at(0, 12)) }),
    counts([1], [unix(at(0))]),
  );
  t.deepEqual(
    await series(world, { metric: "resolutions_count", type: "account", since: unix(at(0, 11)), until: unix(at(0, 11, 30)) }),
    counts([0], [unix(at(0))]),
  );
  t.deepEqual(await series(world, { metric: "conversations_count", type: "account", since: unix(at(0)), until: unix(at(1, 2)) }), counts([2, 0]));
});

test("weeks start on Sunday; months, years and hours group too", async (t) => {
  const conversations = { metric: "conversations_count", type: "account" };
  // Day 0 is Monday 2 March 2026.
  t.deepEqual(
    await series(world, { ...conversations, group_by: "week", since: unix(at(-7)), until: unix(at(14)) }),
    counts([0, 3, 0, 0], [at(-8), at(-1), at(6), at(13)].map(unix)),
  );
  t.deepEqual(
    await series(world, { ...conversations, group_by: "month", since: unix(at(-30)), until: unix(at(40)) }),
    counts(
      [0, 0, 3, 0],
      [Date.UTC(2026, 0, 1), Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1), Date.UTC(2026, 3, 1)].map((ms) => ms / 1000),
    ),
  );
  t.deepEqual(await series(world, { ...conversations, group_by: "year", ...threeDays }), counts([3], [Date.UTC(2026, 0, 1) / 1000]));
  t.deepEqual(
    await series(world, { metric: "avg_first_response_time", type: "account", group_by: "hour", since: unix(at(0, 9)), until: unix(at(0, 12)) }),
    averages(
      [
        [0, 0],
        [600, 1],
        [0, 0],
      ],
      [unix(at(0, 9)), unix(at(0, 10)), unix(at(0, 11))],
    ),
  );
});

test("days start at midnight in the timezone_offset the client sends", async (t) => {
  const conversations = { metric: "conversations_count", type: "account", ...threeDays };
  // UTC+5:30: c1 (10:00 UTC) is on day 0, c3 (20:00 UTC) and c2 (02:00 UTC day 1) on day 1; the
  // range's last 5.5 hours fall on day 3.
  const ist = [0, 1, 2, 3].map((day) => unix(at(day)) - 5.5 * HOUR);
  t.deepEqual(await series(world, { ...conversations, timezone_offset: 5.5 }), counts([1, 2, 0, 0], ist));
  // UTC−5: all three are on day 0, and the range starts on the evening of day −1.
  const est = [-1, 0, 1, 2].map((day) => unix(at(day)) + 5 * HOUR);
  t.deepEqual(await series(world, { ...conversations, timezone_offset: -5 }), counts([0, 3, 0, 0], est));
});

test("an account with a timezone groups in it, whatever offset the client sends, daylight saving included", async (t) => {
  const own = await reportWorld(h);
  const patched = await accountApi(h, own.account).patch("", { timezone: "Asia/Kolkata" });
  t.is(patched.status, 200);
  const ist = [0, 1, 2, 3].map((day) => unix(at(day)) - 5.5 * HOUR);
  t.deepEqual(await series(own, { metric: "conversations_count", type: "account", ...threeDays, timezone_offset: -5 }), counts([1, 2, 0, 0], ist));

  const moved = await accountApi(h, own.account).patch("", { timezone: "America/New_York" });
  t.is(moved.status, 200, JSON.stringify(moved.body));
  // New York moves to daylight time on Sunday 8 March 2026: that day has 23 hours.
  const midnights = [Date.UTC(2026, 2, 7, 5), Date.UTC(2026, 2, 8, 5), Date.UTC(2026, 2, 9, 4)].map((ms) => ms / 1000);
  t.deepEqual(
    await series(own, { metric: "conversations_count", type: "account", since: midnights[0]!, until: midnights[2]! + 24 * HOUR }),
    counts([0, 0, 0], midnights),
  );
});

test("the summary gives the range's metrics and those of the range of the same length before it", async (t) => {
  const summary = await report(h, world, "reports/summary", { type: "account", since: unix(at(1)), until: unix(at(2)) });
  t.is(summary.status, 200);
  t.deepEqual(Object.keys(summary.body), [
    "conversations_count",
    "outgoing_messages_count",
    "avg_first_response_time",
    "avg_resolution_time",
    "resolutions_count",
    "reply_time",
    "incoming_messages_count",
    "previous",
  ]);
  t.deepEqual(summary.body, {
    conversations_count: 1,
    outgoing_messages_count: 1,
    avg_first_response_time: 1800,
    avg_resolution_time: 7200,
    resolutions_count: 1,
    reply_time: null,
    incoming_messages_count: 1,
    previous: {
      conversations_count: 2,
      outgoing_messages_count: 3,
      avg_first_response_time: 600,
      avg_resolution_time: 5400,
      resolutions_count: 1,
      reply_time: 1800,
      incoming_messages_count: 3,
    },
  });

  const whole = await report(h, world, "reports/summary", { type: "account", ...threeDays });
  t.like(whole.body, {
    conversations_count: 3,
    avg_first_response_time: 1200,
    avg_resolution_time: 6300,
    resolutions_count: 2,
    reply_time: 1800,
    incoming_messages_count: 4,
  });
  t.deepEqual(whole.body.previous, {
    conversations_count: 0,
    outgoing_messages_count: 0,
    avg_first_response_time: null,
    avg_resolution_time: null,
    resolutions_count: 0,
    reply_time: null,
    incoming_messages_count: 0,
  });

  const bots = await report(h, world, "reports/bot_summary", { type: "account", ...threeDays });
  t.deepEqual(
    [bots.status, bots.body],
    [200, { bot_resolutions_count: 0, bot_handoffs_count: 0, previous: { bot_resolutions_count: 0, bot_handoffs_count: 0 } }],
  );
});

test("an agent's report covers their assigned conversations, their messages and the events attributed to them", async (t) => {
  const agent = { type: "agent", id: world.account.agent.id };
  const summary = await report(h, world, "reports/summary", { ...agent, ...threeDays });
  t.deepEqual(
    summary.body,
    {
      conversations_count: 1,
      outgoing_messages_count: 3,
      avg_first_response_time: 600,
      avg_resolution_time: 5400,
      resolutions_count: 1,
      reply_time: 1800,
      previous: {
        conversations_count: 0,
        outgoing_messages_count: 0,
        avg_first_response_time: null,
        avg_resolution_time: null,
        resolutions_count: 0,
        reply_time: null,
      },
    },
    "an agent's summary has no incoming messages",
  );
  t.deepEqual(await series(world, { metric: "outgoing_messages_count", ...agent, ...threeDays }), counts([3, 0, 0]));

  const admin = await report(h, world, "reports/summary", { type: "agent", id: world.account.admin.id, ...threeDays });
  t.like(admin.body, {
    conversations_count: 1,
    outgoing_messages_count: 1,
    avg_first_response_time: 1800,
    avg_resolution_time: 7200,
    resolutions_count: 1,
    reply_time: null,
  });
});

test("an inbox's, a team's and a label's reports cover their conversations", async (t) => {
  const inbox2 = await report(h, world, "reports/summary", { type: "inbox", id: world.inbox2.id, ...threeDays });
  t.like(inbox2.body, { conversations_count: 1, incoming_messages_count: 1, outgoing_messages_count: 0, avg_first_response_time: null, resolutions_count: 0 });
  t.deepEqual(await series(world, { metric: "conversations_count", type: "inbox", id: world.inbox.id, ...threeDays }), counts([1, 1, 0]));

  const own = await reportWorld(h);
  const conversationId = async (displayId: number) =>
    (await h.knex("conversations").where({ account_id: own.account.id, display_id: displayId }).first("id")).id;
  const team = await createTeam(h, own.account.id, "Billing");
  await h
    .knex("conversations")
    .where("id", await conversationId(own.c2))
    .update({ team_id: team });
  const labelled = await h.request("POST", `${own.base}/conversations/${own.c1}/labels`, { token: own.account.admin.token, body: { labels: ["vip"] } });
  t.is(labelled.status, 200);
  const vip = await createLabel(h, own.account.id, "vip");

  t.like((await report(h, own, "reports/summary", { type: "team", id: team, ...threeDays })).body, {
    conversations_count: 1,
    incoming_messages_count: 1,
    outgoing_messages_count: 1,
    avg_first_response_time: 1800,
    avg_resolution_time: 7200,
    resolutions_count: 1,
  });
  t.like((await report(h, own, "reports/summary", { type: "label", id: vip, ...threeDays })).body, {
    conversations_count: 1,
    incoming_messages_count: 2,
    outgoing_messages_count: 3,
    avg_first_response_time: 600,
    reply_time: 1800,
    resolutions_count: 1,
  });
  t.deepEqual(
    await series(own, { metric: "avg_resolution_time", type: "label", id: vip, ...threeDays }),
    averages([
      [5400, 1],
      [0, 0],
      [0, 0],
    ]),
  );
});

test("business_hours measures times inside the inbox's working hours, in the inbox's timezone", async (t) => {
  const own = await reportWorld(h);
  // Weekdays 9:00–17:00 in India (the inbox's default hours): c1's day runs 15:30–17:00 IST, c2 arrives
  // at 07:30 IST, is answered at 08:00 before opening, and resolved at 09:30.
  const patched = await h.request("PATCH", `${own.base}/inboxes/${own.inbox.id}`, {
    token: own.account.admin.token,
    body: { working_hours_enabled: true, timezone: "Asia/Kolkata" },
  });
  t.is(patched.status, 200);
  const business = { type: "account", business_hours: true, ...threeDays };
  t.deepEqual(
    await series(own, { ...business, metric: "avg_first_response_time" }),
    averages([
      [600, 1],
      [0, 1],
      [0, 0],
    ]),
  );
  t.deepEqual(
    await series(own, { ...business, metric: "avg_resolution_time" }),
    averages([
      [5400, 1],
      [1800, 1],
      [0, 0],
    ]),
  );
  t.like((await report(h, own, "reports/summary", business)).body, { avg_first_response_time: 300, avg_resolution_time: 3600, reply_time: 1800 });
  t.like((await report(h, own, "reports/summary", { ...business, business_hours: false })).body, { avg_first_response_time: 1200, avg_resolution_time: 6300 });
  // Counts are not times: business hours change nothing.
  t.deepEqual(await series(own, { ...business, metric: "conversations_count" }), counts([2, 1, 0]));
});

test("without both since and until nothing matches, as in Chatwoot", async (t) => {
  t.deepEqual(await series(world, { metric: "conversations_count", type: "account", since: threeDays.since }), []);
  const summary = await report(h, world, "reports/summary", { type: "account" });
  t.like(summary.body, { conversations_count: 0, avg_first_response_time: null, previous: { conversations_count: 0 } });
});
