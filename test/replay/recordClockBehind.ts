/**
 * Records the conversation timer and the appointment workflow with a worker whose clock is behind
 * the server's, twice each: run by the workflow code from before the re-plan floor
 * (<workflow>-clock-behind-before-floor.json, which re-planned with 1 ms sleeps) and by the current
 * code (…-with-floor.json, with the patch marker). The floor is behind patched(): replaying both
 * with the current code proves that runs started before it and after it still replay. Activities are
 * mocked: a history only needs their answers. The "before" files stand for runs from before the
 * change; re-record them only to reproduce them:
 *
 *   TEST_DATABASE=convo_sched_record TEST_TEMPORAL_PORT=7399 npx tsx test/replay/recordClockBehind.ts <commit before the floor>
 */
import { readFileSync } from "node:fs";
import { TestWorkflowEnvironment } from "@temporalio/testing";
import { Worker } from "@temporalio/worker";
import { withTestServices } from "../support/services";
import { saveHistory } from "./historyFiles";
import { bundleWorkflowsAt, runRecorder } from "./oldWorkflows";

const SKEW_MS = 3000;

/** Each workflow with activities whose clock is SKEW_MS behind: "not yet" until it catches up with the first deadline. */
const SCENARIOS = {
  conversationTimerWorkflow: () => {
    let at: number | undefined;
    return {
      args: [{ accountId: 1, conversationId: 10, conversationUuid: "7f3a0d1e-0000-4000-8000-000000000001", displayId: 3 }],
      activities: {
        planConversationTimer: async () => ({ kind: "resolve", at: (at ??= Date.now() + 300), plannedAt: Date.now() }),
        fireConversationTimer: async () => (Date.now() - SKEW_MS >= at! ? "resolved" : null),
      },
    };
  },
  appointmentWorkflow: () => {
    let at: number | undefined;
    let over = false;
    return {
      args: [{ accountId: 1, appointmentId: 21 }],
      activities: {
        syncAppointment: async () =>
          over
            ? { status: "over", appointmentStatus: "booked", resourceId: 5, startsAt: Date.now(), details: "started" }
            : {
                status: "waiting",
                appointmentStatus: "booked",
                next: { kind: "reminder", at: (at ??= Date.now() + 300), offsetMinutes: 60, startsAt: Date.now() + 3_600_000 },
                resourceId: 5,
                startsAt: Date.now() + 3_600_000,
                details: "waiting",
              },
        fireAppointmentStep: async () => {
          if (Date.now() - SKEW_MS < at!) return null;
          over = true;
          return "reminder sent";
        },
      },
    };
  },
};

async function main(commit: string) {
  const code = await bundleWorkflowsAt(commit);
  await withTestServices(async (services) => {
    const env = await TestWorkflowEnvironment.createFromExistingServer({ address: services.temporalAddress, namespace: "default" });
    try {
      const current = readFileSync(services.workflowBundlePath, "utf8");
      for (const type of Object.keys(SCENARIOS) as (keyof typeof SCENARIOS)[]) {
        await recordClockBehind(env, code, type, "before-floor");
        await recordClockBehind(env, current, type, "with-floor");
      }
    } finally {
      await env.teardown();
    }
  });
}

async function recordClockBehind(env: TestWorkflowEnvironment, code: string, type: keyof typeof SCENARIOS, name: string) {
  const { args, activities } = SCENARIOS[type]();
  const taskQueue = `record-clock-behind-${type}-${name}`;
  const workflowId = `clock-behind-${type}-${name}`;
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: { code }, activities });
  await worker.runUntil(env.client.workflow.execute(type, { taskQueue, workflowId, args }));
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const file = saveHistory(`${type}-clock-behind-${name}`, history);
  console.log(`${history.events?.length} events written to ${file}`);
}

runRecorder("recordClockBehind.ts", main);
