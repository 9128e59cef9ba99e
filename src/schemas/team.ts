import { z } from "zod";

// A team as its own routes and a conversation render it.

export const teamResponse = z
  .object({
    id: z.number(),
    name: z.string(),
    description: z.string().nullable(),
    allow_auto_assign: z.boolean(),
    account_id: z.number(),
    is_member: z.boolean(),
  })
  .openapi("Team");
export const teamsResponse = z.array(teamResponse).openapi("Teams");
