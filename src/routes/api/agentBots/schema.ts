import { z } from "zod";
import { jsonObject } from "../../../http/schemas";
import { BOT_TYPES } from "../../../models/AgentBot";
import { agentBotFields } from "../../../schemas/agentBot";

/** bot_type arrives as Chatwoot's integer code (0 webhook) or its name; stored as the code. */
const botType = z.union(
  [
    z
      .number()
      .int()
      .refine((n) => n >= 0 && n < BOT_TYPES.length, { message: "is not included in the list" }),
    z.enum(BOT_TYPES).transform((name) => BOT_TYPES.indexOf(name)),
  ],
  { error: "is not included in the list" },
);

export const agentBotBody = z
  .object({ ...agentBotFields, bot_type: botType, bot_config: jsonObject() })
  .partial()
  .openapi("AgentBotRequest");
