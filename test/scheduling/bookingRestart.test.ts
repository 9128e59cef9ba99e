import test from "ava";
import { eventually, workflowExists } from "../support/eventually";
import { touchAppointmentWorkflow } from "../../src/scheduling/appointmentLife";
import { appointmentWorkflowId } from "../../src/temporal/contracts";
import { AppointmentStartsAtAttribute } from "../../src/temporal/searchAttributes";
import { ownQueue, useHarness } from "../support/harness";
import { conversationMessages, liveClinic, sleep } from "./bookingSupport";

const h = useHarness(test, { relay: true });

test("a booking's hold survives its worker going away: the next worker cancels it once the hold has run out", async (t) => {
  const c = await liveClinic(h);
  const { deps, startWorker } = ownQueue(h, "booking-restart");

  const holdUntil = new Date(Date.now() + 25_000);
  const appointment = await c.api.create("/appointments", {
    resource_id: c.resource.id,
    service_id: c.service.id,
    contact_id: c.contact.id,
    inbox_id: c.inbox.id,
    starts_at: new Date(Date.now() + 3 * 60 * 60_000).toISOString(),
    hold_until: holdUntil.toISOString(),
  });

  // The relay started its workflow on the shared queue: once every event of the setup has gone
  // through (so no late one starts it there again), end it and run it on this test's queue.
  const pending = await eventually(
    () => h.knex("events").where("account_id", c.account.id).whereNull("dispatched_at").first("id"),
    (row) => !row,
    "the setup's events to be dispatched",
    15_000,
  );
  t.falsy(pending, "the setup's events were dispatched");
  const handle = h.deps.temporal.client.workflow.getHandle(appointmentWorkflowId(h.deps.temporal.installationId, c.account.id, appointment.id));
  await workflowExists(handle, "the appointment's workflow to exist", 15_000);
  await handle.terminate("moved to the restart test's queue").catch(() => undefined);
  const row = await h
    .knex("scheduling_appointments")
    .join("scheduling_resources", "scheduling_resources.id", "scheduling_appointments.resource_id")
    .where("scheduling_appointments.id", appointment.id)
    .first("scheduling_appointments.*", "scheduling_resources.name as resource_name", "scheduling_resources.timezone");

  const first = await startWorker();
  await first.runUntil(async () => {
    await touchAppointmentWorkflow(deps, row);
    // Waiting for the hold: its look at the database is done and nothing is in flight.
    await eventually(
      () => handle.describe(),
      (d) =>
        d.status.name === "RUNNING" &&
        Boolean(d.typedSearchAttributes.get(AppointmentStartsAtAttribute)) &&
        !d.raw.pendingWorkflowTask &&
        !d.raw.pendingActivities?.length,
      "the appointment workflow to wait with nothing in flight",
      15_000,
    );
  });
  t.true(Date.now() < holdUntil.getTime(), "the worker went away before the hold ran out");

  await sleep(holdUntil.getTime() - Date.now() + 3000);
  t.like(
    (await c.api.get(`/appointments/${appointment.id}`)).body.payload,
    { status: "scheduled", payment_status: "awaiting_payment" },
    "nothing happens while no worker runs",
  );

  const second = await startWorker();
  await second.runUntil(async () => {
    const cancelled = await eventually(
      () => c.api.get(`/appointments/${appointment.id}`),
      (r) => r.body.payload.status === "cancelled",
      "the appointment to be cancelled",
      30_000,
    );
    t.like(cancelled.body.payload, { status: "cancelled", payment_status: "cancelled", cancellation_reason: "prepayment_not_received" });
    const messages = await eventually(
      () => conversationMessages(h, c.account, appointment.conversation_id),
      (m) => m.some((x) => x.content.includes("prepayment was not received")),
      "the prepayment-not-received message",
      15_000,
    );
    t.true(messages.some((m) => m.content.includes("prepayment was not received")));
    t.is(await handle.result(), "cancelled");
  });
});
