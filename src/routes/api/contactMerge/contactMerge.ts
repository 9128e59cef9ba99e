import type { ApiRouter } from "../../../http/router";
import { accountParams } from "../../../http/schemas";
import { Contact } from "../../../models/Contact";
import { authorize } from "../../../policies";
import { presentContact } from "../../../presenters/contact";
import { mergeContacts } from "../../../services/contactMerge";
import { contactMergeBody } from "./schema";
import { contactResponse } from "../../../schemas/contact";

export function registerContactMergeRoutes(router: ApiRouter) {
  router.route(
    {
      method: "post",
      path: "/accounts/:account_id/actions/contact_merge",
      summary: "Merge the mergee contact into the base contact and delete the mergee",
      params: accountParams,
      body: contactMergeBody,
      response: contactResponse,
    },
    async (ctx, { body }) => {
      authorize(ctx, "administrator", "agent");
      const base = await mergeContacts(Contact.knex(), ctx.state.account!, body.base_contact_id, body.mergee_contact_id);
      ctx.body = presentContact(base);
    },
  );
}
