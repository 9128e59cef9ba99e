import type { ApiRouter } from "../../../../http/router";
import { accountParams } from "../../../../http/schemas";
import { presentSchedulingContact } from "../../../../presenters/scheduling/contacts";
import { createOrEnrichContact, findContact, searchContacts, updateContact } from "../../../../scheduling/contacts";
import { created, list, mustExist, ok } from "../respond";
import { accountItemParams, many, one } from "../common";
import { contactBody, contactResponse, contactsQuery } from "./schema";

export function registerContactRoutes(router: ApiRouter, base: string) {
  const path = `${base}/contacts`;

  router.route(
    { method: "get", path, summary: "List or search scheduling contacts", params: accountParams, query: contactsQuery, response: many(contactResponse) },
    async (ctx, { query }) => {
      list(ctx, (await searchContacts(ctx.state.account!.id, query.search, query.limit)).map(presentSchedulingContact));
    },
  );

  router.route(
    { method: "get", path: `${path}/:id`, summary: "Get a scheduling contact", params: accountItemParams, response: one(contactResponse) },
    async (ctx, { params }) => ok(ctx, presentSchedulingContact(await mustExist(findContact(ctx.state.account!.id, params.id), "Contact"))),
  );

  router.route(
    {
      method: "post",
      path,
      summary: "Create a scheduling contact, or enrich the one with the same identifier or phone (200)",
      params: accountParams,
      body: contactBody,
      response: one(contactResponse),
      status: 201,
    },
    async (ctx, { body }) => {
      const { contact, created: isNew } = await createOrEnrichContact(ctx.state.account!, body);
      (isNew ? created : ok)(ctx, presentSchedulingContact(contact));
    },
  );

  router.route(
    {
      method: "patch",
      path: `${path}/:id`,
      summary: "Update a scheduling contact",
      params: accountItemParams,
      body: contactBody,
      response: one(contactResponse),
    },
    async (ctx, { params, body }) => {
      ok(ctx, presentSchedulingContact(await mustExist(updateContact(ctx.state.account!, params.id, body), "Contact")));
    },
  );
}
