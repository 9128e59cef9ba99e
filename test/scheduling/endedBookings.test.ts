import test from "ava";
import { fireAppointmentStep } from "../../src/scheduling/appointmentLife";
import { appointmentWorkflowId } from "../../src/temporal/contracts";
import { eventually, workflowExists } from "../support/eventually";
import { useHarness } from "../support/harness";
import { book, liveClinic, type LiveClinic } from "./bookingSupport";

const h = useHarness(test, { relay: true });

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const iso = (ms: number) => new Date(ms).toISOString();

/** A 5-minute visit recorded after the fact (still scheduled) that ends `endsInMs` from now (negative: ended that long ago). */
const visitEnding = (c: LiveClinic, endsInMs: number) =>
  book(c.api, {
    resource_id: c.resource.id,
    service_id: c.service.id,
    contact_id: c.contact.id,
    inbox_id: c.inbox.id,
    starts_at: iso(Date.now() + endsInMs - 5 * MINUTE),
    record_past_visit: true,
  });

const statusOf = async (c: LiveClinic, id: number): Promise<string> => (await c.api.get(`/appointments/${id}`)).body.payload.status;
const eventsOf = (id: number, name: string) =>
  h
    .knex("events")
    .where("name", name)
    .whereRaw("payload->>'id' = ?", [String(id)]);
/** What the booking's workflow ended with, once it has started and ended. */
async function workflowResult(c: LiveClinic, id: number): Promise<string> {
  const handle = h.deps.temporal.client.workflow.getHandle(appointmentWorkflowId(h.deps.temporal.installationId, c.account.id, id));
  await workflowExists(handle, `the workflow of appointment ${id}`);
  return handle.result();
}

test("the ended-booking settings: defaults, changes, and what is refused", async (t) => {
  const { api } = await liveClinic(h);
  t.like((await api.get("/settings")).body.payload, { ended_booking_status: null, ended_booking_grace_minutes: 60 });
  const changed = await api.patch("/settings", { ended_booking_status: "no_show", ended_booking_grace_minutes: 15 });
  t.is(changed.status, 200);
  t.like(changed.body.payload, { ended_booking_status: "no_show", ended_booking_grace_minutes: 15, reminder_offsets_minutes: [1440, 120] });
  t.like((await api.patch("/settings", { ended_booking_status: "none" })).body.payload, { ended_booking_status: null, ended_booking_grace_minutes: 15 });
  t.like((await api.patch("/settings", { ended_booking_status: "completed" })).body.payload, { ended_booking_status: "completed" });
  t.like((await api.patch("/settings", { ended_booking_status: "" })).body.payload, { ended_booking_status: null });
  for (const body of [{ ended_booking_status: "cancelled" }, { ended_booking_grace_minutes: 10_081 }, { ended_booking_grace_minutes: -1 }]) {
    const refused = await api.patch("/settings", body);
    t.is(refused.status, 422, JSON.stringify(body));
  }
  t.like((await api.get("/settings")).body.payload, { ended_booking_status: null, ended_booking_grace_minutes: 15 });
});

test("a booking still scheduled its grace after its end becomes no_show, with its events; without the setting it stays", async (t) => {
  const c = await liveClinic(h);
  const untouched = await visitEnding(c, -10 * MINUTE);
  t.is(await workflowResult(c, untouched.id), "scheduled", "no setting: the workflow ends, the booking stays open");

  await c.api.patch("/settings", { ended_booking_status: "no_show", ended_booking_grace_minutes: 0 });
  const endsSoon = await visitEnding(c, 6 * SECOND);
  t.is(await statusOf(c, endsSoon.id), "scheduled");
  await new Promise((resolve) => setTimeout(resolve, 3 * SECOND));
  t.is(await statusOf(c, endsSoon.id), "scheduled", "not before its end");
  await eventually(
    () => statusOf(c, endsSoon.id),
    (status) => status === "no_show",
    "the booking to become no_show",
    30_000,
  );
  const [noShow] = await eventsOf(endsSoon.id, "appointment.no_show");
  t.like(noShow?.payload, { status: "no_show", previous_status: "scheduled" });
  t.is(noShow?.performed_by_rule_id, null);
  t.is(await workflowResult(c, endsSoon.id), "no_show");
  // Settings changes wake only bookings whose grace has not run out: the old one stays as it was.
  t.is(await statusOf(c, untouched.id), "scheduled");
});

test("switching the setting on closes a booking that ended within the grace, as completed", async (t) => {
  const c = await liveClinic(h);
  const recent = await visitEnding(c, -(3 * MINUTE - 5 * SECOND));
  const old = await visitEnding(c, -24 * 60 * MINUTE);
  // Both workflows have looked and ended (a workflow that wakes after the change closes its booking at once).
  t.is(await workflowResult(c, recent.id), "scheduled");
  t.is(await workflowResult(c, old.id), "scheduled");
  await c.api.patch("/settings", { ended_booking_status: "completed", ended_booking_grace_minutes: 3 });
  await eventually(
    () => statusOf(c, recent.id),
    (status) => status === "completed",
    "the recent booking to be completed",
    30_000,
  );
  t.is((await eventsOf(recent.id, "appointment.completed")).length, 1);
  t.is(await statusOf(c, old.id), "scheduled");
});

test("a booking closed by hand before its grace is left alone; 50 racing closes of one booking close it once", async (t) => {
  const c = await liveClinic(h);
  // A grace long enough that the workflows wait: the test fires the step itself, as if later.
  await c.api.patch("/settings", { ended_booking_status: "no_show", ended_booking_grace_minutes: 10 });
  const later = Date.now() + 15 * MINUTE;
  const closeStep = { kind: "close" as const, at: later, status: "no_show" as const };
  const byHand = await visitEnding(c, -5 * SECOND);
  await c.api.patch(`/appointments/${byHand.id}`, { status: "completed" });
  t.is(await fireAppointmentStep(h.knex, byHand.id, closeStep, later), null);
  t.is(await statusOf(c, byHand.id), "completed");

  const open = await visitEnding(c, -5 * MINUTE - 10 * SECOND);
  await c.api.patch(`/appointments/${open.id}`, { status: "confirmed" });
  t.is(await fireAppointmentStep(h.knex, open.id, closeStep, Date.now()), null, "not before its grace has passed");
  const outcomes = await Promise.all(Array.from({ length: 50 }, () => fireAppointmentStep(h.knex, open.id, closeStep, later)));
  t.deepEqual(
    outcomes.filter((outcome) => outcome !== null),
    ["ended booking: no_show"],
  );
  t.is(await statusOf(c, open.id), "no_show");
  const events = await eventsOf(open.id, "appointment.no_show");
  t.is(events.length, 1);
  t.like(events[0]?.payload, { previous_status: "confirmed" });
});
