import type { AppDeps } from "../src/deps";
import { chooseOffer, expireOffer, offerState } from "../src/scheduling/offerChoice";

export function createOfferActivities(deps: AppDeps) {
  return {
    offerState: (offerId: number) => offerState(deps.knex, offerId),
    chooseOffer: (offerId: number, token: string) => chooseOffer(deps.knex, offerId, token),
    expireOffer: (offerId: number) => expireOffer(deps.knex, offerId),
  };
}
