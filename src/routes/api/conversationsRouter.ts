import { ApiRouter } from "../../http/router";
import { accountScope } from "../../middlewares/accountScope";
import { authenticateApplication } from "../../middlewares/authentication";
import { registerMessageRoutes } from "./messages/messages";
import { registerConversationActionRoutes } from "./conversations/conversationActions";
import { registerConversationAttachmentRoutes } from "./conversations/attachments";
import { registerConversationAttributeRoutes } from "./conversations/attributes";
import { registerContactConversationRoutes } from "./conversations/contactConversations";
import { registerConversationRoutes } from "./conversations/conversations";
import { registerConversationParticipantRoutes } from "./conversations/participants";
import { registerTranscriptRoute } from "./conversations/transcript";
import { registerDraftMessageRoutes } from "./conversations/draftMessages";

/**
 * Conversations and messages, where agent bots may call Chatwoot's BOT_ACCESSIBLE_ENDPOINTS with
 * their own token; every other route of this router refuses bots (usersOnly).
 */
export function conversationsRouter(): ApiRouter {
  const router = new ApiRouter("/api/v1", {
    tag: "Conversations",
    security: ["userApiKey", "agentBotApiKey"],
    middleware: [authenticateApplication("user_or_bot"), accountScope],
  });
  registerConversationRoutes(router);
  registerConversationActionRoutes(router);
  registerConversationAttributeRoutes(router);
  registerConversationParticipantRoutes(router);
  registerConversationAttachmentRoutes(router);
  registerMessageRoutes(router);
  registerContactConversationRoutes(router);
  registerTranscriptRoute(router);
  registerDraftMessageRoutes(router);
  return router;
}
