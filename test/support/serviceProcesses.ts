import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { PROJECT_ROOT } from "../../src/config";
import { eventually } from "./eventually";
import { requestTo, type Harness } from "./harness";

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** As docs/scaling.md advises an orchestrator: time for in-flight work before a stop becomes a kill. */
const STOP_GRACE_MS = 30_000;

/** One production role (`npm run start:api` or `start:worker`) running as a process of its own. */
export interface RoleProcess {
  readonly role: "api" | "worker";
  /** The API's base URL; undefined for a worker. */
  readonly baseUrl?: string;
  /** The last lines it wrote, for a failing test's report. */
  output(): string;
  /** Sends the signal and waits for the process to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** SIGTERM, as an orchestrator stops it; SIGKILL if it has not exited within STOP_GRACE_MS. */
  stop(): Promise<void>;
  running(): boolean;
}

/**
 * Starts `src/cli/<role>.ts` as production runs it, with `env` over the test run's own (the
 * database, Temporal, the prebuilt workflow bundle). An API is answered once its /health finds
 * PostgreSQL and Temporal.
 */
export async function startRole(role: "api" | "worker", env: Record<string, string>): Promise<RoleProcess> {
  const port = role === "api" ? await freePort() : undefined;
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(PROJECT_ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(PROJECT_ROOT, `src/cli/${role}.ts`)],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, LOG_LEVEL: "error", ...env, ...(port ? { PORT: String(port) } : {}) },
      stdio: ["ignore", "pipe", "pipe"],
      // A group of its own: a kill reaches tsx's node process as well as tsx.
      detached: true,
    },
  );
  let output = "";
  for (const stream of [child.stdout!, child.stderr!]) stream.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const process_: RoleProcess = {
    role,
    ...(port ? { baseUrl: `http://127.0.0.1:${port}` } : {}),
    output: () => output,
    running,
    async kill(signal) {
      if (running()) process.kill(-child.pid!, signal);
      await exited;
    },
    async stop() {
      const overdue = setTimeout(() => running() && process.kill(-child.pid!, "SIGKILL"), STOP_GRACE_MS);
      await process_.kill("SIGTERM");
      clearTimeout(overdue);
    },
  };
  if (port) {
    // Serving once it reaches PostgreSQL and Temporal; /health's 503 for stalled events is the workers' business.
    await eventually(
      async () => {
        if (!running()) throw new Error(`${role} exited while starting:\n${output}`);
        const answer = await fetch(`${process_.baseUrl}/health`).catch(() => undefined);
        return answer?.status === 200 || answer?.status === 503 ? ((await answer.json()) as { database?: string; temporal?: string }) : undefined;
      },
      (health) => health?.database === "ok" && health.temporal === "ok",
      `the ${role} process's /health to find PostgreSQL and Temporal`,
      90_000,
    ).catch(async (err) => {
      await process_.kill("SIGKILL");
      throw err;
    });
  }
  return process_;
}

/** Starts the roles at once; if one fails to start, stops those that did and fails with its error. */
export async function startRoles(roles: RoleProcess["role"][], env: Record<string, string>): Promise<RoleProcess[]> {
  const settled = await Promise.allSettled(roles.map((role) => startRole(role, env)));
  const started = settled.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) {
    await Promise.all(started.map((p) => p.stop()));
    throw failed.reason;
  }
  return started;
}

/** The harness's requests sent to another API process instead: the factories then work through it. */
export function through(h: Harness, baseUrl: string): Harness {
  return { ...h, baseUrl, request: requestTo(baseUrl) };
}
