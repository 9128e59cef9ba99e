/**
 * Records a timer whose worker clock is behind the server's twice: run by the workflow code from
 * before the re-plan floor (conversationTimerWorkflow-clock-behind-before-floor.json, which
 * re-planned with 1 ms sleeps) and by the current code (…-with-floor.json, with the patch marker).
 * The floor is behind patched(): replaying both with the current code proves that runs started
 * before it and after it still replay. Activities are mocked: a history only needs their answers.
 * The "before" file stands for runs from before the change; re-record it only to reproduce it:
 *
 *   TEST_DATABASE=convo_sched_record TEST_TEMPORAL_PORT=7399 npx tsx test/replay/recordClockBehind.ts <commit before the floor>
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { TestWorkflowEnvironment } from "@temporalio/testing";
import { bundleWorkflowCode, Worker } from "@temporalio/worker";
import { PROJECT_ROOT } from "../../src/config";
import { withTestServices } from "../support/services";
import { saveHistory } from "./historyFiles";

async function main(commit: string) {
  // Inside the project, so the old code resolves the project's node_modules.
  mkdirSync(path.join(PROJECT_ROOT, ".data"), { recursive: true });
  const tree = mkdtempSync(path.join(PROJECT_ROOT, ".data", "old-workflows-"));
  execFileSync("sh", ["-c", `git archive ${commit} workflows activities src | tar -x -C ${tree}`], { cwd: PROJECT_ROOT });
  const { code } = await bundleWorkflowCode({ workflowsPath: path.join(tree, "workflows") }).finally(() => rmSync(tree, { recursive: true, force: true }));

  await withTestServices(async (services) => {
    const env = await TestWorkflowEnvironment.createFromExistingServer({ address: services.temporalAddress, namespace: "default" });
    try {
      await recordClockBehind(env, code, "before-floor");
      await recordClockBehind(env, readFileSync(services.workflowBundlePath, "utf8"), "with-floor");
    } finally {
      await env.teardown();
    }
  });
}

async function recordClockBehind(env: TestWorkflowEnvironment, code: string, name: string) {
  const skewMs = 3000;
  let at: number | undefined;
  const taskQueue = `record-clock-behind-${name}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { code },
    activities: {
      planConversationTimer: async () => ({ kind: "resolve", at: (at ??= Date.now() + 300) }),
      fireConversationTimer: async () => (Date.now() - skewMs >= at! ? "resolved" : null),
    },
  });
  const workflowId = `conversation-timer-clock-behind-${name}`;
  const input = { accountId: 1, conversationId: 10, conversationUuid: "7f3a0d1e-0000-4000-8000-000000000001", displayId: 3 };
  await worker.runUntil(env.client.workflow.execute("conversationTimerWorkflow", { taskQueue, workflowId, args: [input] }));
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const file = saveHistory(`conversationTimerWorkflow-clock-behind-${name}`, history);
  console.log(`${history.events?.length} events written to ${file}`);
}

const commit = process.argv[2];
if (!commit) {
  console.error("usage: recordClockBehind.ts <commit>");
  process.exit(2);
}
main(commit).then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
