import { NotFound } from "../../../errors";
import type { ApiRouter } from "../../../http/router";
import { accountResourceParams } from "../../../http/schemas";
import { Contact } from "../../../models/Contact";
import { contactConversations } from "../../../conversations/list";
import { usersOnly, viewerOf } from "../../../policies/conversations";
import { presentConversations } from "./present";
import { conversationsPayload } from "./schema";

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
      const conversations = await contactConversations(ctx.deps.knex, viewerOf(ctx), contact.id);
      ctx.body = { payload: await presentConversations(ctx, conversations) };
    },
  );
}
