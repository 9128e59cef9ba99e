import { z } from "zod";
import { MAX_LENGTH } from "../../../http/limits";
import { id, jsonObject, wrappedUnder } from "../../../http/schemas";
import { HOOK_STATUSES } from "../../../models/IntegrationHook";

export const appParams = z.object({ account_id: id(), id: z.string().min(1).max(MAX_LENGTH.string) });

/** Rails' enum takes the name or the code; booleans and their strings are read as enabled or not, as clients send a toggle. */
const status = z
  .union([z.enum(HOOK_STATUSES), z.literal(0), z.literal(1), z.boolean(), z.enum(["0", "1", "true", "false"])])
  .transform((value) => (value === "enabled" || value === 1 || value === true || value === "1" || value === "true" ? 1 : 0))
  .openapi({ description: "enabled or disabled (1/0 and booleans are read alike)" });

/** A blank inbox_id (n8n sends every field, empty when unset) is no inbox, as Rails casts blank to nil. */
const inboxId = z.preprocess((value) => (value === "" || value === 0 || value === "0" ? null : value), id().nullable());

export const hookCreate = z
  .preprocess(
    wrappedUnder("hook"),
    z.object({
      app_id: z.string().trim().max(MAX_LENGTH.string).optional(),
      inbox_id: inboxId.optional(),
      status: status.optional(),
      settings: jsonObject().nullable().optional(),
    }),
  )
  .openapi("IntegrationHookCreate");

/** Only status and settings change: app, inbox and type are fixed once created (attr_readonly). */
export const hookUpdate = z
  .preprocess(wrappedUnder("hook"), z.object({ status: status.optional(), settings: jsonObject().nullable().optional() }))
  .openapi("IntegrationHookUpdate");

export const hookResponse = z
  .object({
    id: z.number(),
    app_id: z.string(),
    status: z.boolean(),
    inbox: z.object({ id: z.number(), name: z.string() }).nullable(),
    account_id: z.number(),
    hook_type: z.enum(["account", "inbox"]),
    settings: z.record(z.string(), z.unknown()),
  })
  .openapi("IntegrationHook");

export const appResponse = z
  .object({
    id: z.string(),
    logo: z.string(),
    i18n_key: z.string(),
    action: z.string().nullable(),
    hook_type: z.enum(["account", "inbox"]),
    allow_multiple_hooks: z.boolean(),
    name: z.string(),
    description: z.string(),
    enabled: z.boolean(),
    button: z.string().nullable(),
    hooks: z.array(hookResponse),
  })
  .openapi("IntegrationApp");

export const appsResponse = z.object({ payload: z.array(appResponse) }).openapi("IntegrationApps");
