import type { Knex } from "knex";
import type { ApiRouter } from "../../../../http/router";
import type { Offer } from "../../../../models/scheduling/Offer";
import { actorOf } from "../../../../policies/conversations";
import { findOffer, offerSearchOf, openOffer, presentOffer } from "../../../../scheduling/offers";
import { auditBotAction, conversationFor, openToBots } from "../botAccess";
import { created, ok } from "../respond";
import { offerCreate, offerItemParams, offerParams, offerResponse } from "./schema";

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
      const search = await offerSearchOf(ctx.deps.knex, ctx.state.account!.id, body);
      // A bot's offer is audited in the offer's transaction.
      const afterInsert = (trx: Knex.Transaction, offer: Offer) =>
        auditBotAction(ctx, trx, {
          type: "Scheduling::Offer",
          id: offer.id,
          action: "create",
          changes: { conversation_id: conversation.display_id, service_id: body.service_id, message_id: offer.message_id },
        });
      const offer = await openOffer(ctx.deps.knex, ctx.state.account!, conversation, search, actorOf(ctx), { afterInsert });
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
