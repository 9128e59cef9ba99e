import { z } from "zod";
import { id } from "../../../http/schemas";
import { agentBotFields, agentBotResponse } from "../../../schemas/agentBot";

export const platformAgentBotBody = z
  .object({ ...agentBotFields, account_id: id().nullable() })
  .partial()
  .openapi("PlatformAgentBotRequest");

export const platformAgentBotResponse = agentBotResponse
  .omit({ secret: true })
  .extend({ outgoing_url: z.string().nullable(), access_token: z.string() })
  .openapi("PlatformAgentBot");
