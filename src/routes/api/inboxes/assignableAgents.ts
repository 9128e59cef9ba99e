import { z } from "zod";
import { NotFound } from "../../../errors";
import type { ApiRouter } from "../../../http/router";
import { accountParams, accountResourceParams, idList } from "../../../http/schemas";
import { InboxMember } from "../../../models/InboxMember";
import { requireMember } from "../../../policies";
import { findVisibleInbox, visibleInboxes } from "../../../policies/inboxes";
import { presentInboxMember as presentAgent } from "../../../presenters/inbox";
import { inboxMembersEnvelope } from "../../../schemas/agent";
import { listAgents } from "../../../services/agents";

/** Who may be assigned a conversation of every one of the inboxes: their common members and the account's administrators, by name. */
async function assignableTo(accountId: number, inboxIds: number[]) {
  const memberIds = await Promise.all(inboxIds.map(async (inboxId) => new Set((await InboxMember.membersOf(accountId, inboxId)).map((m) => m.user.id))));
  const inEvery = (userId: number) => memberIds.length > 0 && memberIds.every((ids) => ids.has(userId));
  return (await listAgents(accountId)).filter((agent) => agent.accountUser.role === "administrator" || inEvery(agent.user.id));
}

const inboxIdsQuery = z.preprocess(
  (query) => {
    if (!query || typeof query !== "object" || !("inbox_ids[]" in query)) return query;
    const { "inbox_ids[]": bracketed, ...rest } = query as Record<string, unknown>;
    return { ...rest, inbox_ids: bracketed };
  },
  z.object({ inbox_ids: idList().pipe(z.array(z.number()).max(100)).optional() }),
);

export function registerAssignableAgentRoutes(router: ApiRouter) {
  router.route(
    {
      authorize: requireMember,
      method: "get",
      path: "/accounts/:account_id/inboxes/:id/assignable_agents",
      summary: "The agents a conversation of the inbox may be assigned to: its members and the administrators",
      params: accountResourceParams,
      response: inboxMembersEnvelope,
    },
    async (ctx, { params }) => {
      const inbox = await findVisibleInbox(ctx, params.id);
      ctx.body = { payload: (await assignableTo(ctx.state.account!.id, [inbox.id])).map(presentAgent) };
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: "get",
      path: "/accounts/:account_id/assignable_agents",
      summary: "The agents assignable in every one of the inboxes (`inbox_ids[]`), which must be the caller's",
      params: accountParams,
      query: inboxIdsQuery,
      response: inboxMembersEnvelope,
    },
    async (ctx, { query }) => {
      const ids = [...new Set(query.inbox_ids ?? [])];
      // Current.user.assigned_inboxes.find(ids): each must be one the caller may see.
      const seen = ids.length ? await visibleInboxes(ctx).whereIn("inboxes.id", ids) : [];
      if (seen.length !== ids.length) throw NotFound();
      ctx.body = { payload: (await assignableTo(ctx.state.account!.id, ids)).map(presentAgent) };
    },
  );
}
