import type { Next } from "koa";
import { NotFound } from "../errors";
import type { AppContext } from "../http/context";
import { findVisitor, findWebWidget, type Visitor, type WebWidgetScope } from "../services/widget";
import { decodeWidgetToken } from "../services/widgetTokens";

declare module "../http/context" {
  interface AppState {
    /** The web widget named by website_token (widget routes only). */
    webWidget?: WebWidgetScope;
    /** The visitor of a valid X-Auth-Token in that widget's inbox. */
    visitor?: Visitor;
  }
}

/**
 * A request parameter as Rails' params reads it: from the JSON body or the query string (Chatwoot's
 * widget sends website_token and locale in the query, its API clients often in the body).
 */
function widgetParam(ctx: AppContext, name: string): string | undefined {
  const fromBody = (ctx.request as { body?: Record<string, unknown> }).body?.[name];
  const value = typeof fromBody === "string" ? fromBody : ctx.query[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * Chatwoot's widget before_actions, run before the request is validated as there: the widget by
 * website_token (404 when none), then the visitor of the X-Auth-Token, if the token is valid.
 */
export async function webWidgetSession(ctx: AppContext, next: Next) {
  const db = ctx.deps.knex;
  const webWidget = await findWebWidget(db, widgetParam(ctx, "website_token"));
  ctx.state.webWidget = webWidget;
  ctx.state.visitor = await findVisitor(db, webWidget, await decodeWidgetToken(db, ctx.get("x-auth-token") || undefined));
  await next();
}

/**
 * WebsiteTokenHelper#set_contact: every widget endpoint but config needs the token's visitor, and
 * Chatwoot answers a missing or invalid token with RecordNotFound, a 404.
 */
export async function requireVisitor(ctx: AppContext, next: Next) {
  if (!ctx.state.visitor) throw NotFound();
  await next();
}
