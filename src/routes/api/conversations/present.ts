import type { AppContext } from "../../../http/context";
import type { Conversation } from "../../../models/Conversation";
import { presentConversation } from "../../../presenters/conversation";
import { loadListed } from "../../../services/conversationList";
import { userIdOf } from "./access";

export async function presentConversations(ctx: AppContext, conversations: Conversation[]) {
  const { id, name } = ctx.state.account!;
  const { graphs, viewerTeamIds } = await loadListed(ctx.deps.knex, conversations, { account: { id, name }, userId: userIdOf(ctx) });
  return graphs.map((graph) => presentConversation(graph, viewerTeamIds));
}

export async function presentOne(ctx: AppContext, conversation: Conversation) {
  const [presented] = await presentConversations(ctx, [conversation]);
  return presented;
}
