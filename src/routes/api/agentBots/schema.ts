import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { avatarUpload, clearableHttpUrl, jsonObject, optionalHttpUrl } from "../../../http/schemas";
import { BOT_TYPES } from "../../../models/AgentBot";

/** Fields of an agent bot shared by the account and platform APIs. */
export const agentBotFields = {
  name: z.string().trim().max(255),
  description: z.string().max(MAX_LENGTH.text).nullable(),
  outgoing_url: clearableHttpUrl(),
  avatar_url: optionalHttpUrl(),
  /** An image file, in a multipart body. */
  avatar: avatarUpload(),
};

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

export const agentBotResponse = z
  .object({
    id: z.number(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    thumbnail: z.string(),
    outgoing_url: z.string().nullable().optional(),
    bot_type: z.string(),
    bot_config: z.record(z.string(), z.unknown()),
    account_id: z.number().nullable(),
    access_token: z.string().optional(),
    secret: z.string().optional(),
    system_bot: z.boolean(),
  })
  .openapi("AgentBot");
