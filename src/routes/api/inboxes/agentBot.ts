import { z } from "zod";
import type { ApiRouter } from "../../../http/router";
import { accountResourceParams } from "../../../http/schemas";
import { AgentBot } from "../../../models/AgentBot";
import { AgentBotInbox } from "../../../models/AgentBotInbox";
import { authorize } from "../../../policies";
import { findVisibleInbox } from "../../../policies/inboxes";
import { presentAccountAgentBot as presentAccountBot } from "../../../presenters/agentBot";
import { agentBotResponse } from "../../../schemas/agentBot";

/**
 * GET inboxes/:id/agent_bot (InboxPolicy#agent_bot? lets every member of the inbox ask): `{"agent_bot": bot}`, and
 * `{"agent_bot": {}}` when none is attached, as the jbuilder block renders empty.
 */
export function registerInboxAgentBotRoutes(router: ApiRouter) {
  router.route(
    {
      authorize: (ctx) => authorize(ctx, "administrator", "agent"),
      method: "get",
      path: "/accounts/:account_id/inboxes/:id/agent_bot",
      summary: "The agent bot attached to an inbox",
      params: accountResourceParams,
      response: z.object({ agent_bot: z.union([agentBotResponse, z.object({})]) }).openapi("InboxAgentBot"),
    },
    async (ctx, { params }) => {
      const inbox = await findVisibleInbox(ctx, params.id);
      const attached = await AgentBotInbox.query().findOne({ inbox_id: inbox.id });
      const bot = attached && (await AgentBot.query().findById(attached.agent_bot_id));
      ctx.body = { agent_bot: bot ? await presentAccountBot(ctx, bot) : {} };
    },
  );
}
