import { z } from "zod";
import { id } from "../../../http/schemas";
import { ROLES, type Role } from "../../../models/AccountUser";

export const accountUserCreate = z.object({ user_id: id(), role: z.enum(ROLES as [Role, ...Role[]]).optional() }).openapi("PlatformAccountUserCreate");

export const accountUserDelete = z.object({ user_id: id() }).openapi("PlatformAccountUserDelete");

export const accountUserResponse = z
  .object({
    id: z.number(),
    account_id: z.number(),
    user_id: z.number(),
    role: z.enum(ROLES as [string, ...string[]]),
    inviter_id: z.number().nullable(),
    active_at: z.string().nullable(),
    availability: z.string(),
    auto_offline: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("PlatformAccountUser");
