import type { AppContext } from "../../../../http/context";
import type { ApiRouter } from "../../../../http/router";
import { SchedulingSettings } from "../../../../models/scheduling/SchedulingSettings";
import { actorOf } from "../../../../policies/conversations";
import { findOffer, MAX_RANGE_DAYS, openOffer, presentOffer } from "../../../../scheduling/offers";
import { checks } from "../../../../scheduling/validation";
import { resolveTime } from "../../../../scheduling/wallTime";
import { auditBotAction, conversationFor, openToBots } from "../botAccess";
import { created, ok } from "../respond";
import { offerCreate, type OfferFields, offerItemParams, offerParams, offerResponse } from "./schema";

const DAY_MS = 86_400_000;

/** The search's instants: times without an offset read in the account's scheduling timezone. */
async function rangeOf(ctx: AppContext, fields: OfferFields) {
  const { timezone } = await SchedulingSettings.of(ctx.state.account!.id, ctx.deps.knex);
  const from = fields.from ? resolveTime(fields.from, timezone).getTime() : undefined;
  const to = fields.to ? resolveTime(fields.to, timezone).getTime() : undefined;
  const c = checks();
  const start = from ?? Date.now();
  if (to !== undefined && to <= start) c.add("to", "must be after from");
  else if (to !== undefined && to - start > MAX_RANGE_DAYS * DAY_MS) c.add("to", `must be at most ${MAX_RANGE_DAYS} days after from`);
  c.done();
  return { from, to };
}

/** Slots offered in a conversation as an input_select the contact answers (docs/scheduling-bots.md). */
export function registerOfferRoutes(router: ApiRouter, path: string) {
  router.route(
    {
      method: "post",
      path,
      summary: "Offer free slots in the conversation as an input_select message; the contact's choice books it",
      params: offerParams,
      body: offerCreate,
      response: offerResponse,
      status: 201,
      middleware: [openToBots],
    },
    async (ctx, { params, body }) => {
      const conversation = await conversationFor(ctx, params.conversation_id);
      const { from, to } = await rangeOf(ctx, body);
      const search = { service_id: body.service_id, resource_ids: body.resource_ids, count: body.count, expires_in_minutes: body.expires_in_minutes, from, to };
      const offer = await openOffer(ctx.deps.knex, ctx.state.account!, conversation, search, actorOf(ctx));
      await auditBotAction(ctx, ctx.deps.knex, {
        type: "Scheduling::Offer",
        id: offer.id,
        action: "create",
        changes: { conversation_id: conversation.display_id, service_id: body.service_id, message_id: offer.message_id },
      });
      created(ctx, presentOffer(offer, conversation.display_id));
    },
  );

  router.route(
    {
      method: "get",
      path: `${path}/:id`,
      summary: "An offer and its state: open, booked, answered, expired or replaced (by a fresh offer)",
      params: offerItemParams,
      response: offerResponse,
      middleware: [openToBots],
    },
    async (ctx, { params }) => {
      const conversation = await conversationFor(ctx, params.conversation_id);
      ok(ctx, presentOffer(await findOffer(ctx.deps.knex, conversation, params.id), conversation.display_id));
    },
  );
}
