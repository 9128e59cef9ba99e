import { z } from "zod";
import { MAX_LENGTH } from "../http/limits";
import { avatarUpload, clearableHttpUrl, optionalHttpUrl } from "../http/schemas";

// Agent bot shapes the account and platform APIs and the inbox bot setting share.

/** Fields of an agent bot shared by the account and platform APIs. */
export const agentBotFields = {
  name: z.string().trim().max(255),
  description: z.string().max(MAX_LENGTH.text).nullable(),
  outgoing_url: clearableHttpUrl(),
  avatar_url: optionalHttpUrl(),
  /** An image file, in a multipart body. */
  avatar: avatarUpload(),
};

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
