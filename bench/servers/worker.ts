/**
 * The worker role alone (Temporal worker and event relay), as `npm run start:worker` runs it, in a
 * process of its own so the bench measures its memory and the load generator never shares its event
 * loop. Prints a line once it is running.
 */
import { loadConfig } from "../../src/config";
import { openRuntime, startWorker } from "../../src/runtime";

async function main() {
  const config = { ...loadConfig(), taskQueue: process.env.BENCH_TASK_QUEUE ?? "convo-sched-bench" };
  const temporalAddress = process.env.TEMPORAL_ADDRESS!;
  const runtime = await openRuntime(config, { databaseUrl: process.env.DATABASE_URL!, temporalAddress });
  await startWorker(runtime, config, temporalAddress);
  console.log(JSON.stringify({ port: 0, pid: process.pid }));
}

// A normal exit, so --cpu-prof writes its profile.
process.on("SIGINT", () => process.exit(0));
void main();
