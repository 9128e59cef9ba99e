/**
 * The service's API in a process of its own (as `npm run start:api` runs it), for load cases; with
 * BENCH_WORKER=1 the worker and relay too (as `npm start`). Prints its port on stdout.
 */
import type { AddressInfo } from "node:net";
import { loadConfig } from "../../src/config";
import { openRuntime, startApi, startWorker } from "../../src/runtime";

async function main() {
  const config = { ...loadConfig(), port: 0, taskQueue: process.env.BENCH_TASK_QUEUE ?? "convo-sched-bench" };
  const temporalAddress = process.env.TEMPORAL_ADDRESS!;
  const runtime = await openRuntime(config, { databaseUrl: process.env.DATABASE_URL!, temporalAddress });
  if (process.env.BENCH_WORKER === "1") await startWorker(runtime, config, temporalAddress);
  const server = await startApi(runtime, config);
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
}

// A normal exit, so --cpu-prof writes its profile.
process.on("SIGINT", () => process.exit(0));
void main();
