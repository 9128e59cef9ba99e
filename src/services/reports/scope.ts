import type { Knex } from "knex";
import { NotFound } from "../../errors";
import { AccountUser } from "../../models/AccountUser";
import { Inbox } from "../../models/Inbox";
import { findLabel, findTeam } from "./dimensions";
import { type Sql, sql, sqlText } from "../../db/sql";

export const REPORT_TYPES = ["account", "agent", "inbox", "label", "team"] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** What a report covers: the whole account or one agent, inbox, label or team of it. */
export type ReportScope =
  | { type: "account" }
  | { type: "agent"; userId: number }
  | { type: "inbox"; inboxId: number }
  | { type: "team"; teamId: number }
  | { type: "label"; title: string };

/** The `id` of the report's subject; like Chatwoot's `account.inboxes.find(params[:id])`, one the account lacks is a 404. */
export async function resolveScope(knex: Knex, accountId: number, type: ReportType, rawId: string | undefined): Promise<ReportScope> {
  if (type === "account") return { type };
  const id = rawId !== undefined && /^\d+$/.test(rawId) ? Number(rawId) : undefined;
  if (id === undefined || !Number.isSafeInteger(id)) throw NotFound();
  switch (type) {
    case "agent":
      if (!(await AccountUser.membership(accountId, id))) throw NotFound();
      return { type, userId: id };
    case "inbox":
      if (!(await Inbox.query(knex).findOne({ account_id: accountId, id }))) throw NotFound();
      return { type, inboxId: id };
    case "team":
      if (!(await findTeam(knex, accountId, id))) throw NotFound();
      return { type, teamId: id };
    case "label": {
      const label = await findLabel(knex, accountId, id);
      if (!label) throw NotFound();
      return { type, title: label.title };
    }
  }
}

/** The scope's conversations (`c`): an agent's are those assigned to them. */
export function conversationsIn(scope: ReportScope, c: string): Sql {
  switch (scope.type) {
    case "account":
      return sqlText("TRUE");
    case "agent":
      return sql`${sqlText(c)}.assignee_id = ${scope.userId}`;
    case "inbox":
      return sql`${sqlText(c)}.inbox_id = ${scope.inboxId}`;
    case "team":
      return sql`${sqlText(c)}.team_id = ${scope.teamId}`;
    case "label":
      return sql`${scope.title}::text = ANY (${sqlText(c)}.labels)`;
  }
}

/** The scope's messages (`m`): an agent's are those they sent; a team's or label's those of its conversations. */
export function messagesIn(scope: ReportScope, m: string): Sql {
  switch (scope.type) {
    case "account":
      return sqlText("TRUE");
    case "agent":
      return sql`${sqlText(m)}.sender_type = 'User' AND ${sqlText(m)}.sender_id = ${scope.userId}`;
    case "inbox":
      return sql`${sqlText(m)}.inbox_id = ${scope.inboxId}`;
    case "team":
    case "label":
      return sql`EXISTS (SELECT 1 FROM conversations sc WHERE sc.id = ${sqlText(m)}.conversation_id AND ${conversationsIn(scope, "sc")})`;
  }
}

/** The scope's reporting events (`e`, rows of history.ts): an agent's are those attributed to them. */
export function eventsIn(scope: ReportScope, e: string): Sql {
  switch (scope.type) {
    case "agent":
      return sql`${sqlText(e)}.user_id = ${scope.userId}`;
    case "account":
    case "inbox":
    case "team":
    case "label":
      return conversationsIn(scope, e);
  }
}
