import { z } from "zod";
import { id, idList } from "../../../http/schemas";

export const inboxMembersParams = z.object({ account_id: id(), inbox_id: id() });

/** inbox_id comes as a number or, as Chatwoot documents it, a numeric string. */
export const inboxMembersBody = z.object({ inbox_id: id(), user_ids: idList() }).openapi("InboxMembersRequest");

const agent = z.object({
  id: z.number(),
  account_id: z.number(),
  availability_status: z.string(),
  auto_offline: z.boolean(),
  confirmed: z.boolean(),
  email: z.string(),
  provider: z.string(),
  available_name: z.string(),
  custom_attributes: z.record(z.string(), z.unknown()).optional(),
  name: z.string(),
  role: z.enum(["agent", "administrator"]),
  thumbnail: z.string(),
  custom_role_id: z.number().nullable(),
});

export const inboxMembersEnvelope = z.object({ payload: z.array(agent) }).openapi("InboxMembers");
