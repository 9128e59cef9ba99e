import { ApiError } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { headOk } from "../../../http/headOk";
import type { ApiRouter } from "../../../http/router";
import { loadMembers, type Member } from "../../../models/InboxMember";
import { TeamMember } from "../../../models/Team";
import { requireAdministrator } from "../../../policies";
import { presentInboxMember } from "../../../presenters/inbox";
import { auditActor } from "../../../services/audit";
import { teamMembersBody, teamMembersParams, teamMembersResponse } from "./schema";
import { auditTeamMembers } from "../../../services/teams";
import { lockTeam, teamMustExist } from "./access";

/** TeamMembersController#validate_member_id_params: ids that are not users of the account. */
const InvalidUserIds = () => new ApiError(401, { error: "Invalid User IDs" });

/** The create view: the agents, or an empty object when there are none (jbuilder renders nothing). */
function presentChanged(members: Member[]) {
  return members.length ? members.map(presentInboxMember) : {};
}

async function assertAccountUsers(ctx: AppContext, userIds: number[]) {
  if (!(await TeamMember.allAccountUsers(ctx.state.account!.id, userIds))) throw InvalidUserIds();
}

export function registerTeamMemberRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/teams/:team_id/team_members";
  const existing = [teamMustExist("team_id")];

  router.route(
    { middleware: existing, method: "get", path, summary: "List the agents of a team", params: teamMembersParams, response: teamMembersResponse },
    async (ctx, { params }) => {
      ctx.body = (await TeamMember.membersOf(ctx.state.account!.id, params.team_id)).map(presentInboxMember);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      middleware: existing,
      method: "post",
      path,
      summary: "Add agents to a team; answers the agents added",
      params: teamMembersParams,
      body: teamMembersBody,
      response: teamMembersResponse,
    },
    async (ctx, { params, body }) => {
      await assertAccountUsers(ctx, body.user_ids);
      const added = await TeamMember.transaction(async (trx) => {
        const team = await lockTeam(trx, ctx, params.team_id);
        const rows = await TeamMember.addMembers(trx, team, body.user_ids);
        await auditTeamMembers(trx, auditActor(ctx), rows, "create");
        return rows;
      });
      ctx.body = presentChanged(
        await loadMembers(
          ctx.state.account!.id,
          added.map((row) => row.user_id),
        ),
      );
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      middleware: existing,
      method: "patch",
      path,
      summary: "Make the team's agents exactly user_ids; answers them",
      params: teamMembersParams,
      body: teamMembersBody,
      response: teamMembersResponse,
    },
    async (ctx, { params, body }) => {
      await assertAccountUsers(ctx, body.user_ids);
      await TeamMember.transaction(async (trx) => {
        const team = await lockTeam(trx, ctx, params.team_id);
        const actor = auditActor(ctx);
        await auditTeamMembers(trx, actor, await TeamMember.addMembers(trx, team, body.user_ids), "create");
        await auditTeamMembers(trx, actor, await TeamMember.removeOthers(trx, team.id, body.user_ids), "destroy");
      });
      ctx.body = presentChanged(await TeamMember.membersOf(ctx.state.account!.id, params.team_id));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      middleware: existing,
      method: "delete",
      path,
      summary: "Remove agents from a team",
      params: teamMembersParams,
      body: teamMembersBody,
    },
    async (ctx, { params, body }) => {
      await assertAccountUsers(ctx, body.user_ids);
      await TeamMember.transaction(async (trx) => {
        const team = await lockTeam(trx, ctx, params.team_id);
        await auditTeamMembers(trx, auditActor(ctx), await TeamMember.removeMembers(trx, team.id, body.user_ids), "destroy");
      });
      headOk(ctx);
    },
  );
}
