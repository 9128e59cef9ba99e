import { ApiError, PermissionDenied } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { headOk } from "../../../http/headOk";
import type { ApiRouter } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { requireMember } from "../../../policies";
import { userIdOf, visibleConversationsByDisplayId } from "../../../policies/conversations";
import { startBulkAction } from "../../../services/bulkActions";
import { bulkActionBody } from "./schema";

/** The account's contacts among the ids, by id. */
async function accountContactIds(ctx: AppContext, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows: { id: number }[] = await ctx.deps.knex("contacts").where("account_id", ctx.state.account!.id).whereIn("id", ids).orderBy("id").select("id");
  return rows.map((row) => Number(row.id));
}

export function registerBulkActionRoutes(router: ApiRouter) {
  router.route(
    {
      authorize: requireMember,
      method: "post",
      path: "/accounts/:account_id/bulk_actions",
      summary:
        "Change many conversations (status, assignee, team, labels) or contacts (delete, labels) at once: 200 empty, the work runs as a Temporal workflow",
      params: accountParams,
      body: bulkActionBody,
    },
    async (ctx, { body }) => {
      const accountId = ctx.state.account!.id;
      const userId = userIdOf(ctx);
      const ids = body.ids ?? [];
      if (body.type === "Conversation") {
        const conversations = await visibleConversationsByDisplayId(ctx, ids);
        if (conversations.length) {
          await startBulkAction(ctx.deps, {
            accountId,
            userId,
            type: "Conversation",
            ids: conversations.map((c) => c.id),
            ...(body.fields ? { fields: body.fields } : {}),
            ...(body.labels ? { labels: body.labels } : {}),
            ...(body.snoozed_until ? { snoozedUntil: body.snoozed_until.toISOString() } : {}),
          });
        }
      } else if (body.type === "Contact") {
        const deleting = body.action_name === "delete";
        // Deleting contacts needs ContactPolicy#destroy?, an administrator's.
        if (deleting && ctx.state.membership?.role !== "administrator") throw PermissionDenied();
        // Neither a delete nor labels to add: Contacts::BulkActionService does nothing.
        const contactIds = deleting || body.labels?.add?.length ? await accountContactIds(ctx, ids) : [];
        if (contactIds.length) {
          await startBulkAction(ctx.deps, {
            accountId,
            userId,
            type: "Contact",
            ids: contactIds,
            ...(deleting ? { actionName: "delete" as const } : { labels: { add: body.labels!.add! } }),
          });
        }
      } else {
        throw new ApiError(422, { success: false });
      }
      headOk(ctx);
    },
  );
}
