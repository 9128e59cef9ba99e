import type { ApiRouter } from "../../../http/router";
import { accountParams, pageQuery } from "../../../http/schemas";
import { AgentBot } from "../../../models/AgentBot";
import { AuditLog } from "../../../models/AuditLog";
import { Team } from "../../../models/Team";
import { User } from "../../../models/User";
import { requireAdministrator } from "../../../policies";
import { presentAuditLog, type Auditable } from "../../../presenters/auditLog";
import { auditLogsResponse } from "./schema";

const PER_PAGE = 25;

/** The audited users, bots and teams that still exist, by "Type:id". */
async function auditablesOf(entries: AuditLog[]): Promise<Map<string, Auditable>> {
  const idsOf = (type: string) => entries.filter((e) => e.auditable_type === type && e.auditable_id !== null).map((e) => e.auditable_id!);
  const [users, bots, teams] = await Promise.all([
    User.query().findByIds(idsOf("User")),
    AgentBot.query().findByIds(idsOf("AgentBot")),
    Team.query().findByIds(idsOf("Team")),
  ]);
  return new Map<string, Auditable>([
    ...teams.map((team) => [`Team:${team.id}`, { kind: "Team", team }] as const),
    ...users.map((user) => [`User:${user.id}`, { kind: "User", user }] as const),
    ...bots.map((bot) => [`AgentBot:${bot.id}`, { kind: "AgentBot", bot }] as const),
  ]);
}

export function registerAuditLogRoutes(router: ApiRouter) {
  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path: "/accounts/:account_id/audit_logs",
      summary: "List audit logs, newest first, 25 a page",
      params: accountParams,
      query: pageQuery,
      response: auditLogsResponse,
    },
    async (ctx, { query }) => {
      const account = ctx.state.account!;
      // As Chatwoot: with the audit_logs feature off the list is empty, not an error.
      const { entries, total } = account.features.includes("audit_logs") ? await AuditLog.pageOf(account.id, query.page, PER_PAGE) : { entries: [], total: 0 };
      const auditables = await auditablesOf(entries);
      ctx.body = {
        per_page: PER_PAGE,
        total_entries: total,
        current_page: query.page,
        audit_logs: entries.map((entry) => presentAuditLog(entry, auditables.get(`${entry.auditable_type}:${entry.auditable_id}`))),
      };
    },
  );
}
