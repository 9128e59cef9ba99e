/**
 * Concurrent load for the API cases: servers run as processes of their own (so the load generator
 * never shares their event loop), and autocannon drives them with many connections at once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { PROJECT_ROOT } from "../src/config";
import { machineBusyMs, processCpuMs } from "./cpu";

export interface RunningServer {
  url: string;
  /** CPU time the server process has used so far, in ms (Linux; NaN elsewhere). */
  cpuMs(): number;
  /** Resident memory of the server process now and at its peak (VmRSS, VmHWM), in bytes (Linux; NaN elsewhere). */
  memory(): { rss: number; peakRss: number };
  stop(): Promise<void>;
}

function memoryOf(pid: number | undefined): { rss: number; peakRss: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN) * 1024;
    return { rss: kib("VmRSS"), peakRss: kib("VmHWM") };
  } catch {
    return { rss: NaN, peakRss: NaN };
  }
}

/**
 * Starts bench/servers/<name>.ts with the bench's environment and waits for the port it prints.
 * BENCH_CPU_PROF=1 writes a V8 CPU profile of the server to .data/profiles when it stops.
 */
export async function startServer(name: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const profile = process.env.BENCH_CPU_PROF === "1" ? ["--cpu-prof", `--cpu-prof-dir=${path.join(PROJECT_ROOT, ".data", "profiles", name)}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, "--import", "tsx", path.join(__dirname, "servers", `${name}.ts`)], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split("\n").find((l) => l.startsWith('{"port"'));
      if (!line) return;
      // Past the port line the server's stdout (its request log) is drained unread: keeping it would
      // cost this process, which shares the machine with the server, more CPU with every request.
      child.stdout!.off("data", onData);
      child.stdout!.resume();
      resolve((JSON.parse(line) as { port: number }).port);
    };
    child.stdout!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`bench server ${name} exited (${code}) before listening`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    cpuMs: () => processCpuMs(child.pid),
    memory: () => memoryOf(child.pid),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        // SIGINT lets --cpu-prof write its profile.
        child.kill("SIGINT");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  total: number;
  /** The server's CPU time per request, in ms. */
  cpuMsPerRequest: number;
  /** CPU of every process on the machine (server, PostgreSQL, load generator, ...) per request. */
  machineCpuMsPerRequest: number;
}

export interface LoadOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** A body per request (JSON-encoded); the index counts requests, so callers can rotate targets. */
  body?: (index: number) => unknown;
  /** The path per request; the index counts requests. */
  path: (index: number) => string;
  connections?: number;
  durationSeconds?: number;
}

/** Drives the server with `connections` concurrent connections for the duration; non-2xx answers count as errors. */
export function load(server: RunningServer, options: LoadOptions): Promise<LoadResult> {
  return loadAcross([server], options);
}

/**
 * Drives several servers at once, as a proxy in front of them would: the connections split evenly,
 * one load generator per server, the request index shared. Throughput and CPU are the servers'
 * sums; p50 is their mean weighted by requests, p99 the slowest server's.
 */
export async function loadAcross(servers: RunningServer[], options: LoadOptions): Promise<LoadResult> {
  let index = 0;
  const method = options.method ?? "GET";
  const cpuBefore = servers.map((server) => server.cpuMs());
  const machineBefore = machineBusyMs();
  const results = await Promise.all(
    servers.map((server) =>
      autocannon({
        url: server.url,
        connections: Math.ceil((options.connections ?? 32) / servers.length),
        duration: options.durationSeconds ?? Number(process.env.BENCH_SECONDS ?? 10),
        requests: [
          {
            method,
            setupRequest: (request) => {
              const i = index++;
              const body = options.body?.(i);
              return {
                ...request,
                method,
                path: options.path(i),
                headers: { ...options.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
                ...(body === undefined ? {} : { body: JSON.stringify(body) }),
              };
            },
          },
        ],
      }),
    ),
  );
  const total = results.reduce((sum, result) => sum + result.requests.total, 0);
  const serverCpu = servers.reduce((sum, server, i) => sum + server.cpuMs() - cpuBefore[i]!, 0);
  return {
    requestsPerSecond: results.reduce((sum, result) => sum + result.requests.average, 0),
    p50: results.reduce((sum, result) => sum + result.latency.p50 * result.requests.total, 0) / Math.max(1, total),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    errors: results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0),
    total,
    cpuMsPerRequest: serverCpu / Math.max(1, total),
    machineCpuMsPerRequest: (machineBusyMs() - machineBefore) / Math.max(1, total),
  };
}

/** The result's share of another's throughput; the CPU ratio is what it would be if both were CPU-bound on an idle machine. */
function against(result: LoadResult, name: string, other: LoadResult): string {
  return `, ${(result.requestsPerSecond / other.requestsPerSecond).toFixed(2)} of ${name} (CPU ratio ${(other.cpuMsPerRequest / result.cpuMsPerRequest).toFixed(2)})`;
}

/** One line per case: throughput, latency, failures, the ratio to its baseline and, given one, to its floor. */
export function report(name: string, result: LoadResult, baseline?: LoadResult, floor?: { name: string; result: LoadResult }): void {
  const ratio = `${baseline ? against(result, "baseline", baseline) : ""}${floor ? against(result, floor.name, floor.result) : ""}`;
  console.log(
    `${name.padEnd(48)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
      `server CPU ${result.cpuMsPerRequest.toFixed(2)} ms/req, machine ${result.machineCpuMsPerRequest.toFixed(2)} ms/req` +
      `${result.errors ? `, ${result.errors} failed of ${result.total}` : ""}${ratio}`,
  );
}
