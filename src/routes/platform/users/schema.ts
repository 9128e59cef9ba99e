import { z } from "zod";
import { email, jsonObject, password } from "../../../http/schemas";

const userFields = {
  name: z.string().trim().min(1).max(255),
  display_name: z.string().trim().max(255).nullable(),
  email: email(),
  password: password(),
  custom_attributes: jsonObject(),
};

export const platformUserCreate = z.object(userFields).partial().openapi("PlatformUserCreate");
export const platformUserUpdate = z.object(userFields).partial().openapi("PlatformUserUpdate");

export const ssoLinkResponse = z.object({ url: z.string() }).openapi("PlatformUserLogin");

/** platform/api/v1/users/token.json.jbuilder. */
export const userTokenResponse = z
  .object({
    access_token: z.string(),
    expiry: z.null(),
    user: z.object({ id: z.number(), name: z.string(), display_name: z.string().nullable(), email: z.string(), pubsub_token: z.string() }),
  })
  .openapi("PlatformUserToken");
