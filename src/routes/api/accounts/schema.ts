import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { accountFields, accountCoreResponse } from "../../../schemas/account";

/** Chatwoot checks settings against a JSON schema, whose type error names the JSON type: "60" is not an integer. */
const jsonInteger = () => z.number({ error: (issue) => (issue.code === "invalid_type" && issue.input != null ? "must be of type integer" : undefined) }).int();

export const accountUpdateSchema = z
  .object({
    ...accountFields,
    auto_resolve_after: jsonInteger().min(10).max(1439856).nullable(),
    auto_resolve_message: z.string().max(MAX_LENGTH.text).nullable(),
    auto_resolve_ignore_waiting: z.boolean().nullable(),
    auto_resolve_label: z.string().max(MAX_LENGTH.string).nullable(),
    industry: z.string().max(MAX_LENGTH.string),
    company_size: z.string().max(MAX_LENGTH.string),
    timezone: z.string().max(MAX_LENGTH.string),
  })
  .partial()
  .openapi("AccountUpdate");

export type AccountUpdate = z.output<typeof accountUpdateSchema>;

export const accountResponse = z
  .object({
    ...accountCoreResponse,
    settings: z.record(z.string(), z.unknown()),
    custom_attributes: z.record(z.string(), z.unknown()).optional(),
    created_at: z.string(),
    cache_keys: z.record(z.string(), z.number()),
    latest_service_version: z.string().optional(),
    subscribed_features: z.array(z.string()).optional(),
  })
  .openapi("Account");
