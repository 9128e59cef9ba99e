import type { Knex } from "knex";
import type { AgentBot } from "../models/AgentBot";
import type { Conversation } from "../models/Conversation";
import type { User } from "../models/User";
import { contactPushEventData } from "../presenters/contact";
import { conversationWebhookData } from "../presenters/conversation";
import { agentBotPushEventData, userPushEventData } from "../presenters/message";
import { loadConversationGraph } from "../conversations/graph";
import { recordEvent } from "../events/outbox";

/*
 * The events that exist only to be seen live (Chatwoot's conversation.typing_on/off and
 * conversation.read): recorded in the outbox like every other, so that every API process pushes them.
 */

/** Who is typing: an agent (with their availability), an agent bot, or the conversation's contact. */
export type Typist = { kind: "user"; user: User; availability: string } | { kind: "agent_bot"; bot: AgentBot } | { kind: "contact" };

/** Records conversation.typing_on or _off; any other status is ignored, as Chatwoot's case statement does. */
export async function recordTyping(db: Knex, conversation: Conversation, typist: Typist, typingStatus: string | undefined, isPrivate = false): Promise<void> {
  if (typingStatus !== "on" && typingStatus !== "off") return;
  const graph = await loadConversationGraph(db, conversation);
  const user =
    typist.kind === "user"
      ? userPushEventData(typist.user, typist.availability)
      : typist.kind === "agent_bot"
        ? agentBotPushEventData(typist.bot, graph.inbox)
        : graph.contact && contactPushEventData(graph.contact);
  // The typist's own subscription is not told.
  const actorToken = typist.kind === "user" ? typist.user.pubsub_token : typist.kind === "contact" ? graph.contactInbox?.pubsub_token : null;
  await db.transaction((trx) =>
    recordEvent(trx, {
      accountId: conversation.account_id,
      inboxId: conversation.inbox_id,
      conversationId: conversation.id,
      name: "conversation_typing",
      payload: { status: typingStatus, conversation: conversationWebhookData(graph), user, is_private: isPrivate, actor_token: actorToken ?? null },
    }),
  );
}

/** Records conversation.read: an agent read the conversation (its payload is the conversation as it now is). */
export async function recordRead(db: Knex, conversation: Conversation): Promise<void> {
  const graph = await loadConversationGraph(db, conversation);
  await db.transaction((trx) =>
    recordEvent(trx, {
      accountId: conversation.account_id,
      inboxId: conversation.inbox_id,
      conversationId: conversation.id,
      name: "conversation_read",
      payload: conversationWebhookData(graph),
    }),
  );
}
