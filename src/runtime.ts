import type { Server } from "node:http";
import { createApp } from "./app";
import type { Config } from "./config";
import { connectDatabase, migrate } from "./db";
import type { AppDeps } from "./deps";
import { PlatformApp } from "./models/PlatformApp";
import { resumeAccountDeletions } from "./services/accountDeletion";
import { EventRelay } from "./services/eventRelay";
import { connectTemporalClient } from "./temporal/client";
import { createWorker } from "./temporal/worker";

export interface Endpoints {
  databaseUrl: string;
  temporalAddress: string;
}

export interface Runtime {
  deps: AppDeps;
  close(): Promise<void>;
}

/** Connects to PostgreSQL and Temporal; the pieces every role shares. */
export async function openRuntime(config: Config, endpoints: Endpoints): Promise<Runtime> {
  const knex = connectDatabase(endpoints.databaseUrl);
  const client = await connectTemporalClient(endpoints.temporalAddress, config.temporalNamespace);
  return {
    deps: { knex, temporal: { client, taskQueue: config.taskQueue } },
    async close() {
      await client.connection.close();
      await knex.destroy();
    },
  };
}

export async function prepareDatabase(runtime: Runtime, config: Config): Promise<void> {
  const applied = await migrate(runtime.deps.knex);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  if (config.platformAppToken) await PlatformApp.ensureWithToken(config.platformAppToken);
}

export async function startApi(runtime: Runtime, config: Config): Promise<Server> {
  const app = createApp(runtime.deps, { bodyLimit: config.bodyLimit });
  return new Promise((resolve) => {
    const server = app.listen(config.port, () => resolve(server));
  });
}

export interface RunningWorker {
  stop(): Promise<void>;
}

/** The worker role: the Temporal worker and the relay that hands committed events to Temporal. */
export async function startWorker(runtime: Runtime, config: Config, temporalAddress: string): Promise<RunningWorker> {
  const worker = await createWorker({ address: temporalAddress, namespace: config.temporalNamespace, taskQueue: config.taskQueue, deps: runtime.deps });
  const finished = worker.run();
  const relay = new EventRelay(runtime.deps);
  await relay.start();
  const resumed = await resumeAccountDeletions(runtime.deps);
  if (resumed) console.log(`Resumed deletion of ${resumed} account(s)`);
  return {
    async stop() {
      await relay.stop();
      // The SDK's runtime also shuts workers down on SIGINT/SIGTERM; by now it may have done so.
      if (worker.getState() === "RUNNING") worker.shutdown();
      await finished;
    },
  };
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Runs `stop` once on Ctrl-C or SIGTERM, then exits. */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} received, shutting down...`);
    stop()
      .then(() => process.exit(0))
      .catch((err) => {
        console.error("Shutdown failed:", err);
        process.exit(1);
      });
  };
  process.on("SIGINT", () => handler("SIGINT"));
  process.on("SIGTERM", () => handler("SIGTERM"));
}

export function requireEnv(value: string | undefined, name: string): string {
  if (!value) {
    console.error(`${name} is required for this command (npm start runs everything with embedded defaults).`);
    process.exit(1);
  }
  return value;
}
