import { z } from "zod";
import { id } from "../../../../http/schemas";
import { offerFields } from "../../../../schemas/schedulingOffer";
import { body } from "../common";

export const offerParams = z.object({ account_id: id(), conversation_id: id() });
export const offerItemParams = offerParams.extend({ id: id() });

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
