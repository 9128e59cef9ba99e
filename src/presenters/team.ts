import { iso } from "./time";
import type { Team } from "../models/Team";

/**
 * app/views/api/v1/models/_team.json.jbuilder. `is_member` says whether the caller belongs to the
 * team (Chatwoot compares its teams relation with the id, which never matches; the intent is served).
 */
export function presentTeam(team: Team, callerTeamIds: ReadonlySet<number>) {
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    allow_auto_assign: team.allow_auto_assign,
    account_id: team.account_id,
    is_member: callerTeamIds.has(team.id),
  };
}

/** The team row as Rails' as_json renders a record (the assignments endpoint's `render json: @team`). */
export function teamRecord(team: Team) {
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    allow_auto_assign: team.allow_auto_assign,
    account_id: team.account_id,
    created_at: iso(team.created_at),
    updated_at: iso(team.updated_at),
  };
}
