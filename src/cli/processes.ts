import cluster, { type Worker as ClusterWorker } from "node:cluster";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { logger } from "../lib/logger";

/** A child that dies this soon after it started is failing to start, not crashing: restarting it would loop. */
const STARTUP_WINDOW_MS = 15_000;
/** Pause before a crashed child is started again, so a crash loop does not spin the CPU. */
const RESTART_DELAY_MS = 1000;

/** Any process `npm start` runs beside itself: an API process of the cluster or a worker. */
export interface Child {
  kill(signal: NodeJS.Signals): void;
  running(): boolean;
  once(event: "exit", listener: (code: number | null, signal: string | null) => void): void;
}

export interface Supervised {
  /** SIGTERM to every child (each drains and stops on its own), then waits for all of them. */
  stop(): Promise<void>;
}

/**
 * Runs `count` children of one role and keeps them running: a child that crashes after starting is
 * started again (a rolling restart of one process loses nothing; the others carry its share
 * meanwhile); one that dies during its start stops the whole service through `onFatal`. Nothing is
 * restarted once `shuttingDown` says the service is stopping.
 */
export function supervise(
  role: string,
  count: number,
  start: (slot: number) => Child,
  {
    onFatal,
    shuttingDown,
    startupWindowMs = STARTUP_WINDOW_MS,
    restartDelayMs = RESTART_DELAY_MS,
  }: { onFatal: (reason: string) => void; shuttingDown: () => boolean; startupWindowMs?: number; restartDelayMs?: number },
): Supervised {
  let stopping = false;
  const live = new Set<Child>();
  const exits = new Set<Promise<void>>();
  const run = (slot: number) => {
    const startedAt = Date.now();
    const child = start(slot);
    live.add(child);
    const exited = new Promise<void>((resolve) =>
      child.once("exit", (code, signal) => {
        live.delete(child);
        exits.delete(exited);
        resolve();
        // Ctrl-C signals the children too: they stop on their own while the service shuts down.
        if (stopping || shuttingDown()) return;
        const how = String(signal ?? code);
        if (Date.now() - startedAt < startupWindowMs) return onFatal(`${role} process ${slot} exited (${how}) while starting`);
        logger.error(`${role} process ${slot} exited (${how}); starting it again`);
        setTimeout(() => {
          if (!stopping) run(slot);
        }, restartDelayMs);
      }),
    );
    exits.add(exited);
  };
  for (let slot = 1; slot <= count; slot++) run(slot);
  return {
    async stop() {
      stopping = true;
      for (const child of live) if (child.running()) child.kill("SIGTERM");
      await Promise.all(exits);
    },
  };
}

/** A worker process (Temporal worker and event relay), `npm run start:worker` with `env` added. */
export function workerProcess(env: Record<string, string>): Child {
  const child: ChildProcess = spawn(process.execPath, [...process.execArgv, path.join(__dirname, "worker.ts")], {
    env: { ...process.env, ...env },
    stdio: "inherit",
  });
  return {
    kill: (signal) => child.kill(signal),
    running: () => child.exitCode === null && child.signalCode === null,
    once: (event, listener) => child.once(event, listener),
  };
}

/**
 * An API process (`npm run start:api`) in this process's cluster: every one listens on the same
 * port, and the primary hands each new connection to the next of them.
 */
export function apiProcess(env: Record<string, string>): Child {
  cluster.setupPrimary({ exec: path.join(__dirname, "api.ts"), execArgv: process.execArgv });
  const worker: ClusterWorker = cluster.fork(env);
  return {
    kill: (signal) => worker.process.kill(signal),
    running: () => !worker.isDead(),
    once: (event, listener) => worker.once(event, listener),
  };
}
