import { purgeDeletedFilesQuietly } from "../../../services/attachments";
import { CouldNotProcess, NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams, pageNumber } from "../../../http/schemas";
import { uuid } from "../../../lib/tokens";
import { Contact } from "../../../models/Contact";
import { ContactInbox, type SlimInboxRow } from "../../../models/ContactInbox";
import { Batch } from "../../../db/batch";
import { Inbox } from "../../../models/Inbox";
import { authorize, requireAdministrator } from "../../../policies";
import { canSeeInbox, refuseUnseenInbox } from "../../../policies/inboxes";
import { presentContact } from "../../../presenters/contact";
import { inboxRecord, presentInbox } from "../../../presenters/inbox";
import { createContact, removeCustomAttributes, updateContact } from "../../../services/contacts";
import { filterCondition } from "../../../services/filters/sql";
import { headOk } from "../../../http/headOk";
import {
  contactableInboxesEnvelope,
  contactCreate,
  contactCreateEnvelope,
  contactEnvelope,
  contactListEnvelope,
  contactFilterQuery,
  contactListQuery,
  contactSearchEnvelope,
  contactSearchQuery,
  contactUpdate,
  removeCustomAttributesBody,
} from "./schema";
import { connectedContactIds } from "../../../realtime/presence";
import { withUploadedAvatar } from "../../../services/avatars";
import { ordered, PER_PAGE, presentContacts } from "./contactLists";
import { filterRequest } from "../../../schemas/filter";

const canUseContacts = (ctx: AppContext) => authorize(ctx, "administrator", "agent");

async function findContact(ctx: AppContext, id: number): Promise<Contact> {
  canUseContacts(ctx);
  const contact = await Contact.findInAccount(ctx.state.account!.id, id);
  if (!contact) throw NotFound();
  return contact;
}

/** Where a new conversation with the contact could go: Contacts::ContactableInboxesService for API and widget inboxes. */
async function contactableInboxes(ctx: AppContext, contact: Contact) {
  const inboxes = await Inbox.ofAccount(contact.account_id);
  const channels = await Inbox.channelsOf(inboxes);
  const administrator = ctx.state.membership?.role === "administrator";
  const result = [];
  for (const inbox of inboxes) {
    if (!(await canSeeInbox(ctx, inbox))) continue;
    const latest = await ContactInbox.query().findOne({ contact_id: contact.id, inbox_id: inbox.id }).orderBy("id", "desc");
    let sourceId: string | undefined;
    if (inbox.channel_type === "Channel::Api") sourceId = latest?.source_id ?? uuid();
    // A widget contact can only be reached in a session it opened and that has no conversation yet.
    else if (latest && !(await ContactInbox.knex()("conversations").where("contact_inbox_id", latest.id).first())) sourceId = latest.source_id;
    if (sourceId) result.push({ source_id: sourceId, inbox: presentInbox(inbox, channels.get(inbox.id)!, { administrator }) });
  }
  return result;
}

export function registerContactRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/contacts";

  router.route(
    {
      method: "get",
      path,
      summary: "List contacts with an email, phone number or identifier, 15 a page",
      params: accountParams,
      query: contactListQuery,
      response: contactListEnvelope,
    },
    async (ctx, { query }) => {
      canUseContacts(ctx);
      const page = pageNumber(query.page);
      // Chatwoot's resolved_contacts: anonymous visitors are not listed.
      const resolved = Contact.query()
        .where("account_id", ctx.state.account!.id)
        .where((q) => q.where("email", "<>", "").orWhere("phone_number", "<>", "").orWhere("identifier", "<>", ""));
      // tagged_with(labels, any: true)
      if (query.labels?.length) resolved.whereRaw("labels && ?::text[]", [query.labels]);
      const count = await resolved.clone().resultSize();
      const contacts = await ordered(resolved, query.sort)
        .limit(PER_PAGE)
        .offset((page - 1) * PER_PAGE);
      ctx.body = {
        meta: { count, current_page: query.page ?? 1 },
        payload: await presentContacts(contacts, query.include_contact_inboxes !== "false"),
      };
    },
  );

  router.route(
    {
      method: "get",
      path: `${path}/search`,
      summary: "Search contacts by name, email, phone number, identifier or id",
      params: accountParams,
      query: contactSearchQuery,
      response: contactSearchEnvelope,
    },
    async (ctx, { query }) => {
      canUseContacts(ctx);
      const q = query.q?.trim();
      if (!q) throw CouldNotProcess("Specify search string with parameter q");
      const page = pageNumber(query.page);
      const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const matches = Contact.query()
        .where("account_id", ctx.state.account!.id)
        .where((w) => {
          w.where("name", "ilike", pattern).orWhere("email", "ilike", pattern).orWhere("phone_number", "ilike", pattern).orWhere("identifier", "like", pattern);
          if (/^\d{1,15}$/.test(q)) w.orWhere("id", Number(q));
        });
      // One extra row tells whether another page follows.
      const rows = await ordered(matches, query.sort)
        .limit(PER_PAGE + 1)
        .offset((page - 1) * PER_PAGE);
      const contacts = rows.slice(0, PER_PAGE);
      ctx.body = {
        meta: { count: contacts.length, current_page: query.page ?? 1, has_more: rows.length > PER_PAGE },
        payload: await presentContacts(contacts, query.include_contact_inboxes !== "false"),
      };
    },
  );

  router.route(
    {
      method: "post",
      path: `${path}/filter`,
      summary: "Contacts matching Chatwoot's filter payload, 15 a page",
      params: accountParams,
      query: contactFilterQuery,
      body: filterRequest,
      response: contactListEnvelope,
    },
    async (ctx, { query, body }) => {
      canUseContacts(ctx);
      const accountId = ctx.state.account!.id;
      const where = await filterCondition(ctx.deps.knex, accountId, "contact", body.payload);
      const matches = Contact.query()
        .where("contacts.account_id", accountId)
        .whereRaw(where.sql, where.bindings as never);
      const count = await matches.clone().resultSize();
      const currentPage = query.page ?? body.page ?? 1;
      const contacts = await ordered(matches, query.sort)
        .limit(PER_PAGE)
        .offset((pageNumber(currentPage) - 1) * PER_PAGE);
      ctx.body = { meta: { count, current_page: currentPage }, payload: await presentContacts(contacts, query.include_contact_inboxes !== "false") };
    },
  );

  router.route(
    {
      method: "post",
      path,
      summary: "Create a contact (with a contact inbox when inbox_id is given)",
      multipart: true,
      params: accountParams,
      body: contactCreate,
      response: contactCreateEnvelope,
    },
    async (ctx, { body: { avatar, ...body } }) => {
      canUseContacts(ctx);
      const account = ctx.state.account!;
      if (body.inbox_id !== undefined) await refuseUnseenInbox(ctx, body.inbox_id);
      const { contact, contactInbox } = await withUploadedAvatar(account.id, "contact", avatar, (stored) =>
        createContact(Contact.knex(), account, { ...body, ...stored }),
      );
      ctx.body = {
        payload: {
          contact: (await presentContacts([contact]))[0],
          contact_inbox: { inbox: contactInbox ? inboxRecord(contactInbox.inbox) : null, source_id: contactInbox?.contactInbox.source_id ?? null },
        },
      };
    },
  );

  router.route(
    { method: "get", path: `${path}/:id`, summary: "Get a contact", params: accountResourceParams, response: contactEnvelope },
    async (ctx, { params }) => {
      canUseContacts(ctx);
      // Both in one round trip: the inboxes are only shown once the contact is known to be the account's.
      const batch = new Batch(Contact.knex());
      const contacts = batch.modelsWhere(Contact, "id", [params.id], { account_id: ctx.state.account!.id });
      const inboxes = batch.rows<SlimInboxRow>(ContactInbox.slimInboxesSql([params.id]));
      await batch.run();
      const [contact] = await contacts;
      if (!contact) throw NotFound();
      const online = await connectedContactIds(Contact.knex(), contact.account_id, [contact.id]);
      ctx.body = { payload: presentContact(contact, ContactInbox.slimInboxesByContact([contact.id], await inboxes).get(contact.id), online.has(contact.id)) };
    },
  );

  router.route(
    {
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update a contact; custom and additional attributes merge",
      multipart: true,
      params: accountResourceParams,
      body: contactUpdate,
      response: contactEnvelope,
    },
    async (ctx, { params, body: { avatar, ...body } }) => {
      const contact = await findContact(ctx, params.id);
      const account = ctx.state.account!;
      const updated = await withUploadedAvatar(account.id, "contact", avatar, (stored) =>
        updateContact(Contact.knex(), account, contact.id, { ...body, ...stored }),
      );
      if (avatar) await purgeDeletedFilesQuietly(ctx.deps.knex, account.id);
      ctx.body = { payload: (await presentContacts([updated]))[0] };
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "delete",
      path: `${path}/:id`,
      summary: "Delete a contact with its conversations",
      params: accountResourceParams,
    },
    async (ctx, { params }) => {
      const contact = await findContact(ctx, params.id);
      await Contact.transaction((trx) => contact.destroyWithDependents(trx));
      await purgeDeletedFilesQuietly(ctx.deps.knex, contact.account_id);
      headOk(ctx);
    },
  );

  router.route(
    {
      method: "post",
      path: `${path}/:id/destroy_custom_attributes`,
      summary: "Remove custom attributes from a contact",
      params: accountResourceParams,
      body: removeCustomAttributesBody,
      response: contactEnvelope,
    },
    async (ctx, { params, body }) => {
      const contact = await findContact(ctx, params.id);
      const updated = await removeCustomAttributes(Contact.knex(), ctx.state.account!, contact.id, body.custom_attributes);
      ctx.body = { payload: (await presentContacts([updated]))[0] };
    },
  );

  router.route(
    {
      method: "get",
      path: `${path}/:id/contactable_inboxes`,
      summary: "Inboxes a conversation with the contact can be started in",
      params: accountResourceParams,
      response: contactableInboxesEnvelope,
    },
    async (ctx, { params }) => {
      const contact = await findContact(ctx, params.id);
      ctx.body = { payload: await contactableInboxes(ctx, contact) };
    },
  );
}
