import { SchedulingModel } from "./SchedulingModel";

export const OFFER_KINDS = ["slots", "confirmation"] as const;
export const OFFER_STATUSES = ["open", "booked", "answered", "expired", "replaced"] as const;
export type OfferKind = (typeof OFFER_KINDS)[number];
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/** What a confirmation request lets the contact answer. */
export type ConfirmationAnswer = "confirm" | "cancel" | "another_time";

/** One item of the offer's input_select: a free slot, or an answer to a confirmation request. */
export interface OfferItem {
  token: string;
  title: string;
  resource_id?: number;
  starts_at?: string;
  ends_at?: string;
  answer?: ConfirmationAnswer;
}

/** What a fresh offer searches again after a slot was taken, or what "another time" searches. */
export interface OfferRequest {
  service_id?: number | null;
  duration_min?: number | null;
  resource_ids?: number[];
  count: number;
  expires_in_minutes: number;
}

/** Slots (or answers) offered in a conversation as an input_select message, open until chosen or expired. */
export class Offer extends SchedulingModel {
  static tableName = "scheduling_offers";
  static jsonAttributes = ["request", "slots"];

  declare account_id: number;
  /** The conversation's database id. */
  declare conversation_id: number;
  declare contact_id: number | null;
  declare message_id: number | null;
  declare kind: OfferKind;
  declare status: OfferStatus;
  declare request: OfferRequest;
  declare slots: OfferItem[];
  declare appointment_id: number | null;
  declare replaced_by_id: number | null;
  declare chosen_token: string | null;
  declare expires_at: Date;
  declare created_by_type: "User" | "AgentBot" | "AutomationRule" | null;
  declare created_by_id: number | null;
}
