import { z } from "zod";
import { availability, email, railsBoolean, wrappedUnder } from "../../../http/schemas";

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
