import type { Next } from "koa";
import type { AppContext } from "../../http/context";
import { ApiRouter } from "../../http/router";
import { type ApiInboxScope, findApiInbox } from "../../services/publicApi";
import { registerPublicContactRoutes } from "./contacts";
import { registerPublicInboxRoutes } from "./inbox";
import { registerPublicConversationRoutes } from "./conversations";
import { registerPublicMessageRoutes } from "./messages";

declare module "../../http/context" {
  interface AppState {
    /** The API inbox named by inbox_identifier (public client API routes only). */
    apiInbox?: ApiInboxScope;
  }
}

/** set_inbox_channel, before anything else is read: an unknown inbox_identifier is a 404 whatever the request holds. */
async function apiInboxScope(ctx: AppContext, next: Next) {
  ctx.state.apiInbox = await findApiInbox(ctx.deps.knex, String(ctx.params.inbox_identifier ?? ""));
  await next();
}

/**
 * /public/api/v1/inboxes/:inbox_identifier: Chatwoot's client API for API-channel inboxes. No
 * api_access_token: the inbox is named by its identifier and the contact by its source_id.
 */
export function publicRouter(): ApiRouter {
  const router = new ApiRouter("/public/api/v1/inboxes/:inbox_identifier", { tag: "Public client API", security: [], middleware: [apiInboxScope] });
  registerPublicInboxRoutes(router);
  registerPublicContactRoutes(router);
  registerPublicConversationRoutes(router);
  registerPublicMessageRoutes(router);
  return router;
}
