import { z } from "zod";

// The _agent partial: inbox members, team members, agents and participants render it.

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

/** The _agent partial, as inbox members render it. */
export const agentResponse = inboxMembersEnvelope.shape.payload.element.openapi("Agent");
