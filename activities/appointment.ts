import { heartbeat } from "@temporalio/activity";
import type { AppDeps } from "../src/deps";
import { fireAppointmentStep, syncAppointment, touchAccountAppointments } from "../src/scheduling/appointmentLife";
import type { TimelineStep } from "../src/scheduling/appointmentTimeline";
import { payExpenseBatch, type PayoutInput } from "../src/scheduling/ledger";

export function createAppointmentActivities(deps: AppDeps) {
  return {
    syncAppointment: (appointmentId: number) => syncAppointment(deps.knex, appointmentId),
    fireAppointmentStep: (appointmentId: number, step: TimelineStep) => fireAppointmentStep(deps.knex, appointmentId, step),
    touchAccountAppointments: (accountId: number) => touchAccountAppointments(deps, accountId, () => heartbeat()),
    payExpenseBatch: (input: PayoutInput, afterId: number) => payExpenseBatch(deps.knex, input, afterId),
  };
}
