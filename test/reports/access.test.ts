import test from "ava";
import { conversationWorld, type ConversationWorld } from "../conversations/setup";
import { createAccount, createUser } from "../support/factories";
import { createInbox } from "../support/conversationFactories";
import { expectOk, useHarness } from "../support/harness";
import { at, createTeam, ensureTeamsAndLabels, report, unix } from "./setup";

const h = useHarness(test);
let world: ConversationWorld;
test.before(async () => {
  await ensureTeamsAndLabels(h);
  world = await conversationWorld(h, "Access");
});

const range = { since: unix(at(0)), until: unix(at(1)) };
/** Every v2 report route with a query it accepts. */
const ENDPOINTS: [string, Record<string, string | number>][] = [
  ["reports", { metric: "conversations_count", type: "account", ...range }],
  ["reports/summary", { type: "account", ...range }],
  ["reports/bot_summary", { type: "account", ...range }],
  ["reports/conversations", { type: "account" }],
  ["reports/bot_metrics", range],
  ["summary_reports/agent", range],
  ["summary_reports/inbox", range],
  ["summary_reports/team", range],
  ["summary_reports/label", range],
];

test("reports are for administrators: agents, bots, outsiders and anonymous callers get Chatwoot's 401s", async (t) => {
  const bot = await expectOk(
    h.request("POST", `${world.base}/agent_bots`, { token: world.account.admin.token, body: { name: "Bot", outgoing_url: "https://bot.test" } }),
    "bot",
  );
  const outsider = await createUser(h);
  for (const [path, query] of ENDPOINTS) {
    t.is((await report(h, world, path, query)).status, 200, `administrator: ${path}`);
    const cases: [string | null, unknown][] = [
      [world.account.agent.token, { error: "You are not authorized to do this action" }],
      [bot.access_token, { error: "Access to this endpoint is not authorized for bots" }],
      [outsider.token, { error: "You are not authorized to access this account" }],
      [null, { errors: ["You need to sign in or sign up before continuing."] }],
    ];
    for (const [token, body] of cases) {
      const response = await report(h, world, path, query, token);
      t.deepEqual([response.status, response.body], [401, body], `${path} with ${token === null ? "no token" : "a token"}`);
    }
  }
  const unknown = await h.request("GET", `/api/v2/accounts/999999999/reports/summary?type=account`, { token: world.account.admin.token });
  t.deepEqual([unknown.status, unknown.body], [404, { error: "Resource could not be found" }]);
});

test("a metric, type, group_by, time or offset the reports do not know answers 422", async (t) => {
  const invalid = (attribute: string, text: string) => ({ message: `${text}`, attributes: [attribute] });
  const cases: [string, Record<string, string | number>, unknown][] = [
    ["reports", { type: "account", ...range }, invalid("metric", "Metric can't be blank")],
    ["reports", { metric: "csat_score", type: "account", ...range }, invalid("metric", "Metric is not included in the list")],
    ["reports", { metric: "conversations_count", ...range }, invalid("type", "Type can't be blank")],
    ["reports", { metric: "conversations_count", type: "campaign", ...range }, invalid("type", "Type is not included in the list")],
    ["reports", { metric: "conversations_count", type: "account", group_by: "quarter", ...range }, invalid("group_by", "Group by is not included in the list")],
    ["reports", { metric: "conversations_count", type: "account", since: "yesterday", until: range.until }, invalid("since", "Since is invalid")],
    [
      "reports",
      { metric: "conversations_count", type: "account", ...range, timezone_offset: "east" },
      invalid("timezone_offset", "Timezone offset is invalid"),
    ],
    [
      "reports",
      { metric: "conversations_count", type: "account", ...range, timezone_offset: 20 },
      invalid("timezone_offset", "Timezone offset must be less than or equal to 14"),
    ],
    [
      "reports",
      { metric: "conversations_count", type: "account", group_by: "hour", since: 0, until: unix(at(0)) },
      invalid("group_by", "Group by gives more than 10000 periods for this range"),
    ],
    ["reports/summary", { ...range }, invalid("type", "Type can't be blank")],
    ["reports/bot_summary", { type: "channel", ...range }, invalid("type", "Type is not included in the list")],
    ["reports/conversations", { type: "inbox" }, invalid("type", "Type is not included in the list")],
    ["reports/bot_metrics", { since: "1.5", until: range.until }, invalid("since", "Since is invalid")],
    ["summary_reports/agent", { since: range.since, until: "tomorrow" }, invalid("until", "Until is invalid")],
  ];
  for (const [path, query, body] of cases) {
    const response = await report(h, world, path, query);
    t.deepEqual([response.status, response.body], [422, body], `${path} ${JSON.stringify(query)}`);
  }
  const bare = await report(h, world, "reports/conversations", {});
  t.deepEqual([bare.status, bare.body], [422, undefined], "conversations without a type: Chatwoot's head :unprocessable_entity");
});

test("an agent, inbox, team or label the account does not have is a 404", async (t) => {
  const other = await createAccount(h, "Elsewhere");
  const foreignInbox = await createInbox(h, other, { name: "Theirs" });
  const foreignTeam = await createTeam(h, other.id, "Theirs");
  const notFound = { error: "Resource could not be found" };
  const subjects: Record<string, string | number>[] = [
    { type: "agent" },
    { type: "agent", id: "me" },
    { type: "agent", id: other.agent.id },
    { type: "inbox", id: foreignInbox.id },
    { type: "team", id: foreignTeam },
    { type: "label", id: 999999 },
  ];
  for (const subject of subjects) {
    for (const path of ["reports", "reports/summary"]) {
      const response = await report(h, world, path, { metric: "conversations_count", ...subject, ...range });
      t.deepEqual([response.status, response.body], [404, notFound], `${path} ${JSON.stringify(subject)}`);
    }
  }
  const own = await report(h, world, "reports", { metric: "conversations_count", type: "inbox", id: world.inbox.id, ...range });
  t.is(own.status, 200);
});
