import { z } from "zod";

// The platform user as the platform API, sign-in and the profile render it.

const membership = z.object({
  id: z.number(),
  name: z.string(),
  status: z.string(),
  active_at: z.string().nullable(),
  role: z.enum(["agent", "administrator"]),
  permissions: z.array(z.string()),
  availability: z.string(),
  availability_status: z.string(),
  auto_offline: z.boolean(),
  custom_role_id: z.number().nullable(),
  custom_role: z.record(z.string(), z.unknown()).nullable(),
});

export const platformUserResponse = z
  .object({
    id: z.number(),
    access_token: z.string(),
    account_id: z.number().nullable(),
    available_name: z.string(),
    avatar_url: z.string(),
    confirmed: z.boolean(),
    display_name: z.string().nullable(),
    message_signature: z.string().nullable(),
    email: z.string(),
    hmac_identifier: z.string(),
    inviter_id: z.number().nullable(),
    name: z.string(),
    provider: z.string(),
    pubsub_token: z.string(),
    role: z.enum(["agent", "administrator"]).nullable(),
    ui_settings: z.record(z.string(), z.unknown()),
    uid: z.string(),
    type: z.string().nullable(),
    custom_attributes: z.record(z.string(), z.unknown()).optional(),
    accounts: z.array(membership),
  })
  .openapi("PlatformUser");
