import type { ApiRouter } from "../../../http/router";
import { UPDATE } from "../../../http/router";
import type { Contact } from "../../../models/Contact";
import { contactRecord } from "../../../presenters/publicApi";
import { removeCustomAttributes } from "../../../services/contacts";
import { identifyVisitor, setVisitorUser } from "../../../services/widgetContact";
import { issueWidgetToken } from "../../../services/widgetTokens";
import { websiteTokenQuery } from "../../../schemas/widget";
import { requireVisitor } from "../../../middlewares/widgetSession";
import { widgetContactBody, widgetContactResponse, widgetContactShowResponse, widgetCustomAttributeKeysBody } from "./schema";

const updated = (contact: Contact) => ({ id: contact.id, name: contact.name, email: contact.email, phone_number: contact.phone_number });

export function registerWidgetContactRoutes(router: ApiRouter) {
  const path = "/contact";

  router.route(
    {
      method: "get",
      path,
      summary: "What the widget knows of its visitor",
      query: websiteTokenQuery,
      response: widgetContactShowResponse,
      middleware: [requireVisitor],
    },
    async (ctx) => {
      const { contact } = ctx.state.visitor!;
      ctx.body = {
        id: contact.id,
        has_email: Boolean(contact.email),
        has_name: Boolean(contact.name),
        has_phone_number: Boolean(contact.phone_number),
        identifier: contact.identifier,
      };
    },
  );

  router.route(
    {
      method: UPDATE,
      path,
      summary: "Update the visitor (the account's contact with that email or phone absorbs it); custom attributes merge",
      query: websiteTokenQuery,
      body: widgetContactBody,
      response: widgetContactResponse,
      middleware: [requireVisitor],
    },
    async (ctx, { body }) => {
      // The identifier is the site's word for a signed-in user: only set_user, which can check its hash, takes it.
      const { website_token: _token, identifier: _identifier, identifier_hash: _hash, ...attributes } = body;
      const { account } = ctx.state.webWidget!;
      ctx.body = updated(await identifyVisitor(ctx.deps.knex, account, ctx.state.visitor!.contact, attributes));
    },
  );

  router.route(
    {
      method: UPDATE,
      path: `${path}/set_user`,
      summary: "The site names its signed-in user (identifier, with identifier_hash when the inbox requires it); another person starts a new visitor",
      query: websiteTokenQuery,
      body: widgetContactBody,
      response: widgetContactResponse,
      middleware: [requireVisitor],
    },
    async (ctx, { body }) => {
      const { website_token: _token, ...attributes } = body;
      const scope = ctx.state.webWidget!;
      const { visitor, switched } = await setVisitorUser(ctx.deps.knex, scope, ctx.state.visitor!, ctx.ip, attributes);
      const token = switched ? await issueWidgetToken(ctx.deps.knex, { source_id: visitor.contactInbox.source_id, inbox_id: scope.inbox.id }) : undefined;
      ctx.body = { ...updated(visitor.contact), pubsub_token: visitor.contactInbox.pubsub_token, ...(token ? { widget_auth_token: token } : {}) };
    },
  );

  router.route(
    {
      method: "post",
      path: `${path}/destroy_custom_attributes`,
      summary: "Remove custom attributes of the visitor by key",
      query: websiteTokenQuery,
      body: widgetCustomAttributeKeysBody,
      middleware: [requireVisitor],
    },
    async (ctx, { body }) => {
      const { account } = ctx.state.webWidget!;
      ctx.body = contactRecord(await removeCustomAttributes(ctx.deps.knex, account, ctx.state.visitor!.contact.id, body.custom_attributes));
    },
  );
}
