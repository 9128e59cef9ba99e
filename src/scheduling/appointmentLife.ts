/**
 * The appointment's workflow, on the service side: starting or waking it after a committed change
 * (an outbox consumer, so a crash between commit and start loses nothing), and the database work
 * its activities do. Each activity re-reads the appointment under its row lock and acts only if the
 * step it was woken for is still due, so a late timer or a repeated signal changes nothing.
 */
import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { Knex } from "knex";
import type { AppDeps } from "../deps";
import { DISPATCH_CONCURRENCY, inParallel } from "../lib/inParallel";
import { Account } from "../models/Account";
import { Conversation } from "../models/Conversation";
import { Appointment, AppointmentNotice } from "../models/scheduling/Appointment";
import { Resource } from "../models/scheduling/Resource";
import { SchedulingSettings, type SchedulingSettingsValues } from "../models/scheduling/SchedulingSettings";
import { presentAppointment } from "../presenters/scheduling/appointments";
import { type EventConsumer, type EventRow, recordEvent } from "../events/outbox";
import { APPOINTMENT_EVENT_NAMES, LIVE_APPOINTMENT_STATUSES } from "./constants";
import { findAppointmentView } from "./appointmentRecords";
import { inUnit } from "../conversations/unit";
import { insertMessage } from "../conversations/messages";
import { startOnce } from "../temporal/client";
import { AccountIdAttribute, AppointmentIdAttribute, AppointmentStartsAtAttribute, ResourceIdAttribute } from "../temporal/searchAttributes";
import { expireHold, saveAppointment } from "./appointments";
import { requestConfirmation } from "./confirmationRequests";
import { announcementDue, type EndedBookingPlan, isLive, localTimeText, nextStep, noticeText, reminderKey, type TimelineStep } from "./appointmentTimeline";
import { appointmentWorkflowId, schedulingSettingsWorkflowId, TOUCH_SIGNAL } from "../temporal/contracts";

export interface AppointmentWorkflowInput {
  accountId: number;
  appointmentId: number;
}

/** What the workflow learns from one look at the database. */
export interface AppointmentState {
  /** gone: deleted (or its account is); over: nothing more will happen; waiting: `next` is ahead. */
  status: "gone" | "over" | "waiting";
  appointmentStatus?: string;
  next?: TimelineStep;
  resourceId?: number;
  startsAt?: number;
  /** For the Temporal UI's "current details": where the booking is now and what comes next. */
  details: string;
  /** The API request that last changed the booking (for the run's memo). */
  requestId?: string | null;
}

export interface Locked {
  account: Account;
  appointment: Appointment;
  resource: Resource;
}

/** The appointment under its row lock, with its live account and its resource; undefined when either is gone. */
async function lockLive(trx: Knex.Transaction, appointmentId: number): Promise<Locked | undefined> {
  const owner = await Appointment.query(trx).findById(appointmentId).select("account_id");
  const account = owner && (await Account.findLive(owner.account_id, trx));
  if (!account) return undefined;
  const appointment = await Appointment.query(trx).findById(appointmentId).forUpdate();
  if (!appointment) return undefined;
  const resource = await Resource.query(trx).findById(appointment.resource_id).throwIfNotFound();
  return { account, appointment, resource };
}

/**
 * Posts a notice into the appointment's conversation, once per key: the notice row and the message
 * commit together, so a retried activity finds the row and posts nothing.
 */
export async function postNotice(
  trx: Knex.Transaction,
  { appointment, resource }: Locked,
  kind: Parameters<typeof noticeText>[0],
  key: string,
): Promise<boolean> {
  const conversation = appointment.conversation_id ? await Conversation.query(trx).findById(appointment.conversation_id) : undefined;
  if (!conversation) return false;
  const [notice] = await trx(AppointmentNotice.tableName)
    .insert({ account_id: appointment.account_id, appointment_id: appointment.id, kind, key })
    .onConflict(["appointment_id", "key"])
    .ignore()
    .returning("id");
  if (!notice) return false;
  const content = noticeText(kind, {
    resourceName: resource.name,
    timeZone: resource.timezone,
    startsAt: appointment.starts_at.getTime(),
    holdExpiresAt: appointment.hold_expires_at?.getTime() ?? null,
    cancellationReason: appointment.cancellation_reason,
  });
  const message = await inUnit(trx, (unit) => insertMessage(unit, conversation, { content, message_type: "outgoing" }, null, null));
  await trx(AppointmentNotice.tableName).where("id", notice.id).update({ message_id: message.id });
  return true;
}

function describe(appointment: Appointment, resource: Resource, next: TimelineStep | undefined): string {
  // Ids, not names: the Temporal UI is no place for a client's personal data.
  const start = `resource #${resource.id}, ${localTimeText(appointment.starts_at.getTime(), resource.timezone)}`;
  if (!next) return `${appointment.status}, ${start}: nothing more to do`;
  const at = new Date(next.at).toISOString();
  if (next.kind === "hold") return `${appointment.status}, ${start}: held for a prepayment until ${at}`;
  if (next.kind === "reminder") return `${appointment.status}, ${start}: reminder (${next.offsetMinutes} min before) at ${at}`;
  if (next.kind === "confirmation_request") return `${appointment.status}, ${start}: confirmation request at ${at}`;
  if (next.kind === "close") return `${appointment.status}, ${start}: becomes ${next.status} at ${at} unless closed before`;
  return `${appointment.status}, ${start}: waiting for the start`;
}

/** Posts the announcement the conversation is owed now (if any) and answers what comes next. */
export async function syncAppointment(db: Knex, appointmentId: number, now = Date.now()): Promise<AppointmentState> {
  return db.transaction(async (trx) => {
    const locked = await lockLive(trx, appointmentId);
    if (!locked) return { status: "gone", details: "The appointment no longer exists" };
    const { appointment, resource, account } = locked;
    const notices = await AppointmentNotice.query(trx).where("appointment_id", appointment.id).orderBy("id");
    const due = announcementDue(appointment, notices, now);
    if (due) await postNotice(trx, locked, due.kind, due.key);
    const settings = await SchedulingSettings.of(account.id, trx);
    const sent = new Set(notices.filter((n) => n.kind === "reminder" || n.kind === "confirmation_request").map((n) => n.key));
    const next = nextStep(appointment, settings.reminder_offsets_minutes, sent, now, endedBookingPlan(settings), settings.confirmation_request_minutes_before);
    return {
      status: next ? "waiting" : "over",
      appointmentStatus: appointment.status,
      next,
      resourceId: appointment.resource_id,
      startsAt: appointment.starts_at.getTime(),
      details: describe(appointment, resource, next),
      requestId: appointment.last_request_id,
    };
  });
}

/** A reminder, if under the lock the booking is still live, still starts then and still has this offset. */
async function sendReminder(db: Knex, appointmentId: number, step: Extract<TimelineStep, { kind: "reminder" }>, now: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    const locked = await lockLive(trx, appointmentId);
    if (!locked) return false;
    const { appointment, account } = locked;
    const startsAt = appointment.starts_at.getTime();
    if (!isLive(appointment) || startsAt !== step.startsAt || now < step.at || now >= startsAt) return false;
    if (!(await SchedulingSettings.of(account.id, trx)).reminder_offsets_minutes.includes(step.offsetMinutes)) return false;
    if (!(await postNotice(trx, locked, "reminder", reminderKey(step.offsetMinutes, startsAt)))) return false;
    const view = await findAppointmentView(trx, account.id, appointment.id);
    const name = "appointment.reminder_sent";
    await recordEvent(trx, {
      accountId: account.id,
      name,
      payload: {
        event: name,
        ...presentAppointment(view.appointment, view.payments, view.expense),
        reminder: { offset_minutes: step.offsetMinutes },
        account: { id: account.id, name: account.name },
      },
    });
    return true;
  });
}

const endedBookingPlan = (settings: SchedulingSettingsValues): EndedBookingPlan | null =>
  settings.ended_booking_status ? { status: settings.ended_booking_status, graceMinutes: settings.ended_booking_grace_minutes } : null;

/**
 * Closes a booking left open after its end, as the account's setting says, if under the lock it is
 * still live and the setting (re-read: it may have changed since the step was planned) still says
 * this status and its grace has passed. Its change raises its events as any other.
 */
async function closeEndedBooking(db: Knex, appointmentId: number, step: Extract<TimelineStep, { kind: "close" }>, now: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    const locked = await lockLive(trx, appointmentId);
    if (!locked || !isLive(locked.appointment)) return false;
    const plan = endedBookingPlan(await SchedulingSettings.of(locked.account.id, trx));
    if (plan?.status !== step.status || locked.appointment.ends_at.getTime() + plan.graceMinutes * 60_000 > now) return false;
    await saveAppointment(trx, { account: locked.account, user: null }, locked.appointment, { status: step.status });
    return true;
  });
}

/** Runs a step whose time has come; what it did, or null when it no longer applied. */
export async function fireAppointmentStep(db: Knex, appointmentId: number, step: TimelineStep, now = Date.now()): Promise<string | null> {
  switch (step.kind) {
    case "hold":
      return (await expireHold(db, appointmentId, step.at, now)) ? "hold expired: cancelled" : null;
    case "reminder":
      return (await sendReminder(db, appointmentId, step, now)) ? "reminder sent" : null;
    case "confirmation_request":
      return (await db.transaction(async (trx) => {
        const locked = await lockLive(trx, appointmentId);
        return Boolean(locked) && requestConfirmation(trx, locked!, step, now);
      }))
        ? "confirmation requested"
        : null;
    case "start":
      return null;
    case "close":
      return (await closeEndedBooking(db, appointmentId, step, now)) ? `ended booking: ${step.status}` : null;
  }
}

type Touchable = Pick<Appointment, "id" | "account_id" | "resource_id" | "starts_at">;

/** Wakes the appointment's workflow, starting it if it is not running; it re-reads the database either way. */
export async function touchAppointmentWorkflow(deps: AppDeps, a: Touchable): Promise<void> {
  const input: AppointmentWorkflowInput = { accountId: a.account_id, appointmentId: a.id };
  await deps.temporal.client.workflow.signalWithStart("appointmentWorkflow", {
    workflowId: appointmentWorkflowId(deps.temporal.installationId, a.account_id, a.id),
    taskQueue: deps.temporal.taskQueue,
    args: [input],
    signal: TOUCH_SIGNAL,
    signalArgs: [],
    typedSearchAttributes: [
      { key: AccountIdAttribute, value: a.account_id },
      { key: AppointmentIdAttribute, value: String(a.id) },
      { key: ResourceIdAttribute, value: String(a.resource_id) },
      { key: AppointmentStartsAtAttribute, value: a.starts_at },
    ],
    // Only what never changes: where the booking is now is in the run's current details, kept up to date.
    staticSummary: `Appointment #${a.id} of account ${a.account_id}`,
  });
}

function touchable(db: Knex) {
  return db("scheduling_appointments").select(
    "scheduling_appointments.id",
    "scheduling_appointments.account_id",
    "scheduling_appointments.resource_id",
    "scheduling_appointments.starts_at",
  );
}

/**
 * After a settings change: every live booking of the account that has not ended more than the
 * grace ago re-plans its reminders and its end-of-booking step, page by page. Older ones left open
 * stay as they are until something else wakes them.
 */
export async function touchAccountAppointments(deps: AppDeps, accountId: number, onPage?: () => void): Promise<number> {
  const graceMinutes = (await SchedulingSettings.of(accountId, deps.knex)).ended_booking_grace_minutes;
  const endedAfter = new Date(Date.now() - graceMinutes * 60_000);
  let lastId = 0;
  let touched = 0;
  for (;;) {
    const page: Touchable[] = await touchable(deps.knex)
      .where("scheduling_appointments.account_id", accountId)
      .whereIn("scheduling_appointments.status", LIVE_APPOINTMENT_STATUSES)
      .where("scheduling_appointments.ends_at", ">", endedAfter)
      .where("scheduling_appointments.id", ">", lastId)
      .orderBy("scheduling_appointments.id")
      .limit(200);
    if (!page.length) return touched;
    await inParallel(page, DISPATCH_CONCURRENCY, (a) => touchAppointmentWorkflow(deps, a));
    touched += page.length;
    lastId = page.at(-1)!.id;
    onPage?.();
  }
}

/** A sent reminder, or an unanswered confirmation request, changed nothing the workflow plans by: it needs no wake-up. */
const QUIET_EVENTS = new Set(["appointment.reminder_sent", "appointment.confirmation_unanswered"]);
const APPOINTMENT_EVENTS = new Set<string>(APPOINTMENT_EVENT_NAMES.filter((name) => !QUIET_EVENTS.has(name)));

/**
 * Every appointment event wakes (or starts) that appointment's workflow, once per appointment per
 * batch; a settings change starts a workflow that wakes all of the account's upcoming ones.
 * Signals are idempotent (the workflow re-reads the database), so a relay retry is harmless.
 */
export function appointmentConsumer(): EventConsumer {
  return {
    async dispatch(deps, events: EventRow[]) {
      const settingsChanges = events.filter((event) => event.name === "scheduling_settings_changed");
      await inParallel(settingsChanges, DISPATCH_CONCURRENCY, (event) =>
        startOnce(deps, "schedulingSettingsWorkflow", {
          workflowId: schedulingSettingsWorkflowId(deps.temporal.installationId, event.account_id, event.uid),
          work: `appointment reminders of account ${event.account_id} after event ${event.uid}`,
          args: [event.account_id],
          // A relay retry after the run finished must not touch every appointment again.
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          typedSearchAttributes: [{ key: AccountIdAttribute, value: event.account_id }],
          staticSummary: `Re-plan appointment reminders of account ${event.account_id} after a settings change`,
        }),
      );
      const ids = [...new Set(events.filter((event) => APPOINTMENT_EVENTS.has(event.name)).map((event) => Number(event.payload.id)))];
      if (!ids.length) return;
      const appointments: Touchable[] = await touchable(deps.knex).whereIn("scheduling_appointments.id", ids);
      await inParallel(appointments, DISPATCH_CONCURRENCY, (a) => touchAppointmentWorkflow(deps, a));
    },
  };
}
