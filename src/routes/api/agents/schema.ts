import { z } from "zod";
import { railsBoolean, wrappedUnder } from "../../../http/schemas";
import { email } from "../accounts/schema";
import { inboxMembersEnvelope } from "../inboxMembers/schema";
import { availability } from "../profile/schema";

const role = () => z.enum(["agent", "administrator"]);

/** Chatwoot's new_agent_params, under `agent` or bare. */
export const agentCreate = z
  .preprocess(
    wrappedUnder("agent"),
    z.object({
      email: email(),
      name: z.string().trim().max(255).optional(),
      role: role().optional(),
      availability: availability().optional(),
      auto_offline: railsBoolean().optional(),
    }),
  )
  .openapi("AgentCreate");

export const agentUpdate = z
  .preprocess(
    wrappedUnder("agent"),
    z.object({ name: z.string().trim().min(1).max(255), role: role(), availability: availability(), auto_offline: railsBoolean() }).partial(),
  )
  .openapi("AgentUpdate");

/** The _agent partial, as inbox members render it. */
export const agentResponse = inboxMembersEnvelope.shape.payload.element.openapi("Agent");
