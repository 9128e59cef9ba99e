import { PermissionDenied } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { Conversation } from "../../../models/Conversation";
import { canSeeInbox, refuseUnseenInbox } from "../../../policies/inboxes";

/**
 * A booking posts into the conversation it names and opens one in the inbox it names: an agent may
 * name only conversations and inboxes of the inboxes they are a member of (401 otherwise, as the
 * conversation routes answer). Missing ones are left to the booking's own 404.
 */
export async function refuseUnseenConversationOrInbox(ctx: AppContext, input: { conversation_id?: number | null; inbox_id?: number }): Promise<void> {
  if (input.conversation_id) {
    const conversation = await Conversation.findByDisplayId(ctx.state.account!.id, input.conversation_id);
    if (conversation && !(await canSeeInbox(ctx, { id: conversation.inbox_id }))) throw PermissionDenied();
  }
  if (input.inbox_id) await refuseUnseenInbox(ctx, input.inbox_id);
}
