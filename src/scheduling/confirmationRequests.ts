/**
 * Confirmation requests (the account's confirmation_request_minutes_before): at that time before a
 * booking that is still only scheduled, its workflow asks the linked conversation to confirm it,
 * cancel it or choose another time, as an offer of kind confirmation (offerChoice.ts takes the
 * answer; with none by the start the booking is left as it is and an event says so).
 */
import type { Knex } from "knex";
import type { Account } from "../models/Account";
import { Conversation } from "../models/Conversation";
import { type Appointment, AppointmentNotice } from "../models/scheduling/Appointment";
import type { Resource } from "../models/scheduling/Resource";
import { SchedulingSettings } from "../models/scheduling/SchedulingSettings";
import { confirmationRequestKey, localTimeText, type TimelineStep } from "./appointmentTimeline";
import { confirmationItems } from "./offerItems";
import { insertOffer } from "./offers";

type Step = Extract<TimelineStep, { kind: "confirmation_request" }>;

/**
 * Under the appointment's lock (the caller's): asks once, if the booking is still scheduled, still
 * starts then, the account still asks this long before, and the time has come but not the start.
 */
export async function requestConfirmation(
  trx: Knex.Transaction,
  { account, appointment, resource }: { account: Account; appointment: Appointment; resource: Resource },
  step: Step,
  now: number,
): Promise<boolean> {
  const startsAt = appointment.starts_at.getTime();
  if (appointment.status !== "scheduled" || startsAt !== step.startsAt || now < step.at || now >= startsAt) return false;
  if ((await SchedulingSettings.of(account.id, trx)).confirmation_request_minutes_before !== step.minutesBefore) return false;
  const conversation = appointment.conversation_id ? await Conversation.query(trx).findById(appointment.conversation_id) : undefined;
  if (!conversation) return false;
  const [notice] = await trx(AppointmentNotice.tableName)
    .insert({ account_id: account.id, appointment_id: appointment.id, kind: "confirmation_request", key: confirmationRequestKey(startsAt) })
    .onConflict(["appointment_id", "key"])
    .ignore()
    .returning("id");
  if (!notice) return false;
  const offer = await insertOffer(
    trx,
    conversation,
    {
      kind: "confirmation",
      items: confirmationItems(),
      request: { count: 5, expires_in_minutes: 60 },
      expiresAt: appointment.starts_at,
      content: `Please confirm your appointment with ${resource.name} on ${localTimeText(startsAt, resource.timezone)}.`,
      appointmentId: appointment.id,
    },
    null,
  );
  await trx(AppointmentNotice.tableName).where("id", notice.id).update({ message_id: offer.message_id });
  return true;
}
