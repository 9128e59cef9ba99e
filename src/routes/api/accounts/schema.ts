import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";

/** Devise.email_regexp, which Chatwoot uses for every email it stores. */
export const email = () =>
  z
    .string()
    .max(MAX_LENGTH.string)
    .trim()
    .toLowerCase()
    .regex(/^[^@\s]+@[^@\s]+$/);

/** Fields an account shares between the platform and account APIs. */
export const accountFields = {
  name: z.string().max(MAX_LENGTH.string).trim().min(1),
  locale: z.string().trim().min(1).max(10),
  domain: z.string().trim().max(100).nullable(),
  support_email: email().nullable(),
};

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

/** What every account response carries (presenters/account.ts accountCore). */
export const accountCoreResponse = {
  id: z.number(),
  name: z.string(),
  locale: z.string(),
  domain: z.string().nullable(),
  support_email: z.string().nullable(),
  status: z.enum(["active", "suspended"]),
  features: z.record(z.string(), z.literal(true)),
};

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
