import { z } from "zod";
import { jsonObject } from "../../../http/schemas";
import { email } from "../../api/accounts/schema";

const SPECIAL_CHARACTERS = ` !@#$%^&*()_+-=[]{}|"/\\.,\`<>:;?~'`;

/** devise-secure_password's rule as Chatwoot configures it: 6..128 characters, one of each class. */
export const password = () =>
  z
    .string()
    .min(6)
    .max(128)
    .superRefine((value, ctx) => {
      const required: [RegExp | ((v: string) => boolean), string][] = [
        [/[A-Z]/, "must contain at least 1 uppercase character (A..Z)"],
        [/[a-z]/, "must contain at least 1 lowercase character (a..z)"],
        [/[0-9]/, "must contain at least 1 digit (0..9)"],
        [(v) => [...v].some((c) => SPECIAL_CHARACTERS.includes(c)), `must contain at least 1 special character (${SPECIAL_CHARACTERS})`],
      ];
      for (const [test, message] of required) {
        const ok = typeof test === "function" ? test(value) : test.test(value);
        if (!ok) ctx.addIssue({ code: "custom", message });
      }
    });

const userFields = {
  name: z.string().trim().min(1).max(255),
  display_name: z.string().trim().max(255).nullable(),
  email: email(),
  password: password(),
  custom_attributes: jsonObject(),
};

export const platformUserCreate = z.object(userFields).partial().openapi("PlatformUserCreate");
export const platformUserUpdate = z.object(userFields).partial().openapi("PlatformUserUpdate");

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

export const ssoLinkResponse = z.object({ url: z.string() }).openapi("PlatformUserLogin");

/** platform/api/v1/users/token.json.jbuilder. */
export const userTokenResponse = z
  .object({
    access_token: z.string(),
    expiry: z.null(),
    user: z.object({ id: z.number(), name: z.string(), display_name: z.string().nullable(), email: z.string(), pubsub_token: z.string() }),
  })
  .openapi("PlatformUserToken");
