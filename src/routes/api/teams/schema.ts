import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { id, idList, railsBoolean, wrappedUnder } from "../../../http/schemas";
import { inboxMembersEnvelope } from "../../../schemas/agent";

export const teamParams = z.object({ account_id: id(), id: id() });
export const teamMembersParams = z.object({ account_id: id(), team_id: id() });

/**
 * `{team: {...}}` or, through Rails' params wrapper, the bare fields. Name is checked by the model
 * (presence, uniqueness), so null and blanks reach it; slack_mention_code is permitted and unused.
 */
const teamFields = z.object({
  name: z.string().max(MAX_LENGTH.string).nullable().optional(),
  description: z.string().max(MAX_LENGTH.text).nullable().optional(),
  allow_auto_assign: railsBoolean().optional(),
  slack_mention_code: z.string().max(MAX_LENGTH.string).nullable().optional(),
});
export const teamBody = z.preprocess(wrappedUnder("team"), teamFields).openapi("TeamRequest");

export const teamMembersBody = z.object({ user_ids: idList() }).openapi("TeamMembersRequest");
const agents = inboxMembersEnvelope.shape.payload;
/** Chatwoot renders an empty member list of a change as an empty object. */
export const teamMembersResponse = z.union([agents, z.object({})]).openapi("TeamMembers");
