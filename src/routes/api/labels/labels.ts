import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams } from "../../../http/schemas";
import { headOk } from "../../../http/headOk";
import { Label } from "../../../models/Label";
import { authorize, requireAdministrator } from "../../../policies";
import { presentLabel } from "../../../presenters/label";
import { auditActor } from "../../../services/audit";
import { createLabel, destroyLabel, findLabel, setContactLabels, updateLabel } from "../../../services/labels";
import { Contact } from "../../../models/Contact";
import { NotFound } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { contactLabelsBody, contactLabelsEnvelope, labelCreate, labelListEnvelope, labelResponse, labelUpdate } from "./schema";

const member = (ctx: AppContext) => authorize(ctx, "administrator", "agent");

async function findContact(ctx: AppContext, id: number): Promise<Contact> {
  const contact = await Contact.findInAccount(ctx.state.account!.id, id);
  if (!contact) throw NotFound();
  return contact;
}

/** /contacts/:contact_id/labels (Chatwoot's LabelConcern): the contact's label titles, listed or replaced. */
export function registerContactLabelRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/contacts/:id/labels";
  router.route(
    { authorize: member, method: "get", path, summary: "List a contact's labels", params: accountResourceParams, response: contactLabelsEnvelope },
    async (ctx, { params }) => {
      ctx.body = { payload: (await findContact(ctx, params.id)).labels };
    },
  );
  router.route(
    {
      authorize: member,
      method: "post",
      path,
      summary: "Replace a contact's labels",
      params: accountResourceParams,
      body: contactLabelsBody,
      response: contactLabelsEnvelope,
    },
    async (ctx, { params, body }) => {
      ctx.body = { payload: await setContactLabels(await findContact(ctx, params.id), body.labels) };
    },
  );
}

/** /api/v1/accounts/:account_id/labels (Chatwoot's LabelsController and LabelPolicy: members list, administrators manage). */
export function registerLabelRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/labels";

  router.route(
    { authorize: member, method: "get", path, summary: "List the account's labels", params: accountParams, response: labelListEnvelope },
    async (ctx) => {
      const labels = await Label.query().where("account_id", ctx.state.account!.id).orderBy("id");
      ctx.body = { payload: labels.map(presentLabel) };
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "get", path: `${path}/:id`, summary: "Get a label", params: accountResourceParams, response: labelResponse },
    async (ctx, { params }) => {
      ctx.body = presentLabel(await findLabel(ctx.state.account!.id, params.id));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Create a label (titles are downcased and unique in the account)",
      params: accountParams,
      body: labelCreate,
      response: labelResponse,
    },
    async (ctx, { body }) => {
      ctx.body = presentLabel(await createLabel(ctx.state.account!.id, body, auditActor(ctx)));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update a label; a new title is carried to the conversations and contacts that have the old one",
      params: accountResourceParams,
      body: labelUpdate,
      response: labelResponse,
    },
    async (ctx, { params, body }) => {
      const label = await findLabel(ctx.state.account!.id, params.id);
      ctx.body = presentLabel(await updateLabel(label, body, auditActor(ctx)));
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "delete", path: `${path}/:id`, summary: "Delete a label", params: accountResourceParams },
    async (ctx, { params }) => {
      await destroyLabel(await findLabel(ctx.state.account!.id, params.id), auditActor(ctx));
      headOk(ctx);
    },
  );
}
