import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { timeInput } from "../../../schemas/time";
import { id, jsonObject, optionalId, railsBoolean, wrappedUnder } from "../../../http/schemas";

/** Chatwoot's campaign_params, under `campaign` or bare. */
export const campaignBody = z
  .preprocess(
    wrappedUnder("campaign"),
    z
      .object({
        title: z.string().trim().max(MAX_LENGTH.string),
        description: z.string().max(MAX_LENGTH.text).nullable(),
        message: z.string().max(MAX_LENGTH.message),
        enabled: railsBoolean(),
        trigger_only_during_business_hours: railsBoolean(),
        inbox_id: id(),
        sender_id: optionalId(),
        scheduled_at: timeInput,
        audience: z.array(z.object({ type: z.string().max(50), id: id() })).max(100),
        trigger_rules: jsonObject(),
      })
      .partial(),
  )
  .openapi("CampaignInput");
export type CampaignInput = z.output<typeof campaignBody>;

export const campaignResponse = z
  .object({
    id: z.number(),
    title: z.string(),
    description: z.string().nullable(),
    account_id: z.number(),
    inbox: z.object({ id: z.number(), name: z.string() }).passthrough(),
    sender: z.record(z.string(), z.unknown()).optional(),
    message: z.string(),
    campaign_status: z.string(),
    enabled: z.boolean(),
    campaign_type: z.string(),
    scheduled_at: z.number().nullable().optional(),
    audience: z.array(z.object({ type: z.string(), id: z.number() })).optional(),
    trigger_rules: z.record(z.string(), z.unknown()),
    trigger_only_during_business_hours: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Campaign");
