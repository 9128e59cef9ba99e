import { z } from "zod";
import { availability, email, railsBoolean, wrappedUnder } from "../../../http/schemas";
import { MAX_LENGTH } from "../../../http/limits";

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

/** The most addresses one bulk_create takes (Chatwoot sets none; a bound keeps one request's work finite). */
export const BULK_CREATE_MAX = 1000;

/**
 * agents#bulk_create's `emails`: a JSON array, or a comma-separated string as a form sends one;
 * blank entries are dropped (Rails' compact_blank), every other one must be an address.
 */
export const agentBulkCreate = z
  .preprocess(
    wrappedUnder("agent"),
    z.object({
      emails: z
        .preprocess(
          (value) => (typeof value === "string" ? value.split(",") : value),
          z
            .array(z.unknown())
            .transform((items) => items.filter((item) => !(item === null || (typeof item === "string" && item.trim() === ""))))
            .pipe(z.array(email()).max(BULK_CREATE_MAX)),
        )
        .openapi({ type: "array", items: { type: "string", format: "email", maxLength: MAX_LENGTH.string }, maxItems: BULK_CREATE_MAX }),
    }),
  )
  .openapi("AgentBulkCreate");
