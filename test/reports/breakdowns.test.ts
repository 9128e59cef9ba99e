import test from "ava";
import { useHarness } from "../support/harness";
import { at, report, teamedReportWorld, unix, type ReportWorld, type TeamedWorld } from "./setup";

const h = useHarness(test);
let world: ReportWorld;
let ids: Omit<TeamedWorld, "world">;
test.before(async () => {
  ({ world, ...ids } = await teamedReportWorld(h));
});

const threeDays = { since: unix(at(0)), until: unix(at(3)) };

test("summary_reports/channel and the first response distribution count per channel type", async (t) => {
  const channel = await report(h, world, "summary_reports/channel", threeDays);
  t.deepEqual([channel.status, channel.body], [200, { "Channel::Api": { open: 1, resolved: 2, pending: 0, snoozed: 0, total: 3 } }]);
  const firstDay = await report(h, world, "summary_reports/channel", { since: unix(at(0)), until: unix(at(1)) });
  t.is(firstDay.body["Channel::Api"].total, 2);
  const distribution = await report(h, world, "reports/first_response_time_distribution", threeDays);
  t.deepEqual(distribution.body, { "Channel::Api": { "0-1h": 2, "1-4h": 0, "4-8h": 0, "8-24h": 0, "24h+": 0 } });
});

test("outgoing messages per agent, team, inbox and label, every subject listed", async (t) => {
  const byAgent = await report(h, world, "reports/outgoing_messages_count", { ...threeDays, group_by: "agent" });
  t.deepEqual(byAgent.body, [
    { id: world.account.admin.id, name: "Admin Person", outgoing_messages_count: 1 },
    { id: world.account.agent.id, name: "Agent Person", outgoing_messages_count: 3 },
  ]);
  const byTeam = await report(h, world, "reports/outgoing_messages_count", { ...threeDays, group_by: "team" });
  t.deepEqual(byTeam.body, [
    { id: ids.billing, name: "Billing", outgoing_messages_count: 1 },
    { id: ids.sales, name: "Sales", outgoing_messages_count: 0 },
  ]);
  const byLabel = await report(h, world, "reports/outgoing_messages_count", { ...threeDays, group_by: "label" });
  t.deepEqual(byLabel.body, [
    { id: ids.vip, name: "vip", outgoing_messages_count: 3 },
    { id: ids.spam, name: "spam", outgoing_messages_count: 0 },
  ]);
  const byInbox = await report(h, world, "reports/outgoing_messages_count", { ...threeDays, group_by: "inbox" });
  t.deepEqual(
    byInbox.body.map((row: { outgoing_messages_count: number }) => row.outgoing_messages_count),
    [4, 0],
  );
});

test("inbox_label_matrix: a row of label counts per inbox, narrowed by ids", async (t) => {
  const matrix = await report(h, world, "reports/inbox_label_matrix", threeDays);
  t.deepEqual(matrix.body, {
    inboxes: [
      { id: world.inbox.id, name: "Support" },
      { id: world.inbox2.id, name: "Sales" },
    ],
    labels: [
      { id: ids.vip, title: "vip" },
      { id: ids.spam, title: "spam" },
    ],
    matrix: [
      [1, 0],
      [0, 0],
    ],
  });
  const narrowed = await report(h, world, "reports/inbox_label_matrix", { ...threeDays, "inbox_ids[]": world.inbox.id, label_ids: String(ids.vip) });
  t.deepEqual(narrowed.body.matrix, [[1]]);
});

test("live reports: conversations by state now, and open ones per agent or team", async (t) => {
  const live = await report(h, world, "live_reports/conversation_metrics", {});
  t.deepEqual(live.body, { open: 1, unattended: 1, unassigned: 1, pending: 0, resolved: 2 });
  const inSupport = await report(h, world, "live_reports/conversation_metrics", { "inbox_ids[]": world.inbox.id });
  t.deepEqual(inSupport.body, { open: 0, unattended: 0, unassigned: 0, pending: 0, resolved: 2 });
  const grouped = await report(h, world, "live_reports/grouped_conversation_metrics", { group_by: "assignee_id" });
  t.deepEqual(grouped.body, [{ open: 1, unattended: 1, unassigned: 1, assignee_id: null }]);
  const bad = await report(h, world, "live_reports/grouped_conversation_metrics", { group_by: "inbox_id" });
  t.deepEqual([bad.status, bad.body], [422, { error: "invalid group_by" }]);
  t.is((await report(h, world, "live_reports/conversation_metrics", {}, world.account.agent.token)).status, 401);
});

test("CSV downloads: per agent and label, the account's summary, and the traffic by weekday and hour", async (t) => {
  const agents = await report(h, world, "reports/agents", threeDays);
  t.is(agents.status, 200);
  t.regex(agents.headers.get("content-type") ?? "", /^text\/csv/);
  t.is(agents.headers.get("content-disposition"), "attachment; filename=agents_report.csv");
  t.deepEqual(agents.body.split("\n"), [
    "Reporting period 2026-03-02 to 2026-03-05",
    "",
    "Agent name,Conversations count,Avg first response time,Avg resolution time,Resolution Count,Avg customer waiting time",
    "Admin Person,1,1800,7200,1,",
    "Agent Person,1,600,5400,1,1800",
    "",
  ]);
  const labels = await report(h, world, "reports/labels", threeDays);
  t.true(labels.body.includes("vip,1,"));
  const summary = await report(h, world, "reports/conversations_summary", threeDays);
  t.is(summary.body.split("\n")[3], "3,4,4,1200,6300,2,1800");

  const traffic = await report(h, world, "reports/conversation_traffic", { ...threeDays, timezone_offset: "5.5" });
  const lines: string[][] = traffic.body.split("\n").map((line: string) => line.split(","));
  const cell = (row: string[], hour: number) => Number(row[hour + 1]);
  const [local, utc] = [lines.slice(0, 8), lines.slice(9, 17)];
  t.is(local[0]![1], "00:00 - 01:00");
  t.deepEqual([local[2]![0], cell(local[2]!, 15), cell(local[3]!, 1), cell(local[3]!, 7)], ["Monday", 1, 1, 1]);
  t.deepEqual([utc[2]![0], cell(utc[2]!, 10), cell(utc[2]!, 20), cell(utc[3]!, 2)], ["Monday", 1, 1, 1]);
  t.is((await report(h, world, "reports/agents", threeDays, world.account.agent.token)).status, 401);
});
