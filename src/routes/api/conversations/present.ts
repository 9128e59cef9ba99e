import type { AppContext } from "../../../http/context";
import { Conversation } from "../../../models/Conversation";
import { presentConversation } from "../../../presenters/conversation";
import type { ConversationsToLoad } from "../../../conversations/graph";
import { loadListed } from "../../../conversations/list";
import { userIdOf, visibleTo } from "../../../policies/conversations";

function loadFor(ctx: AppContext, toLoad: ConversationsToLoad) {
  const { id, name } = ctx.state.account!;
  return loadListed(ctx.deps.knex, toLoad, { account: { id, name }, userId: userIdOf(ctx) });
}

export async function presentConversations(ctx: AppContext, conversations: Conversation[]) {
  const { graphs, viewerTeamIds } = await loadFor(ctx, conversations);
  return graphs.map((graph) => presentConversation(graph, viewerTeamIds));
}

export async function presentOne(ctx: AppContext, conversation: Conversation) {
  const [presented] = await presentConversations(ctx, [conversation]);
  return presented;
}

/**
 * GET one: the conversation read by its display id in the same round trip as what it shows, then
 * refused as findConversation refuses it.
 */
export async function presentShown(ctx: AppContext, displayId: number) {
  const accountId = ctx.state.account!.id;
  const { graphs, viewerTeamIds } = await loadFor(ctx, { accountId, where: Conversation.byDisplayIdSql(accountId, displayId) });
  await visibleTo(ctx, graphs[0]?.conversation);
  return presentConversation(graphs[0]!, viewerTeamIds);
}
