import type { Knex } from "knex";
import { NotFound, ValidationError } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { headOk } from "../../../http/headOk";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { Team, TeamMember } from "../../../models/Team";
import { requireAdministrator } from "../../../policies";
import { presentTeam } from "../../../presenters/team";
import { auditActor, auditChange } from "../../../services/audit";
import { auditTeamMembers } from "../../../services/teams";
import { lockTeam, teamMustExist } from "./access";
import { teamBody, teamParams } from "./schema";
import { teamResponse, teamsResponse } from "../../../schemas/team";

/** The audited gem's attributes of a team (all but id and timestamps). */
const AUDITED = ["name", "description", "allow_auto_assign", "account_id"] as const;

/** Chatwoot's Team validations: the name is lower-cased, then must be present (uniqueness is the index's). */
function validName(name: string | null | undefined): string {
  if (typeof name !== "string" || !name.trim()) throw ValidationError.of("name", "must not be blank");
  return name.toLowerCase();
}

async function callerTeamIds(ctx: AppContext): Promise<Set<number>> {
  return TeamMember.teamIdsOf(ctx.state.account!.id, ctx.state.membership?.user_id ?? 0);
}

function audit(ctx: AppContext, trx: Knex, before: Team | undefined, after: Team | undefined) {
  const accountId = ctx.state.account!.id;
  return auditChange(trx, auditActor(ctx), { accountId, auditableType: "Team", keys: AUDITED, before, after, associated: { type: "Account", id: accountId } });
}

export function registerTeamRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/teams";
  const one = `${path}/:id`;
  const existing = [teamMustExist("id")];

  router.route({ method: "get", path, summary: "List the account's teams", params: accountParams, response: teamsResponse }, async (ctx) => {
    const [teams, mine] = await Promise.all([Team.ofAccount(ctx.state.account!.id).orderBy("id"), callerTeamIds(ctx)]);
    ctx.body = teams.map((team) => presentTeam(team, mine));
  });

  router.route({ method: "get", path: one, summary: "Get a team", params: teamParams, response: teamResponse }, async (ctx, { params }) => {
    const team = await Team.findInAccount(ctx.state.account!.id, params.id);
    if (!team) throw NotFound();
    ctx.body = presentTeam(team, await callerTeamIds(ctx));
  });

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Create a team (names are unique per account, case-insensitively)",
      params: accountParams,
      body: teamBody,
      response: teamResponse,
    },
    async (ctx, { body }) => {
      const team = await Team.transaction(async (trx) => {
        const created = await Team.query(trx)
          .insert({
            account_id: ctx.state.account!.id,
            name: validName(body.name),
            description: body.description ?? null,
            ...(body.allow_auto_assign !== undefined ? { allow_auto_assign: body.allow_auto_assign } : {}),
          })
          .returning("*");
        await audit(ctx, trx, undefined, created);
        return created;
      });
      ctx.body = presentTeam(team, await callerTeamIds(ctx));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      middleware: existing,
      method: UPDATE,
      path: one,
      summary: "Update a team",
      params: teamParams,
      body: teamBody,
      response: teamResponse,
    },
    async (ctx, { params, body }) => {
      const team = await Team.transaction(async (trx) => {
        const before = await lockTeam(trx, ctx, params.id);
        const patch = {
          ...(body.name !== undefined ? { name: validName(body.name) } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.allow_auto_assign !== undefined ? { allow_auto_assign: body.allow_auto_assign } : {}),
        };
        const after = await Team.query(trx).patchAndFetchById(before.id, patch);
        await audit(ctx, trx, before, after);
        return after;
      });
      ctx.body = presentTeam(team, await callerTeamIds(ctx));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      middleware: existing,
      method: "delete",
      path: one,
      summary: "Delete a team; its conversations lose it",
      params: teamParams,
    },
    async (ctx, { params }) => {
      await Team.transaction(async (trx) => {
        const team = await lockTeam(trx, ctx, params.id);
        // Conversations keep no team (dependent: :nullify, written without events); members go
        // with it, each audited as its destroy would be.
        await trx("conversations").where({ account_id: team.account_id, team_id: team.id }).update({ team_id: null });
        const members = await TeamMember.query(trx).delete().where("team_id", team.id).returning("*");
        await auditTeamMembers(trx, auditActor(ctx), members, "destroy");
        await Team.query(trx).deleteById(team.id);
        await audit(ctx, trx, team, undefined);
      });
      headOk(ctx);
    },
  );
}
