import { z } from "zod";
import type { ApiRouter } from "../../../http/router";
import { accountResourceParams } from "../../../http/schemas";
import { presentAgentBot } from "../../../presenters/agentBot";
import { presentInboxMember } from "../../../presenters/inbox";
import { Team } from "../../../models/Team";
import { teamRecord } from "../../../presenters/team";
import { assignConversation, setTeam } from "../../../conversations/assignment";
import { setCustomAttributes, setLabels } from "../../../conversations/attributes";
import { actorOf, findConversation } from "../../../policies/conversations";
import { assignmentBody, customAttributesBody, customAttributesResponse, labelsBody, labelsResponse } from "./schema";

/** Labels, custom attributes and assignment of one conversation (all open to agent bots too). */
export function registerConversationAttributeRoutes(router: ApiRouter) {
  const one = "/accounts/:account_id/conversations/:id";

  router.route(
    { method: "get", path: `${one}/labels`, summary: "The conversation's labels", params: accountResourceParams, response: labelsResponse },
    async (ctx, { params }) => {
      ctx.body = { payload: (await findConversation(ctx, params.id)).labels };
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/labels`,
      summary: "Replace the conversation's labels",
      params: accountResourceParams,
      body: labelsBody,
      response: labelsResponse,
    },
    async (ctx, { params, body }) => {
      const conversation = await findConversation(ctx, params.id);
      ctx.body = { payload: (await setLabels(ctx.deps.knex, conversation, body.labels, actorOf(ctx))).labels };
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/custom_attributes`,
      summary: "Replace the conversation's custom attributes (merge: true keeps the others)",
      params: accountResourceParams,
      body: customAttributesBody,
      response: customAttributesResponse,
    },
    async (ctx, { params, body }) => {
      const conversation = await findConversation(ctx, params.id);
      const updated = await setCustomAttributes(ctx.deps.knex, conversation, body.custom_attributes, { merge: body.merge ?? false, actor: actorOf(ctx) });
      ctx.body = { custom_attributes: updated.custom_attributes };
    },
  );

  router.route(
    {
      method: "post",
      path: `${one}/assignments`,
      summary: "Assign an agent (assignee_id; null unassigns), an agent bot (assignee_type AgentBot) or a team (team_id; null removes it)",
      params: accountResourceParams,
      body: assignmentBody,
      response: z.record(z.string(), z.unknown()).nullable(),
    },
    async (ctx, { params, body }) => {
      const conversation = await findConversation(ctx, params.id);
      const toBot = body.assignee_type === "AgentBot";
      ctx.type = "application/json";
      if (body.assignee_id === undefined && !toBot && body.team_id !== undefined) {
        // A team that is not the account's (or null) takes the conversation's team away, as find_by does.
        const team = (body.team_id !== null && (await Team.findInAccount(conversation.account_id, body.team_id))) || null;
        await setTeam(ctx.deps.knex, conversation, team, actorOf(ctx));
        ctx.body = JSON.stringify(team ? teamRecord(team) : null);
        return;
      }
      // Chatwoot answers a request naming neither an assignee, a bot nor a team with null.
      const assignee =
        body.assignee_id !== undefined || toBot
          ? await assignConversation(ctx.deps.knex, conversation, { type: toBot ? "AgentBot" : "User", id: body.assignee_id ?? null }, actorOf(ctx))
          : null;
      ctx.body = JSON.stringify(
        assignee?.kind === "user" ? presentInboxMember(assignee.member) : assignee?.kind === "agent_bot" ? presentAgentBot(assignee.bot) : null,
      );
    },
  );
}
