import type { Knex } from "knex";
import type { Next } from "koa";
import { NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { Team } from "../../../models/Team";

/**
 * Resolves the team of the path before the role check, as Chatwoot's fetch_team runs before
 * check_authorization: an unknown team is 404 whoever asks.
 */
export function teamMustExist(param: "id" | "team_id") {
  return async (ctx: AppContext, next: Next) => {
    const id = Number(ctx.params[param]);
    if (!Number.isSafeInteger(id) || id <= 0 || !(await Team.findInAccount(ctx.state.account!.id, id))) throw NotFound();
    await next();
  };
}

/** The team locked for a change; it may have gone since the path was checked (then 404). */
export function lockTeam(trx: Knex.Transaction, ctx: AppContext, id: number): Promise<Team> {
  return Team.lockInAccount(trx, ctx.state.account!.id, id);
}
