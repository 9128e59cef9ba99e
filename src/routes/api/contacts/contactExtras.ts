import { NotFound } from "../../../errors";
import type { ApiRouter } from "../../../http/router";
import { accountParams, accountResourceParams, pageNumber } from "../../../http/schemas";
import { Contact } from "../../../models/Contact";
import { requireMember } from "../../../policies";
import { onlineContactIdsSql } from "../../../realtime/presence";
import { purgeDeletedFilesQuietly } from "../../../services/attachments";
import { updateContact } from "../../../services/contacts";
import { NO_AVATAR } from "../../../services/avatars";
import { ordered, PER_PAGE, presentContacts } from "./contactLists";
import { contactEnvelope, contactListEnvelope, contactFilterQuery } from "./schema";

/** contacts/active and contacts/:id/avatar; registered before contacts/:id so `active` is not taken for an id. */
export function registerContactExtraRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/contacts";

  router.route(
    {
      authorize: requireMember,
      method: "get",
      path: `${path}/active`,
      summary: "The contacts online now (a widget or client connected), 15 a page",
      params: accountParams,
      query: contactFilterQuery,
      response: contactListEnvelope,
    },
    async (ctx, { query }) => {
      const online = onlineContactIdsSql(ctx.state.account!.id);
      const matches = Contact.query()
        .where("account_id", ctx.state.account!.id)
        .whereRaw(`id in (${online.text})`, online.values as number[]);
      const count = await matches.clone().resultSize();
      const contacts = await ordered(matches, query.sort)
        .limit(PER_PAGE)
        .offset((pageNumber(query.page) - 1) * PER_PAGE);
      ctx.body = { meta: { count, current_page: query.page ?? 1 }, payload: await presentContacts(contacts, query.include_contact_inboxes !== "false") };
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: "delete",
      path: `${path}/:id/avatar`,
      summary: "Remove the contact's avatar",
      params: accountResourceParams,
      response: contactEnvelope,
    },
    async (ctx, { params }) => {
      const account = ctx.state.account!;
      if (!(await Contact.findInAccount(account.id, params.id))) throw NotFound();
      const updated = await updateContact(Contact.knex(), account, params.id, NO_AVATAR);
      await purgeDeletedFilesQuietly(ctx.deps.knex, account.id);
      ctx.body = { payload: (await presentContacts([updated]))[0] };
    },
  );
}
