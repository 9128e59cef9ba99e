import { z } from "zod";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { headOk } from "../../../http/headOk";
import { authorize, requireAdministrator } from "../../../policies";
import { presentInboxMember as presentAgent, presentInvitedAgent } from "../../../presenters/inbox";
import { inviteAgent, listAgents, removeAgent, updateAgent } from "../../../services/agents";
import { auditActor } from "../../../services/audit";
import { connectedUserIds, liveAvailability } from "../../../realtime/presence";
import { bulkInviteAgents } from "../../../services/agentBulkCreate";
import { currentLogger } from "../../../lib/logger";
import { agentBulkCreate, agentCreate, agentUpdate } from "./schema";
import { agentResponse } from "../../../schemas/agent";

/** /api/v1/accounts/:account_id/agents (Chatwoot's AgentsController and UserPolicy: members list, administrators manage). */
export function registerAgentRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/agents";

  router.route(
    {
      authorize: (ctx) => authorize(ctx, "administrator", "agent"),
      method: "get",
      path,
      summary: "List the account's agents",
      params: accountParams,
      response: z.array(agentResponse),
    },
    async (ctx) => {
      const accountId = ctx.state.account!.id;
      const [agents, connected] = await Promise.all([listAgents(accountId), connectedUserIds(ctx.deps.knex, accountId)]);
      ctx.body = agents.map((agent) => ({
        ...presentAgent(agent),
        availability_status: liveAvailability(agent.accountUser.availability, connected.has(agent.user.id), agent.accountUser.auto_offline),
      }));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Add an agent by email (creating the user when new); a user of another account is invited (202) and joins on accepting",
      params: accountParams,
      body: agentCreate,
      response: agentResponse,
    },
    async (ctx, { body }) => {
      const principal = ctx.state.principal;
      if (principal?.kind !== "user") throw new Error("agents reached without a user");
      const outcome = await inviteAgent(ctx.state.account!, principal.user, body, auditActor(ctx));
      if ("member" in outcome) {
        ctx.body = presentAgent(outcome.member);
      } else {
        ctx.status = 202;
        ctx.body = presentInvitedAgent(outcome.invitation, outcome.user);
      }
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path: `${path}/bulk_create`,
      summary:
        "Add agents by email in bulk, as one create each (new addresses join unconfirmed, users of other accounts are invited); addresses already members are skipped; 200 empty",
      params: accountParams,
      body: agentBulkCreate,
    },
    async (ctx, { body }) => {
      const principal = ctx.state.principal;
      if (principal?.kind !== "user") throw new Error("agents reached without a user");
      const outcome = await bulkInviteAgents(ctx.state.account!, principal.user, body.emails, auditActor(ctx));
      currentLogger().info({ accountId: ctx.state.account!.id, invited: outcome.invited.length, skipped: outcome.skipped.length }, "agents bulk_create");
      headOk(ctx);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Change an agent's role, availability or auto_offline in the account (the name is the user's own)",
      params: accountResourceParams,
      body: agentUpdate,
      response: agentResponse,
    },
    async (ctx, { params, body }) => {
      ctx.body = presentAgent(await updateAgent(ctx.state.account!, params.id, body, auditActor(ctx)));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "delete",
      path: `${path}/:id`,
      summary: "Remove an agent's membership (never the user), or withdraw their invitation",
      params: accountResourceParams,
    },
    async (ctx, { params }) => {
      await removeAgent(ctx.state.account!, params.id, auditActor(ctx));
      headOk(ctx);
    },
  );
}
