import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { Connection } from "@temporalio/client";
import { devServerSearchAttributeFlags } from "../temporal/searchAttributes";
import { findOrBuildTemporalCli } from "./temporalCli";

export interface DevServerOptions {
  port: number;
  /** Temporal UI port; omit for a headless server. */
  uiPort?: number;
  /** SQLite file that makes the server's state survive restarts; omit for in-memory. */
  dbFile?: string;
  namespace: string;
}

export interface RunningTemporal {
  address: string;
  uiUrl?: string;
  stop(): Promise<void>;
}

const SQLITE_FLAGS = ["--sqlite-pragma", "journal_mode=WAL", "--sqlite-pragma", "synchronous=OFF"];
/**
 * A webhook lane's round is an activity on the lane's own task queue: with eager execution the server
 * hands it back in the reply to the workflow task that scheduled it, skipping a trip through matching.
 */
const EAGER_ACTIVITIES = ["--dynamic-config-value", "system.enableActivityEagerExecution=true"];

/** Waits until the frontend answers for the namespace, so callers can connect right away. */
export async function waitForTemporal(address: string, namespace: string, timeoutMs = 120_000, exited?: () => string | undefined) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const failure = exited?.();
    if (failure) throw new Error(failure);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`Temporal at ${address} did not become ready: ${(err as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Runs `temporal server start-dev` as a child process (or the SDK's downloaded server as a last resort). */
export async function startTemporalDevServer(options: DevServerOptions): Promise<RunningTemporal> {
  const address = `127.0.0.1:${options.port}`;
  const uiUrl = options.uiPort ? `http://127.0.0.1:${options.uiPort}` : undefined;
  const extraArgs = [...devServerSearchAttributeFlags(), ...EAGER_ACTIVITIES, ...(options.dbFile ? SQLITE_FLAGS : [])];
  if (options.dbFile) mkdirSync(path.dirname(options.dbFile), { recursive: true });

  const binary = findOrBuildTemporalCli();
  if (!binary) return startDownloadedServer(options, extraArgs, uiUrl);

  const args = [
    "server",
    "start-dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(options.port),
    "--namespace",
    options.namespace,
    "--log-level",
    "warn",
    ...extraArgs,
  ];
  if (options.uiPort) args.push("--ui-port", String(options.uiPort));
  else args.push("--headless");
  if (options.dbFile) args.push("--db-filename", options.dbFile);

  const child = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"] });
  let exitMessage: string | undefined;
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  // "close", not "exit": only then has all of stderr been read (a refusal such as a port in use is its last line).
  const exited = new Promise<void>((resolve) =>
    child.on("close", (code, signal) => {
      exitMessage = `temporal server start-dev exited (${signal ?? code}): ${stderr.trim()}`;
      resolve();
    }),
  );
  try {
    await waitForTemporal(address, options.namespace, 120_000, () => exitMessage);
  } catch (err) {
    child.kill("SIGKILL");
    throw err;
  }
  return {
    address,
    uiUrl,
    async stop() {
      if (exitMessage) return;
      child.kill("SIGTERM");
      const forced = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(forced);
    },
  };
}

/** Machines with internet and no Go: @temporalio/testing downloads and runs the dev server. */
async function startDownloadedServer(options: DevServerOptions, extraArgs: string[], uiUrl: string | undefined): Promise<RunningTemporal> {
  console.log("No Temporal CLI and no Go toolchain found: letting @temporalio/testing download the dev server.");
  const { TestWorkflowEnvironment } = await import("@temporalio/testing");
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      ip: "127.0.0.1",
      port: options.port,
      ui: Boolean(options.uiPort),
      uiPort: options.uiPort,
      dbFilename: options.dbFile,
      namespace: options.namespace,
      extraArgs,
    },
  });
  return { address: `127.0.0.1:${options.port}`, uiUrl, stop: () => env.teardown() };
}
