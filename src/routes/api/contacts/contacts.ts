import type { QueryBuilder } from "objection";
import { CouldNotProcess, NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import type { ApiRouter } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { uuid } from "../../../lib/tokens";
import { Contact } from "../../../models/Contact";
import { ContactInbox, type SlimInboxRow } from "../../../models/ContactInbox";
import { Trip } from "../../../db/trip";
import { Inbox } from "../../../models/Inbox";
import { authorize, requireAdministrator } from "../../../policies";
import { canSeeInbox } from "../../../policies/inboxes";
import { presentContact } from "../../../presenters/contact";
import { inboxRecord, presentInbox } from "../../../presenters/inbox";
import { createContact, removeCustomAttributes, updateContact } from "../../../services/contacts";
import { headOk } from "../../../http/headOk";
import {
  contactableInboxesEnvelope,
  contactCreate,
  contactCreateEnvelope,
  contactEnvelope,
  contactListEnvelope,
  contactListQuery,
  contactSearchEnvelope,
  contactSearchQuery,
  contactUpdate,
  removeCustomAttributesBody,
} from "./schema";

const PER_PAGE = 15;

const canUseContacts = (ctx: AppContext) => authorize(ctx, "administrator", "agent");

async function findContact(ctx: AppContext, id: number): Promise<Contact> {
  canUseContacts(ctx);
  const contact = await Contact.findInAccount(ctx.state.account!.id, id);
  if (!contact) throw NotFound();
  return contact;
}

/** Contacts as the contacts endpoints render them, with their contact inboxes unless include_contact_inboxes=false. */
async function presentContacts(contacts: Contact[], includeInboxes = true) {
  const inboxes = includeInboxes ? await ContactInbox.withInboxesOf(contacts.map((c) => c.id)) : undefined;
  return contacts.map((contact) => presentContact(contact, inboxes?.get(contact.id)));
}

/** Sift's `sort=name` / `sort=-name`; without one, the most recently active contacts first. */
function ordered(query: QueryBuilder<Contact, Contact[]>, sort: string | undefined) {
  if (!sort) return query.orderByRaw("last_activity_at DESC NULLS LAST, id DESC");
  const descending = sort.startsWith("-");
  const column = sort.replace(/^-/, "");
  return query.orderByRaw(`?? ${descending ? "DESC NULLS LAST" : "ASC NULLS FIRST"}, id`, [column]);
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
    { method: "get", path, summary: "List contacts with an email, phone number or identifier, 15 a page", params: accountParams, query: contactListQuery, response: contactListEnvelope },
    async (ctx, { query }) => {
      canUseContacts(ctx);
      const page = Number(query.page ?? 1);
      // Chatwoot's resolved_contacts: anonymous visitors are not listed.
      const resolved = Contact.query()
        .where("account_id", ctx.state.account!.id)
        .where((q) => q.where("email", "<>", "").orWhere("phone_number", "<>", "").orWhere("identifier", "<>", ""));
      const count = await resolved.clone().resultSize();
      const contacts = await ordered(resolved, query.sort).limit(PER_PAGE).offset((page - 1) * PER_PAGE);
      ctx.body = {
        meta: { count, current_page: query.page ?? 1 },
        payload: await presentContacts(contacts, query.include_contact_inboxes !== "false"),
      };
    },
  );

  router.route(
    { method: "get", path: `${path}/search`, summary: "Search contacts by name, email, phone number, identifier or id", params: accountParams, query: contactSearchQuery, response: contactSearchEnvelope },
    async (ctx, { query }) => {
      canUseContacts(ctx);
      const q = query.q?.trim();
      if (!q) throw CouldNotProcess("Specify search string with parameter q");
      const page = Number(query.page ?? 1);
      const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const matches = Contact.query()
        .where("account_id", ctx.state.account!.id)
        .where((w) => {
          w.where("name", "ilike", pattern).orWhere("email", "ilike", pattern).orWhere("phone_number", "ilike", pattern).orWhere("identifier", "like", pattern);
          if (/^\d{1,15}$/.test(q)) w.orWhere("id", Number(q));
        });
      // One extra row tells whether another page follows.
      const rows = await ordered(matches, query.sort).limit(PER_PAGE + 1).offset((page - 1) * PER_PAGE);
      const contacts = rows.slice(0, PER_PAGE);
      ctx.body = {
        meta: { count: contacts.length, current_page: query.page ?? 1, has_more: rows.length > PER_PAGE },
        payload: await presentContacts(contacts, query.include_contact_inboxes !== "false"),
      };
    },
  );

  router.route(
    { method: "post", path, summary: "Create a contact (with a contact inbox when inbox_id is given)", params: accountParams, body: contactCreate, response: contactCreateEnvelope },
    async (ctx, { body }) => {
      canUseContacts(ctx);
      const { contact, contactInbox } = await createContact(Contact.knex(), ctx.state.account!, body);
      ctx.body = {
        payload: {
          contact: (await presentContacts([contact]))[0],
          contact_inbox: { inbox: contactInbox ? inboxRecord(contactInbox.inbox) : null, source_id: contactInbox?.contactInbox.source_id ?? null },
        },
      };
    },
  );

  router.route({ method: "get", path: `${path}/:id`, summary: "Get a contact", params: accountResourceParams, response: contactEnvelope }, async (ctx, { params }) => {
    canUseContacts(ctx);
    // Both in one round trip: the inboxes are only shown once the contact is known to be the account's.
    const trip = new Trip(Contact.knex());
    const contacts = trip.models(Contact.query().where({ id: params.id, account_id: ctx.state.account!.id }));
    const inboxes = trip.rows<SlimInboxRow>(ContactInbox.slimInboxesQuery([params.id]));
    await trip.run();
    const [contact] = await contacts;
    if (!contact) throw NotFound();
    ctx.body = { payload: presentContact(contact, ContactInbox.slimInboxesByContact([contact.id], await inboxes).get(contact.id)) };
  });

  for (const method of ["patch", "put"] as const) {
    router.route(
      { method, path: `${path}/:id`, summary: "Update a contact; custom and additional attributes merge", params: accountResourceParams, body: contactUpdate, response: contactEnvelope },
      async (ctx, { params, body }) => {
        const contact = await findContact(ctx, params.id);
        const updated = await updateContact(Contact.knex(), ctx.state.account!, contact, body);
        ctx.body = { payload: (await presentContacts([updated]))[0] };
      },
    );
  }

  router.route({ authorize: requireAdministrator, method: "delete", path: `${path}/:id`, summary: "Delete a contact with its conversations", params: accountResourceParams }, async (ctx, { params }) => {
    const contact = await findContact(ctx, params.id);
    await Contact.transaction((trx) => contact.destroyWithDependents(trx));
    headOk(ctx);
  });

  router.route(
    { method: "post", path: `${path}/:id/destroy_custom_attributes`, summary: "Remove custom attributes from a contact", params: accountResourceParams, body: removeCustomAttributesBody, response: contactEnvelope },
    async (ctx, { params, body }) => {
      const contact = await findContact(ctx, params.id);
      const updated = await removeCustomAttributes(Contact.knex(), ctx.state.account!, contact, body.custom_attributes);
      ctx.body = { payload: (await presentContacts([updated]))[0] };
    },
  );

  router.route(
    { method: "get", path: `${path}/:id/contactable_inboxes`, summary: "Inboxes a conversation with the contact can be started in", params: accountResourceParams, response: contactableInboxesEnvelope },
    async (ctx, { params }) => {
      const contact = await findContact(ctx, params.id);
      ctx.body = { payload: await contactableInboxes(ctx, contact) };
    },
  );
}
