/**
 * An appointment rule's actions. Its own act on the booking (change_appointment_status, and
 * send_webhook_event with the booking as the body); every other action of the set (actions.ts) runs
 * as in a conversation rule on the booking's linked conversation, read when the action runs, so an
 * action added there works for appointment rules too. Its handlers see `input.appointmentId`.
 */
import { Account } from "../../models/Account";
import { Appointment } from "../../models/scheduling/Appointment";
import { presentAppointment } from "../../presenters/scheduling/appointments";
import { findAppointmentView } from "../../scheduling/appointmentRecords";
import { type Booker, cancelAppointment, updateAppointment } from "../../scheduling/appointments";
import { APPOINTMENT_STATUSES, type AppointmentStatus } from "../../scheduling/constants";
import {
  type ActionContext,
  type ActionOutcome,
  type ActionRunner,
  paramsOf,
  postRuleWebhook,
  refusalsRejected,
  rejected,
  runAction,
  skipped,
} from "./actions";

interface AppointmentActionContext extends Pick<ActionContext, "db" | "webhooks" | "input" | "params"> {
  appointment: Appointment;
  /** The rule acting as the booker: the events its changes raise trigger no rules. */
  booker: Booker;
}

type Handler = (ctx: AppointmentActionContext) => Promise<ActionOutcome | void>;

const HANDLERS: Record<string, Handler> = {
  async change_appointment_status({ db, booker, appointment, params }) {
    const status = params[0] as AppointmentStatus;
    if (!APPOINTMENT_STATUSES.includes(status)) throw rejected(`unknown appointment status ${String(status)}`);
    if (appointment.status === status) return skipped(`the appointment is already ${status}`);
    // Cancelling goes the way POST …/cancel does, so the payment is cancelled with it.
    if (status === "cancelled") await cancelAppointment(db, booker, appointment.id);
    else await updateAppointment(db, booker, appointment.id, { status });
  },
  async send_webhook_event(ctx) {
    const { appointment, payments, expense } = await findAppointmentView(ctx.db, ctx.booker.account.id, ctx.appointment.id);
    const { id, name } = ctx.booker.account;
    await postRuleWebhook(ctx, (eventName) => ({
      ...presentAppointment(appointment, payments, expense),
      event: `automation_event.${eventName}`,
      account: { id, name },
    }));
  },
};

export const runAppointmentAction: ActionRunner = async (db, webhooks, input, action, step) => {
  const account = await Account.findLive(input.accountId, db);
  const appointment = account && (await Appointment.query(db).findOne({ id: input.appointmentId!, account_id: account.id }));
  if (!account || !appointment) return skipped("appointment no longer exists");
  const handler = HANDLERS[action.action_name];
  if (handler) {
    const booker: Booker = { account, user: null, rule: { id: input.ruleId } };
    return refusalsRejected(() => handler({ db, webhooks, input, params: paramsOf(action), appointment, booker }));
  }
  if (!appointment.conversation_id) return skipped("the appointment has no linked conversation");
  return runAction(db, webhooks, { ...input, conversationId: appointment.conversation_id }, action, step);
};
