import type { AppContext } from "../../http/context";
import { type ApiRouter, UPDATE } from "../../http/router";
import { uuid } from "../../lib/tokens";
import { Contact } from "../../models/Contact";
import { contactRecord, publicContact } from "../../presenters/publicApi";
import { identifyContact } from "../../services/contactMerge";
import { findOrCreateInboxContact } from "../../services/contacts";
import { findPublicContactInbox, processHmac } from "../../services/publicApi";
import { contactParams, contactRecordResponse, identityQuery, inboxParams, publicContactCreate, publicContactResponse, publicContactUpdate } from "./schema";

const scopeOf = (ctx: AppContext) => ctx.state.apiInbox!;

export function registerPublicContactRoutes(router: ApiRouter) {
  const path = "/contacts";
  const one = `${path}/:contact_identifier`;

  router.route(
    {
      method: "post",
      path,
      summary: "Create a contact (or find the inbox's contact with that source_id, identifier, email or phone)",
      multipart: true,
      params: inboxParams,
      body: publicContactCreate,
      response: publicContactResponse,
    },
    async (ctx, { body }) => {
      const scope = scopeOf(ctx);
      await processHmac(ctx.deps.knex, scope, undefined, body);
      const { source_id, identifier_hash: _hash, ...attributes } = body;
      const { contact, contactInbox } = await findOrCreateInboxContact(ctx.deps.knex, scope.account, scope.inbox, source_id ?? uuid(), attributes);
      ctx.body = publicContact(contactInbox, contact);
    },
  );

  router.route(
    { method: "get", path: one, summary: "Get the contact of a source_id", params: contactParams, query: identityQuery, response: publicContactResponse },
    async (ctx, { params, query }) => {
      const scope = scopeOf(ctx);
      const contactInbox = (await processHmac(ctx.deps.knex, scope, await findPublicContactInbox(ctx.deps.knex, scope, params.contact_identifier), query))!;
      ctx.body = publicContact(contactInbox, await Contact.query(ctx.deps.knex).findById(contactInbox.contact_id).throwIfNotFound());
    },
  );

  router.route(
    {
      method: UPDATE,
      path: one,
      summary: "Update the contact of a source_id (merged into the contact that has its new email or phone); custom attributes merge",
      multipart: true,
      params: contactParams,
      body: publicContactUpdate,
      response: contactRecordResponse,
    },
    async (ctx, { params, body }) => {
      const scope = scopeOf(ctx);
      const contactInbox = (await processHmac(ctx.deps.knex, scope, await findPublicContactInbox(ctx.deps.knex, scope, params.contact_identifier), body))!;
      // Chatwoot leaves the identifier alone here: only a verified widget session may set it.
      const { identifier: _identifier, identifier_hash: _hash, ...attributes } = body;
      const contact = await Contact.query(ctx.deps.knex).findById(contactInbox.contact_id).throwIfNotFound();
      ctx.body = contactRecord(await identifyContact(ctx.deps.knex, scope.account, contact, attributes));
    },
  );
}
