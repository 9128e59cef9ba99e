import test from "ava";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import { uniqueId, withWorker, workflowEnvironment } from "../support/workflowEnv";

let env: TestWorkflowEnvironment;
test.before(async () => {
  env = await workflowEnvironment();
});
test.after.always(async () => {
  await env?.teardown();
});

const input = { accountId: 1, id: 9 };

test("an import reads chunks until the file is done, retrying a failed chunk, then finishes once", async (t) => {
  let calls = 0;
  let finishes = 0;
  const result = await withWorker(
    env,
    {
      importContactChunk: async () => {
        calls++;
        // The third call fails once, as a worker lost mid-chunk would: the retry reads on.
        if (calls === 3) throw new Error("connection lost");
        return { done: calls === 5 };
      },
      finishContactImport: async () => {
        finishes++;
        return { status: "completed", processed: 4000, rejected: 0 };
      },
    },
    (taskQueue) => env.client.workflow.execute("contactImportWorkflow", { taskQueue, workflowId: uniqueId("contact-import"), args: [input] }),
  );
  t.deepEqual(result, { status: "completed", processed: 4000, rejected: 0 });
  t.is(calls, 5);
  t.is(finishes, 1);
});

test("an export is one activity whose result is the run's", async (t) => {
  const result = await withWorker(env, { runContactExport: async () => ({ rows: 12 }) }, (taskQueue) =>
    env.client.workflow.execute("contactExportWorkflow", { taskQueue, workflowId: uniqueId("contact-export"), args: [input] }),
  );
  t.deepEqual(result, { rows: 12 });
});
