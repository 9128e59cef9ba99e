import { z } from "zod";
import type { ApiRouter } from "../../../http/router";
import { MAX_LENGTH } from "../../../http/limits";
import { Label } from "../../../models/Label";
import { changeLabel } from "../../../conversations/attributes";
import { requireConversation } from "../../../services/widgetConversations";
import { websiteTokenFields, websiteTokenQuery } from "../../../schemas/widget";
import { requireVisitor } from "../../../middlewares/widgetSession";

const labelBody = z.object({ ...websiteTokenFields, label: z.string().trim().max(MAX_LENGTH.string).default("") }).openapi("WidgetLabel");
const labelParams = z.object({ label: z.string().max(MAX_LENGTH.string) });

/** The site tags the visitor's conversation (window.$chatwoot.setLabel / removeLabel). */
export function registerWidgetLabelRoutes(router: ApiRouter) {
  const common = { query: websiteTokenQuery, middleware: [requireVisitor], status: 204 };

  router.route(
    {
      ...common,
      method: "post",
      path: "/labels",
      summary: "Add one of the account's labels to the visitor's conversation (an unknown label is ignored)",
      body: labelBody,
    },
    async (ctx, { body }) => {
      const db = ctx.deps.knex;
      const { account } = ctx.state.webWidget!;
      const conversation = await requireConversation(db, ctx.state.webWidget!, ctx.state.visitor!);
      const known = body.label && (await Label.query(db).findOne({ account_id: account.id, title: body.label.toLowerCase() }));
      if (known) await changeLabel(db, conversation, known.title, "add", null);
      ctx.status = 204;
    },
  );

  router.route(
    { ...common, method: "delete", path: "/labels/:label", summary: "Remove a label from the visitor's conversation", params: labelParams },
    async (ctx, { params }) => {
      const db = ctx.deps.knex;
      const conversation = await requireConversation(db, ctx.state.webWidget!, ctx.state.visitor!);
      await changeLabel(db, conversation, params.label.toLowerCase(), "remove", null);
      ctx.status = 204;
    },
  );
}
