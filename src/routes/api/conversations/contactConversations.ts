import { NotFound } from "../../../errors";
import type { ApiRouter } from "../../../http/router";
import { accountResourceParams } from "../../../http/schemas";
import { Contact } from "../../../models/Contact";
import { Conversation } from "../../../models/Conversation";
import { accessibleInboxIds } from "../../../policies/inboxes";
import { usersOnly } from "./access";
import { presentConversations } from "./conversations";
import { conversationsPayload } from "./schema";

/** Chatwoot's contact conversations: the 20 most recently active, in the caller's inboxes. */
const LIMIT = 20;

export function registerContactConversationRoutes(router: ApiRouter) {
  router.route(
    {
      method: "get",
      path: "/accounts/:account_id/contacts/:id/conversations",
      summary: "Conversations of a contact",
      params: accountResourceParams,
      response: conversationsPayload,
      middleware: [usersOnly],
    },
    async (ctx, { params }) => {
      const accountId = ctx.state.account!.id;
      const contact = await Contact.findInAccount(accountId, params.id);
      if (!contact) throw NotFound();
      const conversations = await Conversation.ofAccount(accountId)
        .where("contact_id", contact.id)
        .whereIn("inbox_id", await accessibleInboxIds(ctx))
        .orderBy([
          { column: "last_activity_at", order: "desc" },
          { column: "id", order: "desc" },
        ])
        .limit(LIMIT);
      ctx.body = { payload: await presentConversations(ctx, conversations) };
    },
  );
}
