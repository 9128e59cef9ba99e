import { z } from "zod";
import { headOk } from "../../../http/headOk";
import type { AppContext } from "../../../http/context";
import type { ApiRouter } from "../../../http/router";
import { id } from "../../../http/schemas";
import type { User } from "../../../models/User";
import { presentInboxMember as presentAgent } from "../../../presenters/inbox";
import { iso } from "../../../presenters/time";
import { acceptInvitation, declineInvitation, invitationsOf } from "../../../services/agentInvitations";
import { auditActor } from "../../../services/audit";
import { agentResponse } from "../../../schemas/agent";

const invitationParams = z.object({ id: id() });

const invitationResponse = z
  .object({ id: z.number(), account_id: z.number(), account_name: z.string(), role: z.string(), inviter_id: z.number().nullable(), created_at: z.string() })
  .openapi("AgentInvitation");

function currentUser(ctx: AppContext): User {
  const principal = ctx.state.principal;
  if (principal?.kind !== "user") throw new Error("profile reached without a user");
  return principal.user;
}

/**
 * /api/v1/profile/invitations: the calling user's pending invitations from accounts that added them
 * while they belonged to another (POST agents answers those 202). Accepting makes the membership;
 * declining removes the invitation. Only the invited user's own token reaches them.
 */
export function registerInvitationRoutes(router: ApiRouter) {
  const path = "/profile/invitations";
  router.route(
    { method: "get", path, summary: "The calling user's pending agent invitations", response: z.object({ payload: z.array(invitationResponse) }) },
    async (ctx) => {
      const pending = await invitationsOf(currentUser(ctx).id);
      ctx.body = {
        payload: pending.map(({ invitation, account }) => ({
          id: invitation.id,
          account_id: account.id,
          account_name: account.name,
          role: invitation.role,
          inviter_id: invitation.inviter_id,
          created_at: iso(invitation.created_at),
        })),
      };
    },
  );

  router.route(
    {
      method: "post",
      path: `${path}/:id/accept`,
      summary: "Accept an invitation: join the account as its agent",
      params: invitationParams,
      response: agentResponse,
    },
    async (ctx, { params }) => {
      ctx.body = presentAgent(await acceptInvitation(currentUser(ctx), params.id, auditActor(ctx)));
    },
  );

  router.route({ method: "delete", path: `${path}/:id`, summary: "Decline an invitation", params: invitationParams }, async (ctx, { params }) => {
    await declineInvitation(currentUser(ctx), params.id);
    headOk(ctx);
  });
}
