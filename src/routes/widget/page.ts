import Router from "@koa/router";
import { NotFound } from "../../errors";
import type { AppCustomContext, AppState } from "../../http/context";
import { createVisitor, findVisitor, findWebWidget } from "../../services/widget";
import { decodeWidgetToken, issueWidgetToken } from "../../services/widgetTokens";
import { type BundleName, widgetBundles } from "../../widgetAssets/bundles";
import { widgetBoot, widgetPage, widgetPagePolicy } from "../../widgetAssets/page";

const queryText = (value: unknown, max = 2048) => (typeof value === "string" && value.length <= max ? value : undefined);
const LOCALE = /^[a-z]{2,3}([_-][A-Za-z]{2,4})?$/;

/**
 * What a site's embed snippet loads: the SDK at /packs/js/sdk.js (the path Chatwoot's snippet
 * names), and the /widget page its frame opens with the bundled script and styles.
 */
export function widgetPageRouter() {
  const router = new Router<AppState, AppCustomContext>();

  router.get("/packs/js/:file", async (ctx) => {
    const file = (await widgetBundles()).get(ctx.params.file as BundleName);
    if (!file) throw NotFound();
    ctx.set("ETag", file.etag);
    // Sites load the SDK from their pages: a short cache keeps a new release reaching them within minutes.
    ctx.set("Cache-Control", "public, max-age=300");
    ctx.set("Access-Control-Allow-Origin", "*");
    ctx.set("X-Content-Type-Options", "nosniff");
    if (ctx.get("if-none-match") === file.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = file.contentType;
    ctx.body = file.body;
  });

  // WidgetsController#index: the widget of website_token (404), the visitor of cw_conversation or a new one, a fresh token.
  router.get("/widget", async (ctx) => {
    const db = ctx.deps.knex;
    const webWidget = await findWebWidget(db, queryText(ctx.query.website_token, 255));
    const claims = await decodeWidgetToken(db, queryText(ctx.query.cw_conversation));
    const visitor = (await findVisitor(db, webWidget, claims)) ?? (await createVisitor(db, webWidget, ctx.ip));
    const authToken = await issueWidgetToken(db, { source_id: visitor.contactInbox.source_id, inbox_id: webWidget.inbox.id });
    const requested = queryText(ctx.query.locale, 16);
    const locale = requested && LOCALE.test(requested) ? requested : webWidget.account.locale;
    ctx.set("Content-Security-Policy", widgetPagePolicy(webWidget.channel.allowed_domains, ctx.host));
    ctx.set("Cache-Control", "no-store");
    ctx.set("Referrer-Policy", "strict-origin-when-cross-origin");
    ctx.type = "text/html; charset=utf-8";
    ctx.body = widgetPage(widgetBoot(webWidget, visitor, authToken, locale), locale);
  });

  return router;
}
