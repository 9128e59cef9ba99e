/**
 * Offers on the service side of Temporal: an outbox consumer that starts each offer's workflow
 * when the offer is committed, and hands it the contact's choice when one is committed: an answer
 * to its input_select (submitted_values, from the public client API or the account API), or an
 * incoming message whose text is one of its titles. Events wait in the outbox while no relay runs,
 * and signals wait in Temporal while no worker runs, so a choice made meanwhile is never lost.
 */
import type { AppDeps } from "../deps";
import { DISPATCH_CONCURRENCY, inParallel } from "../lib/inParallel";
import { Offer } from "../models/scheduling/Offer";
import type { EventConsumer, EventRow } from "../events/outbox";
import { startOnce } from "../temporal/client";
import { OFFER_CHOICE_SIGNAL, type OfferWorkflowInput, schedulingOfferWorkflowId } from "../temporal/contracts";
import { AccountIdAttribute } from "../temporal/searchAttributes";
import { itemTitled } from "./offerItems";
import { OFFER_OPENED_EVENT } from "./offers";

interface Choice {
  offer: Pick<Offer, "id" | "account_id">;
  token: string;
}

/** What startOnce's memo names the run by: a choice's start names it alike, so a later start of the offer finds its own run. */
const workOf = (offer: Choice["offer"]) => `offer ${offer.id} of account ${offer.account_id}`;

const workflowOptions = (deps: AppDeps, offer: Choice["offer"]) => {
  const input: OfferWorkflowInput = { accountId: offer.account_id, offerId: offer.id };
  return {
    workflowId: schedulingOfferWorkflowId(deps.temporal.installationId, offer.account_id, offer.id),
    args: [input] as [OfferWorkflowInput],
    typedSearchAttributes: [{ key: AccountIdAttribute, value: offer.account_id }],
    staticSummary: `Offer #${offer.id} of account ${offer.account_id}`,
  };
};

/** Hands the choice to the offer's workflow, starting it if it has ended (it then finds the offer closed, or takes the choice). */
async function signalChoice(deps: AppDeps, { offer, token }: Choice): Promise<void> {
  await deps.temporal.client.workflow.signalWithStart("schedulingOfferWorkflow", {
    ...workflowOptions(deps, offer),
    taskQueue: deps.temporal.taskQueue,
    signal: OFFER_CHOICE_SIGNAL,
    signalArgs: [token],
    memo: { installation: deps.temporal.installationId, work: workOf(offer) },
  });
}

/** The tokens a submitted answer names: each submitted value (the widget sends `{title, value}`). */
function submittedTokens(payload: Record<string, unknown>): string[] {
  const attributes = payload.content_attributes as { submitted_values?: unknown } | undefined;
  const values = Array.isArray(attributes?.submitted_values) ? attributes.submitted_values : [];
  return values.flatMap((value) => {
    if (typeof value === "string") return [value];
    const token = (value as { value?: unknown } | null)?.value;
    return typeof token === "string" || typeof token === "number" ? [String(token)] : [];
  });
}

async function choicesOf(deps: AppDeps, events: EventRow[]): Promise<Choice[]> {
  const choices: Choice[] = [];
  const answered = events.filter((event) => event.name === "message_updated" && submittedTokens(event.payload).length);
  if (answered.length) {
    const offers = await Offer.query(deps.knex)
      .whereIn(
        "message_id",
        answered.map((event) => Number(event.payload.id)),
      )
      .where("status", "open");
    for (const event of answered) {
      const offer = offers.find((candidate) => candidate.message_id === Number(event.payload.id));
      const token = offer && submittedTokens(event.payload).find((value) => offer.slots.some((item) => item.token === value));
      if (offer && token) choices.push({ offer, token });
    }
  }
  const typed = events.filter((event) => event.name === "message_created" && event.payload.message_type === "incoming" && event.conversation_id);
  if (typed.length) {
    const offers = await Offer.query(deps.knex)
      .whereIn("conversation_id", [...new Set(typed.map((event) => event.conversation_id!))])
      .where("status", "open");
    for (const event of typed) {
      const text = typeof event.payload.content === "string" ? event.payload.content : "";
      for (const offer of offers.filter((candidate) => candidate.conversation_id === event.conversation_id)) {
        const item = itemTitled(offer.slots, text);
        if (item) choices.push({ offer, token: item.token });
      }
    }
  }
  return choices;
}

export function offerConsumer(): EventConsumer {
  return {
    async dispatch(deps, events) {
      const opened = events.filter((event) => event.name === OFFER_OPENED_EVENT);
      await inParallel(opened, DISPATCH_CONCURRENCY, (event) => {
        const offer = { id: Number(event.payload.id), account_id: event.account_id };
        return startOnce(deps, "schedulingOfferWorkflow", { ...workflowOptions(deps, offer), work: workOf(offer) });
      });
      const choices = await choicesOf(deps, events);
      await inParallel(choices, DISPATCH_CONCURRENCY, (choice) => signalChoice(deps, choice));
    },
  };
}
