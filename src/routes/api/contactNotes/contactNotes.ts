import { z } from "zod";
import { NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { headOk } from "../../../http/headOk";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { Contact } from "../../../models/Contact";
import { requireMember } from "../../../policies";
import { userIdOf } from "../../../policies/conversations";
import { createNote, destroyNote, findNote, listNotes, presentNotes, updateNote } from "../../../services/contactNotes";
import { contactParams, noteBody, noteParams, noteResponse } from "./schema";

// Chatwoot's notes controller checks no policy beyond the contact being the account's: any member.
async function contactOf(ctx: AppContext, contactId: number): Promise<Contact> {
  const contact = await Contact.findInAccount(ctx.state.account!.id, contactId);
  if (!contact) throw NotFound();
  return contact;
}

export function registerContactNoteRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/contacts/:contact_id/notes";
  const present = async (ctx: AppContext, notes: Parameters<typeof presentNotes>[1]) => presentNotes(ctx.state.account!.id, notes);

  router.route(
    { authorize: requireMember, method: "get", path, summary: "The contact's notes, newest first", params: contactParams, response: z.array(noteResponse) },
    async (ctx, { params }) => {
      ctx.body = await present(ctx, await listNotes(await contactOf(ctx, params.contact_id)));
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: "post",
      path,
      summary: "Add a note to the contact, by the caller",
      params: contactParams,
      body: noteBody,
      response: noteResponse,
    },
    async (ctx, { params, body }) => {
      const note = await createNote(await contactOf(ctx, params.contact_id), userIdOf(ctx), body.content);
      [ctx.body] = await present(ctx, [note]);
    },
  );

  router.route(
    { authorize: requireMember, method: "get", path: `${path}/:id`, summary: "One note of the contact", params: noteParams, response: noteResponse },
    async (ctx, { params }) => {
      [ctx.body] = await present(ctx, [await findNote(await contactOf(ctx, params.contact_id), params.id)]);
    },
  );

  router.route(
    {
      authorize: requireMember,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Change a note's content (blank content is not saved, as in Chatwoot)",
      params: noteParams,
      body: noteBody,
      response: noteResponse,
    },
    async (ctx, { params, body }) => {
      [ctx.body] = await present(ctx, [await updateNote(await contactOf(ctx, params.contact_id), params.id, body.content)]);
    },
  );

  router.route({ authorize: requireMember, method: "delete", path: `${path}/:id`, summary: "Delete a note", params: noteParams }, async (ctx, { params }) => {
    await destroyNote(await contactOf(ctx, params.contact_id), params.id);
    headOk(ctx);
  });
}
