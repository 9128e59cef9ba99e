import test from "ava";
import { eventually } from "../support/eventually";
import { touchConversationTimer } from "../../src/services/conversationTimers";
import { ownQueue, useHarness } from "../support/harness";
import { contents, moveDeadline, openConversation, setupSettled, show, timerHandle, timerInput, waitingFor } from "./support";

const h = useHarness(test, { relay: true });

test("a timer that continued as new honours the touch sent at the switch and resolves on time", async (t) => {
  const s = await openConversation(h, { auto_resolve_after: 10 });
  await setupSettled(h, s);
  // A queue of its own, so the test decides when a worker runs. The workflow id is the
  // conversation's, so first end the timer the relay started on the shared queue.
  const { deps, startWorker } = ownQueue(h, "continue-as-new");
  const handle = timerHandle(h, s);
  await handle.terminate("moved to the continue-as-new test's queue").catch(() => undefined);

  const far = await moveDeadline(h, s, 10 * 60_000);
  let firstRunId = "";
  await (
    await startWorker()
  ).runUntil(async () => {
    await touchConversationTimer(deps, { ...timerInput(s), roundsPerRun: 2 });
    firstRunId = (await waitingFor(handle, far)).runId;
    // The first touch ends round one of two: the run goes on.
    await touchConversationTimer(deps, timerInput(s));
    t.is((await waitingFor(handle, far)).runId, firstRunId);
  });

  // With no worker, everything below lands in the one activation that ends round two: the run
  // decides to continue as new while the change and its touch are already there.
  await touchConversationTimer(deps, timerInput(s));
  const deadline = await moveDeadline(h, s, 6000);
  await touchConversationTimer(deps, timerInput(s));

  await (
    await startWorker()
  ).runUntil(async () => {
    const firstRun = h.deps.temporal.client.workflow.getHandle(handle.workflowId, firstRunId);
    t.is(
      (
        await eventually(
          () => firstRun.describe(),
          (d) => d.status.name !== "RUNNING",
          "the first run to end",
          15_000,
        )
      ).status.name,
      "CONTINUED_AS_NEW",
    );
    const next = await handle.describe();
    t.not(next.runId, firstRunId, "the conversation's timer is now the new run");

    const conversation = await eventually(
      () => show(h, s),
      (c) => c.status === "resolved",
      "the conversation to resolve",
      15_000,
    );
    const seenAt = Date.now();
    t.is(conversation.status, "resolved");
    t.true(seenAt - deadline < 3000, `resolved ${seenAt - deadline} ms after the deadline`);
    const activity = (await contents(h, s)).find(
      (m) => m.message_type === 2 && m.content === "Conversation was marked resolved by system due to 10 minutes of inactivity",
    );
    t.truthy(activity);
    t.true(activity!.created_at.getTime() >= deadline, "not before the deadline");
    // Let the timer end while its worker is up, rather than linger on a queue nobody polls. The new
    // run may itself continue as new (the resolve's own events touch it, and it has two rounds a run):
    // the chain's last run is the one that completes.
    const latest = h.deps.temporal.client.workflow.getHandle(handle.workflowId);
    await latest.result();
    t.is((await latest.describe()).status.name, "COMPLETED");
  });
});
