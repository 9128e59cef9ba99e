import { z } from "zod";
import { blankAsAbsent, id, idList } from "../../../../http/schemas";
import { body, timeInput } from "../common";

export const offerParams = z.object({ account_id: id(), conversation_id: id() });
export const offerItemParams = offerParams.extend({ id: id() });

/** The offer's search, as the automation action offer_slots takes it too. */
export const offerFields = z.object({
  service_id: id(),
  /** CSV, a JSON array or `resource_ids[]=`; every active resource offering the service when absent. */
  resource_ids: blankAsAbsent(idList()),
  /** Without an offset: wall-clock time in the account's scheduling timezone. Default: now. */
  from: blankAsAbsent(timeInput()),
  /** Default: seven days after `from`; at most 31 days after it. */
  to: blankAsAbsent(timeInput()),
  count: blankAsAbsent(z.coerce.number().int().min(1).max(10)).transform((count) => count ?? 5),
  /** How long the contact may choose; a week at most. */
  expires_in_minutes: blankAsAbsent(z.coerce.number().int().min(1).max(10_080)).transform((minutes) => minutes ?? 60),
});
export type OfferFields = z.output<typeof offerFields>;

export const offerCreate = body("offer", offerFields, "SchedulingOfferCreate");

const offerItem = z.object({
  title: z.string(),
  /** The opaque token the contact's choice sends back as the input_select value. */
  value: z.string(),
  resource_id: z.number().optional(),
  starts_at: z.string().optional(),
  ends_at: z.string().optional(),
  /** A confirmation request's items: confirm, cancel or another_time. */
  answer: z.string().optional(),
});

export const offerResponse = z
  .object({
    payload: z.object({
      id: z.number(),
      kind: z.enum(["slots", "confirmation"]),
      status: z.enum(["open", "booked", "answered", "expired", "replaced"]),
      conversation_id: z.number(),
      message_id: z.number().nullable(),
      expires_at: z.string(),
      appointment_id: z.number().nullable(),
      replaced_by_id: z.number().nullable(),
      chosen: z.string().nullable(),
      slots: z.array(offerItem),
      created_at: z.string(),
    }),
  })
  .openapi("SchedulingOffer");
