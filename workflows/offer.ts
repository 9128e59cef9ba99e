import { condition, defineSignal, proxyActivities, setHandler } from "@temporalio/workflow";
import type { Activities } from "../activities";
import { OFFER_CHOICE_SIGNAL, type OfferWorkflowInput } from "../src/temporal/contracts";

export const offerChoiceSignal = defineSignal<[token: string]>(OFFER_CHOICE_SIGNAL);

const { offerState, chooseOffer, expireOffer } = proxyActivities<Activities>({
  startToCloseTimeout: "30 seconds",
  retry: { maximumInterval: "30 seconds" },
});

/**
 * One offer in a conversation: it waits for the contact's choice (a signal from the outbox relay)
 * with a durable timer for the expiry, and hands each choice to an activity that books it, answers
 * the confirmation request, or posts a fresh offer when the slot was taken. A token the offer never
 * offered is ignored and the wait goes on. Started again after it ended (a late choice), it finds the
 * offer closed and ends at once.
 */
export async function schedulingOfferWorkflow(input: OfferWorkflowInput): Promise<string> {
  const choices: string[] = [];
  setHandler(offerChoiceSignal, (token) => {
    choices.push(token);
  });
  const state = await offerState(input.offerId);
  if (!state.open) return "closed";
  for (;;) {
    const chosen = await condition(() => choices.length > 0, Math.max(state.expiresAt - Date.now(), 1), { summary: "the contact's choice or the expiry" });
    if (!chosen) return expireOffer(input.offerId);
    const outcome = await chooseOffer(input.offerId, choices.shift()!);
    if (outcome !== "ignored") return outcome;
  }
}
