import test from "ava";
import { DefaultLogger, makeTelemetryFilterString, Runtime, Worker } from "@temporalio/worker";
import { type History, historyFiles, LONG_LIVED, loadHistory as load, workflowTypeOf as typeOf } from "./historyFiles";

// The tampered history fails on purpose: keep the core's warning about it out of the output.
Runtime.install({ logger: new DefaultLogger("ERROR"), telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: "ERROR" }) } } });

const files = historyFiles();

/** Replays each history with the current workflow bundle; answers the error of each, if any. */
async function replay(histories: { workflowId: string; history: History }[]): Promise<Map<string, Error | undefined>> {
  const errors = new Map<string, Error | undefined>();
  const results = Worker.runReplayHistories({ workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! } }, histories);
  for await (const result of results) errors.set(result.workflowId, result.error);
  return errors;
}

test("every long-lived workflow has a recorded history", (t) => {
  const recorded = new Set(files.map((file) => typeOf(load(file))));
  t.deepEqual(
    LONG_LIVED.filter((type) => !recorded.has(type)),
    [],
  );
});

test("every recorded history replays with the current workflow code", async (t) => {
  const errors = await replay(files.map((file) => ({ workflowId: file, history: load(file) })));
  t.is(errors.size, files.length);
  for (const [file, error] of errors) t.is(error, undefined, `${file}: ${error?.message}`);
});

test("the replay check fails for code that no longer issues the recorded commands", async (t) => {
  // The account's deletion asks for an activity first; pretend it asked for something else.
  const history = load("accountDeletionWorkflow.json");
  const scheduled = history.events.find((event) => event.activityTaskScheduledEventAttributes)!.activityTaskScheduledEventAttributes!;
  scheduled.activityType = { name: "someActivityTheCodeNeverCalls" } as typeof scheduled.activityType;
  const errors = await replay([{ workflowId: "tampered", history }]);
  t.truthy(errors.get("tampered"));
  t.regex(errors.get("tampered")!.message, /nondetermin|someActivityTheCodeNeverCalls/i);
});
