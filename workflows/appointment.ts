import {
  condition,
  continueAsNew,
  defineSignal,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { AppointmentWorkflowInput } from "../src/scheduling/appointmentLife";
import { TOUCH_SIGNAL } from "../src/temporal/contracts";
import { AppointmentStartsAtAttribute, ResourceIdAttribute } from "../src/temporal/searchAttributes";
import { notYetFloorMs } from "./replanFloor";

export const appointmentTouchSignal = defineSignal(TOUCH_SIGNAL);

const { syncAppointment, fireAppointmentStep } = proxyActivities<Activities>({
  startToCloseTimeout: "30 seconds",
  retry: { maximumInterval: "30 seconds" },
});

const { touchAccountAppointments } = proxyActivities<Activities>({
  startToCloseTimeout: "30 minutes",
  heartbeatTimeout: "1 minute",
  retry: { maximumInterval: "1 minute" },
});

/** Keeps history small for bookings that change a lot. */
const ROUNDS_PER_RUN = 200;

/**
 * The booking saga of one appointment. Each round it looks at the database (posting the
 * confirmation, move or cancellation message its conversation is owed), then sleeps until the next
 * step (the prepayment hold, a reminder, the start) or until a change wakes it. When a step's time
 * comes, the activity re-checks under the row lock: an unpaid hold is compensated by cancelling the
 * booking (freeing the slot, with a message saying why), a reminder is posted only for a booking
 * that is still live and still starts then. It ends once nothing more can happen; a later change
 * starts it again.
 */
export async function appointmentWorkflow(input: AppointmentWorkflowInput): Promise<string> {
  let touched = false;
  setHandler(appointmentTouchSignal, () => {
    touched = true;
  });

  // Steps in a row that did nothing with no change since: the worker's clock may be behind.
  let notYet = 0;
  // The request named in the memo: the one that last changed the booking (written only when it changes).
  let requestId = workflowInfo().memo?.request_id;
  for (let round = 0; round < ROUNDS_PER_RUN; round++) {
    touched = false;
    const state = await syncAppointment(input.appointmentId);
    setCurrentDetails(state.details);
    if (state.status === "gone") return "gone";
    if (state.requestId && state.requestId !== requestId) {
      requestId = state.requestId;
      upsertMemo({ request_id: requestId });
    }
    upsertSearchAttributes([
      { key: ResourceIdAttribute, value: String(state.resourceId) },
      { key: AppointmentStartsAtAttribute, value: new Date(state.startsAt!) },
    ]);
    const next = state.next;
    if (!next) {
      if (!touched) return state.appointmentStatus ?? "over";
      continue;
    }
    const waitMs = Math.max(next.at - Date.now(), 1, notYetFloorMs(notYet));
    const woken = await condition(() => touched, waitMs, { summary: `${next.kind} at ${new Date(next.at).toISOString()}` });
    if (woken) notYet = 0;
    else {
      const done = await fireAppointmentStep(input.appointmentId, next);
      notYet = done || touched ? 0 : notYet + 1;
    }
    if (workflowInfo().continueAsNewSuggested) break;
  }
  // A signal that arrived during this run is not lost: the next run starts by looking again.
  return continueAsNew<typeof appointmentWorkflow>(input);
}

/** After an account's reminder offsets change, every upcoming booking re-plans its reminders. */
export async function schedulingSettingsWorkflow(accountId: number): Promise<number> {
  return touchAccountAppointments(accountId);
}
