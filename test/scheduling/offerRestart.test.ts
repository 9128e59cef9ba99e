import test from "ava";
import { eventually, workflowExists } from "../support/eventually";
import { offerConsumer } from "../../src/scheduling/offerLife";
import type { EventRow } from "../../src/events/outbox";
import { schedulingOfferWorkflowId } from "../../src/temporal/contracts";
import { ownQueue, useHarness } from "../support/harness";
import { liveClinic, sleep } from "./bookingSupport";
import { offerApi, offerBecomes, publicChat } from "./offerSupport";

const h = useHarness(test, { relay: true });

const undispatched = (accountId: number) => h.knex("events").where("account_id", accountId).whereNull("dispatched_at").first("id");

test("a choice made while no worker runs is not lost: the next worker books it", async (t) => {
  const c = await liveClinic(h);
  const chat = await publicChat(h, c);
  const offer = (await offerApi(h, c).open(chat.conversationId, { service_id: c.service.id, count: 2 })).body.payload;
  const { deps, startWorker } = ownQueue(h, "offer-restart");

  // The relay started the offer's workflow on the shared queue: once it has, run it on this test's queue instead.
  t.falsy(
    await eventually(
      () => undispatched(c.account.id),
      (row) => !row,
      "the offer's events to be dispatched",
      15_000,
    ),
  );
  const handle = h.deps.temporal.client.workflow.getHandle(schedulingOfferWorkflowId(h.deps.temporal.installationId, c.account.id, offer.id));
  await workflowExists(handle, "the offer's workflow to exist", 15_000);
  await handle.terminate("moved to the restart test's queue").catch(() => undefined);
  const opened = { name: "scheduling_offer_opened", account_id: c.account.id, payload: { id: offer.id } } as unknown as EventRow;

  const first = await startWorker();
  await first.runUntil(async () => {
    await offerConsumer().dispatch(deps, [opened]);
    await eventually(
      () => handle.describe(),
      (d) => d.status.name === "RUNNING" && !d.raw.pendingWorkflowTask && !d.raw.pendingActivities?.length && d.historyLength > 5,
      "the offer's workflow to wait for the choice with nothing in flight",
      15_000,
    );
  });

  // No worker polls the offer's queue now: the contact chooses, the relay hands the choice over.
  const [slot] = offer.slots;
  await chat.choose(offer.message_id, { title: slot.title, value: slot.value });
  t.falsy(
    await eventually(
      () => undispatched(c.account.id),
      (row) => !row,
      "the choice's event to be dispatched",
      15_000,
    ),
  );
  await sleep(1500);
  t.is((await offerApi(h, c).get(chat.conversationId, offer.id)).body.payload.status, "open", "nothing is booked while no worker runs");

  const second = await startWorker();
  await second.runUntil(async () => {
    const booked = await offerBecomes(h, c, chat.conversationId, offer.id, ["booked"]);
    t.is(booked.chosen, slot.title);
    t.like((await c.api.get(`/appointments/${booked.appointment_id}`)).body.payload, { conversation_id: chat.conversationId, status: "scheduled" });
    t.is(await handle.result(), "booked");
  });
});
