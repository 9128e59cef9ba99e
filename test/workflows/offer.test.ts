import test from "ava";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import type { ChoiceOutcome } from "../../src/scheduling/offerChoice";
import { OFFER_CHOICE_SIGNAL } from "../../src/temporal/contracts";
import { timerDurations, uniqueId, withWorker, workflowEnvironment } from "../support/workflowEnv";

let env: TestWorkflowEnvironment;
test.before(async () => {
  env = await workflowEnvironment();
});
test.after.always(async () => {
  await env?.teardown();
});

const input = { accountId: 1, offerId: 9 };

test("a token the offer never offered is ignored and the wait goes on; the next choice ends it with its outcome", async (t) => {
  const chosen: string[] = [];
  const expiresAt = Date.now() + 3_600_000;
  const result = await withWorker(
    env,
    {
      offerState: async () => ({ open: true, expiresAt }),
      chooseOffer: async (_id: number, token: string): Promise<ChoiceOutcome> => {
        chosen.push(token);
        return token === "good" ? "booked" : "ignored";
      },
      expireOffer: async (): Promise<ChoiceOutcome> => "expired",
    },
    async (taskQueue) => {
      const handle = await env.client.workflow.start("schedulingOfferWorkflow", { taskQueue, workflowId: uniqueId("offer"), args: [input] });
      await handle.signal(OFFER_CHOICE_SIGNAL, "forged");
      await handle.signal(OFFER_CHOICE_SIGNAL, "good");
      return handle.result();
    },
  );
  t.is(result, "booked");
  t.deepEqual(chosen, ["forged", "good"]);
});

test("nobody chooses: the durable timer runs until the expiry, then the offer expires", async (t) => {
  const expiresAt = Date.now() + 6000;
  const workflowId = uniqueId("offer");
  let expired = 0;
  let expiredAt = 0;
  const result = await withWorker(
    env,
    {
      offerState: async () => ({ open: true, expiresAt }),
      chooseOffer: async (): Promise<ChoiceOutcome> => "booked",
      expireOffer: async (): Promise<ChoiceOutcome> => {
        expired++;
        expiredAt = Date.now();
        return "expired";
      },
    },
    (taskQueue) => env.client.workflow.execute("schedulingOfferWorkflow", { taskQueue, workflowId, args: [input] }),
  );
  t.is(result, "expired");
  t.is(expired, 1);
  t.true(expiredAt >= expiresAt, "not before the expiry");
  const timers = await timerDurations(env, workflowId);
  t.is(timers.length, 1, "one timer, to the expiry");
});

test("started for an offer already closed (a late choice), it ends at once", async (t) => {
  let choices = 0;
  const result = await withWorker(
    env,
    {
      offerState: async () => ({ open: false, expiresAt: 0 }),
      chooseOffer: async (): Promise<ChoiceOutcome> => {
        choices++;
        return "booked";
      },
    },
    (taskQueue) =>
      env.client.workflow
        .signalWithStart("schedulingOfferWorkflow", {
          taskQueue,
          workflowId: uniqueId("offer"),
          args: [input],
          signal: OFFER_CHOICE_SIGNAL,
          signalArgs: ["late"],
        })
        .then((handle) => handle.result()),
  );
  t.is(result, "closed");
  t.is(choices, 0);
});
