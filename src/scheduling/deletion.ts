/**
 * Deleting an appointment (docs/scheduling-money.md): only a cancelled one, and never one with any
 * money movement on record (payments, refunds, expenses), which is cancelled and kept instead. The
 * row goes, so nothing is left for its workflow to announce: the cancellation message the contact
 * is owed is posted here, under the same lock the workflow takes, and `appointment.deleted` carries
 * the booking as it was.
 */
import type { Knex } from "knex";
import type { Account } from "../models/Account";
import { AppointmentNotice } from "../models/scheduling/Appointment";
import { Resource } from "../models/scheduling/Resource";
import { presentAppointment } from "../presenters/scheduling/appointments";
import { recordEvent } from "../events/outbox";
import { postNotice } from "./appointmentLife";
import { findAppointmentView, lockAppointment } from "./appointmentRecords";
import { announcementDue } from "./appointmentTimeline";
import { SchedulingError } from "./errors";

export async function deleteAppointment(db: Knex, account: Account, id: number, now = Date.now()): Promise<void> {
  await db.transaction(async (trx) => {
    const appointment = await lockAppointment(trx, account.id, id);
    if (appointment.status !== "cancelled")
      throw new SchedulingError(422, "APPOINTMENT_DELETE_REQUIRES_CANCELLED", "Only cancelled appointments can be deleted");
    const view = await findAppointmentView(trx, account.id, id);
    const expenses = await trx("scheduling_expenses").where("appointment_id", id).first("id");
    if (view.payments.length || expenses || appointment.prepaid_amount + appointment.settlement_amount > 0)
      // The fork's code and message: its clients know them.
      throw new SchedulingError(422, "HISTORICAL_DATA_RETAINED", "Historical finance data prevents appointment deletion");

    const notices = await AppointmentNotice.query(trx).where("appointment_id", id).orderBy("id");
    const due = announcementDue(appointment, notices, now);
    if (due?.kind === "cancelled") {
      const resource = await Resource.query(trx).findById(appointment.resource_id).throwIfNotFound();
      await postNotice(trx, { account, appointment, resource }, due.kind, due.key);
    }
    await recordEvent(trx, {
      accountId: account.id,
      name: "appointment.deleted",
      payload: {
        event: "appointment.deleted",
        ...presentAppointment(view.appointment, view.payments, view.expense),
        deleted_at: new Date(now).toISOString(),
        account: { id: account.id, name: account.name },
      },
    });
    await appointment.$query(trx).delete();
  });
}
