import test from "ava";
import { useHarness } from "../support/harness";
import { at, report, reportWorld, teamedReportWorld, unix, type ReportWorld } from "./setup";

const h = useHarness(test);
let world: ReportWorld;
let billing: number;
let sales: number;
let vip: number;
let spam: number;
test.before(async () => {
  ({ world, billing, sales, vip, spam } = await teamedReportWorld(h));
});

const threeDays = { since: unix(at(0)), until: unix(at(3)) };
const nothing = { conversations_count: 0, resolved_conversations_count: 0, avg_resolution_time: null, avg_first_response_time: null, avg_reply_time: null };

test("per agent: every member of the account, in order of joining", async (t) => {
  const response = await report(h, world, "summary_reports/agent", threeDays);
  t.is(response.status, 200);
  t.deepEqual(response.body, [
    {
      id: world.account.admin.id,
      conversations_count: 1,
      resolved_conversations_count: 1,
      avg_resolution_time: 7200,
      avg_first_response_time: 1800,
      avg_reply_time: null,
    },
    {
      id: world.account.agent.id,
      conversations_count: 1,
      resolved_conversations_count: 1,
      avg_resolution_time: 5400,
      avg_first_response_time: 600,
      avg_reply_time: 1800,
    },
  ]);
  t.deepEqual(Object.keys(response.body[0]), [
    "id",
    "conversations_count",
    "resolved_conversations_count",
    "avg_resolution_time",
    "avg_first_response_time",
    "avg_reply_time",
  ]);
});

test("per inbox and per team", async (t) => {
  t.deepEqual((await report(h, world, "summary_reports/inbox", threeDays)).body, [
    {
      id: world.inbox.id,
      conversations_count: 2,
      resolved_conversations_count: 2,
      avg_resolution_time: 6300,
      avg_first_response_time: 1200,
      avg_reply_time: 1800,
    },
    { id: world.inbox2.id, ...nothing, conversations_count: 1 },
  ]);
  t.deepEqual((await report(h, world, "summary_reports/team", threeDays)).body, [
    { id: billing, conversations_count: 1, resolved_conversations_count: 1, avg_resolution_time: 7200, avg_first_response_time: 1800, avg_reply_time: null },
    { id: sales, ...nothing },
  ]);
});

test("per label, with its name and zeros where Chatwoot has them", async (t) => {
  t.deepEqual((await report(h, world, "summary_reports/label", threeDays)).body, [
    {
      id: vip,
      name: "vip",
      conversations_count: 1,
      avg_resolution_time: 5400,
      avg_first_response_time: 600,
      avg_reply_time: 1800,
      resolved_conversations_count: 1,
    },
    { id: spam, name: "spam", conversations_count: 0, avg_resolution_time: 0, avg_first_response_time: 0, avg_reply_time: 0, resolved_conversations_count: 0 },
  ]);
  // Conversations are taken by when they were created; c1 was created on day 0.
  t.like((await report(h, world, "summary_reports/label", { since: unix(at(1)), until: unix(at(2)) })).body[0], {
    conversations_count: 0,
    avg_first_response_time: 0,
    resolved_conversations_count: 0,
  });
});

test("the range decides what counts; without one, agents, inboxes and teams count nothing and labels count all time", async (t) => {
  t.deepEqual((await report(h, world, "summary_reports/agent", { since: unix(at(1)), until: unix(at(2)) })).body, [
    {
      id: world.account.admin.id,
      conversations_count: 1,
      resolved_conversations_count: 1,
      avg_resolution_time: 7200,
      avg_first_response_time: 1800,
      avg_reply_time: null,
    },
    { id: world.account.agent.id, ...nothing },
  ]);
  t.deepEqual((await report(h, world, "summary_reports/inbox", {})).body, [
    { id: world.inbox.id, ...nothing },
    { id: world.inbox2.id, ...nothing },
  ]);
  t.like((await report(h, world, "summary_reports/label", {})).body[0], {
    name: "vip",
    conversations_count: 1,
    avg_resolution_time: 5400,
    resolved_conversations_count: 1,
  });
});

test("business_hours averages times inside the inbox's working hours", async (t) => {
  const own = await reportWorld(h);
  await h.request("PATCH", `${own.base}/inboxes/${own.inbox.id}`, {
    token: own.account.admin.token,
    body: { working_hours_enabled: true, timezone: "Asia/Kolkata" },
  });
  const [support] = (await report(h, own, "summary_reports/inbox", { ...threeDays, business_hours: true })).body;
  t.deepEqual(support, {
    id: own.inbox.id,
    conversations_count: 2,
    resolved_conversations_count: 2,
    avg_resolution_time: 3600,
    avg_first_response_time: 300,
    avg_reply_time: 1800,
  });
});
