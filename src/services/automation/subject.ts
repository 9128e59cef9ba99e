/**
 * What an automation run is about, as the Temporal UI shows it: a conversation, or for an
 * appointment rule the booking. Deterministic (no I/O), so the workflows use it too.
 */
import type { SearchAttributePair } from "@temporalio/common";
import { AccountIdAttribute, AppointmentIdAttribute, ConversationIdAttribute, EventNameAttribute } from "../../temporal/searchAttributes";

interface Subject {
  accountId: number;
  eventName: string;
  displayId: number | null;
  appointmentId?: number;
}

export function automationSearchAttributes(run: Subject): SearchAttributePair[] {
  const subject: SearchAttributePair =
    run.appointmentId !== undefined
      ? { key: AppointmentIdAttribute, value: String(run.appointmentId) }
      : { key: ConversationIdAttribute, value: run.displayId ?? 0 };
  return [{ key: AccountIdAttribute, value: run.accountId }, subject, { key: EventNameAttribute, value: run.eventName }];
}

/** "conversation #4" or "appointment #12". */
export const automationSubject = (run: Subject): string =>
  run.appointmentId !== undefined ? `appointment #${run.appointmentId}` : `conversation #${run.displayId}`;
