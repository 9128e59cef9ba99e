import { z } from "zod";
import { NotFound } from "../../../errors";
import type { ApiRouter } from "../../../http/router";
import { accountParams, accountResourceParams, id, idOrAbsent } from "../../../http/schemas";
import { Contact } from "../../../models/Contact";
import { ContactInbox } from "../../../models/ContactInbox";
import { Inbox } from "../../../models/Inbox";
import { authorize } from "../../../policies";
import { findVisibleInbox } from "../../../policies/inboxes";
import { presentInbox } from "../../../presenters/inbox";
import { inboxResponse } from "../../../schemas/inbox";
import { contactResponse } from "../../../schemas/contact";
import { presentContacts } from "./contactLists";

/** A source id as clients send it: text, or a number (phone-like ids) taken as its digits. */
const sourceId = () => z.union([z.string().max(255), z.number().transform(String)]);

const contactInboxFilterBody = z.object({ inbox_id: idOrAbsent().optional(), source_id: sourceId().nullable().optional() }).openapi("ContactInboxFilter");

const contactInboxBody = z.object({ inbox_id: id().optional(), source_id: z.string().trim().max(255).optional() }).openapi("ContactInboxCreate");

/**
 * POST contacts/:id/contact_inboxes (Chatwoot's Contacts::ContactInboxesController): links the contact
 * to an inbox of the account under source_id (a UUID when absent); answers the contact_inbox partial.
 * The same source for the same contact is the existing link; for another contact it is 422.
 */
export function registerContactInboxRoutes(router: ApiRouter) {
  router.route(
    {
      authorize: (ctx) => authorize(ctx, "administrator", "agent"),
      method: "post",
      path: "/accounts/:account_id/contacts/:id/contact_inboxes",
      summary: "Link a contact to an inbox with a source id",
      params: accountResourceParams,
      body: contactInboxBody,
      response: z.object({ source_id: z.string(), inbox: inboxResponse }).openapi("ContactInbox"),
    },
    async (ctx, { params, body }) => {
      const accountId = ctx.state.account!.id;
      const contact = await Contact.findInAccount(accountId, params.id);
      if (!contact) throw NotFound();
      // Chatwoot's inboxes.find(params[:inbox_id]): a missing id is as unknown as a wrong one; an
      // agent links contacts only to inboxes they are a member of.
      if (!body.inbox_id) throw NotFound();
      const inbox = await findVisibleInbox(ctx, body.inbox_id);
      const contactInbox = await ContactInbox.transaction((trx) => ContactInbox.findOrCreate(trx, contact.id, inbox, body.source_id));
      const channel = (await Inbox.channelsOf([inbox])).get(inbox.id)!;
      ctx.body = { source_id: contactInbox.source_id, inbox: presentInbox(inbox, channel, { administrator: ctx.state.membership?.role === "administrator" }) };
    },
  );

  router.route(
    {
      authorize: (ctx) => authorize(ctx, "administrator", "agent"),
      method: "post",
      path: "/accounts/:account_id/contact_inboxes/filter",
      summary: "The contact an inbox knows by a source id (404 with an empty body when it knows none)",
      params: accountParams,
      body: contactInboxFilterBody,
      response: contactResponse,
    },
    async (ctx, { body }) => {
      // Chatwoot's ensure_inbox: inboxes.find(inbox_id) (404 when absent or another account's), then
      // InboxPolicy#show? (401 for an agent outside the inbox).
      if (!body.inbox_id) throw NotFound();
      const inbox = await findVisibleInbox(ctx, body.inbox_id);
      const source = body.source_id;
      const contactInbox = source?.trim() ? await ContactInbox.query().findOne({ inbox_id: inbox.id, source_id: source }) : undefined;
      const contact = contactInbox && (await Contact.findInAccount(inbox.account_id, contactInbox.contact_id));
      if (!contact) {
        // head :not_found
        ctx.status = 404;
        ctx.body = "";
        return;
      }
      ctx.body = (await presentContacts([contact]))[0];
    },
  );
}
