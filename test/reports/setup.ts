import { type ConversationWorld, conversationWorld, createConversation, postMessage } from "../conversations/setup";
import { createInbox } from "../support/conversationFactories";
import { type Harness, expectOk } from "../support/harness";

/** 2026-03-02, a Monday, 00:00 UTC: day 0 of every timeline. */
export const DAY0 = Date.UTC(2026, 2, 2);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A time `days`, `hours` and `minutes` after DAY0. */
export const at = (days: number, hours = 0, minutes = 0) => new Date(DAY0 + days * DAY + hours * HOUR + minutes * MINUTE);
export const unix = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Runs API calls as if they happened at `time`: the conversations, messages and outbox events of
 * the account that the calls create are moved to that time, so reports see a timeline of days
 * while the calls really run now.
 */
export async function happenedAt<T>(h: Harness, accountId: number, time: Date, calls: () => Promise<T>): Promise<T> {
  const newest = async (table: string) => Number((await h.knex(table).where("account_id", accountId).max("id as id").first())?.id ?? 0);
  const [conversations, messages, events] = await Promise.all([newest("conversations"), newest("messages"), newest("events")]);
  const result = await calls();
  await h.knex("conversations").where("account_id", accountId).where("id", ">", conversations).update({ created_at: time });
  await h.knex("messages").where("account_id", accountId).where("id", ">", messages).update({ created_at: time, updated_at: time });
  await h.knex("events").where("account_id", accountId).where("id", ">", events).update({ created_at: time });
  return result;
}

export interface ReportWorld extends ConversationWorld {
  /** A second inbox, where only administrators work. */
  inbox2: { id: number };
  /** The display ids of the scenario's conversations. */
  c1: number;
  c2: number;
  c3: number;
}

/**
 * The common timeline (times UTC; IST is UTC+5:30):
 * - c1 (Support, assigned to the agent): created with a contact message at day 0 10:00; the agent
 *   answers at 10:10 (first response 600 s), the contact writes at 10:20, the agent answers at 10:50
 *   (reply time 1800 s), writes a private note at 11:00, and resolves at 11:30 (resolution 5400 s).
 * - c2 (Support, assigned to the administrator): created with a contact message at day 1 02:00;
 *   the administrator answers at 02:30 (first response 1800 s) and resolves at 04:00 (7200 s).
 * - c3 (the second inbox, unassigned): created with a contact message at day 0 20:00, never answered.
 */
export async function reportWorld(h: Harness): Promise<ReportWorld> {
  const world = await conversationWorld(h, "Reports");
  const { account } = world;
  const inbox2 = await createInbox(h, account, { name: "Sales" });
  const as = (token: string) => (displayId: number, body: Record<string, unknown>) =>
    expectOk(postMessage(h, world, displayId, body, token), `message ${JSON.stringify(body)}`);
  const agent = as(account.agent.token);
  const admin = as(account.admin.token);
  const contactWrites = (displayId: number, content: string) => admin(displayId, { content, message_type: "incoming" });
  const resolve = (displayId: number, token: string) =>
    expectOk(h.request("POST", `${world.base}/conversations/${displayId}/toggle_status`, { token, body: { status: "resolved" } }), "resolve");
  const open = (time: Date, body: Record<string, unknown>, first: string) =>
    happenedAt(h, account.id, time, async () => {
      const conversation = await createConversation(h, world, body);
      await contactWrites(conversation.id, first);
      return conversation.id as number;
    });

  const c1 = await open(at(0, 10), { assignee_id: account.agent.id }, "Hello");
  await happenedAt(h, account.id, at(0, 10, 10), () => agent(c1, { content: "Hi, how can I help?" }));
  await happenedAt(h, account.id, at(0, 10, 20), () => contactWrites(c1, "My order is late"));
  await happenedAt(h, account.id, at(0, 10, 50), () => agent(c1, { content: "It ships today" }));
  await happenedAt(h, account.id, at(0, 11), () => agent(c1, { content: "Checked with the warehouse", private: true }));
  await happenedAt(h, account.id, at(0, 11, 30), () => resolve(c1, account.agent.token));

  const c3 = await open(at(0, 20), { inbox_id: inbox2.id }, "Prices?");

  const c2 = await open(at(1, 2), { assignee_id: account.admin.id }, "Refund please");
  await happenedAt(h, account.id, at(1, 2, 30), () => admin(c2, { content: "Refunded" }));
  await happenedAt(h, account.id, at(1, 4), () => resolve(c2, account.admin.token));

  return { ...world, inbox2, c1, c2, c3 };
}

/** GET a v2 report of the world's account, as its administrator unless another token (or null, none) is given. */
export function report(
  h: Harness,
  world: ConversationWorld,
  path: string,
  query: Record<string, string | number | boolean>,
  token: string | null = world.account.admin.token,
) {
  const search = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]));
  return h.request("GET", `/api/v2/accounts/${world.account.id}/${path}?${search}`, { token: token ?? undefined });
}

/**
 * Teams and labels come with the account API's teams and labels work (another branch); where this
 * database does not have their tables yet, the tests make the columns reports read. Once those
 * migrations are in, this does nothing.
 */
export async function ensureTeamsAndLabels(h: Harness): Promise<void> {
  // Test files run in parallel; the lock keeps two from creating the same table at once.
  await h.knex.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('report tests: teams and labels'))");
    await trx.raw("CREATE TABLE IF NOT EXISTS teams (id bigserial PRIMARY KEY, account_id bigint NOT NULL, name text NOT NULL)");
    await trx.raw("CREATE TABLE IF NOT EXISTS labels (id bigserial PRIMARY KEY, account_id bigint NOT NULL, title text NOT NULL)");
  });
}

export async function createTeam(h: Harness, accountId: number, name: string): Promise<number> {
  const [row] = await h.knex("teams").insert({ account_id: accountId, name }).returning("id");
  return row.id;
}

export async function createLabel(h: Harness, accountId: number, title: string): Promise<number> {
  const [row] = await h.knex("labels").insert({ account_id: accountId, title }).returning("id");
  return row.id;
}

export interface TeamedWorld {
  world: ReportWorld;
  /** Teams Billing (holding c2) and Sales (empty); labels vip (on c1) and spam (unused). */
  billing: number;
  sales: number;
  vip: number;
  spam: number;
}

/** The common timeline with two teams and two labels, c2 in Billing and c1 labelled vip. */
export async function teamedReportWorld(h: Harness): Promise<TeamedWorld> {
  await ensureTeamsAndLabels(h);
  const world = await reportWorld(h);
  const accountId = world.account.id;
  const [billing, sales] = [await createTeam(h, accountId, "Billing"), await createTeam(h, accountId, "Sales")];
  await h.knex("conversations").where({ account_id: accountId, display_id: world.c2 }).update({ team_id: billing });
  const labelled = await h.request("POST", `${world.base}/conversations/${world.c1}/labels`, { token: world.account.admin.token, body: { labels: ["vip"] } });
  if (labelled.status !== 200) throw new Error(`labels: ${labelled.status}`);
  const [vip, spam] = [await createLabel(h, accountId, "vip"), await createLabel(h, accountId, "spam")];
  return { world, billing, sales, vip, spam };
}
