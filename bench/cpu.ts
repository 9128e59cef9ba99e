/**
 * CPU time from /proc (Linux; NaN elsewhere): of one process, of the PostgreSQL backends serving one
 * database, of the Temporal dev server on one port, of the whole machine. On a machine shared with
 * other work req/s and latency swing with the neighbours' load, while CPU per request barely moves.
 */
import { readdirSync, readFileSync } from "node:fs";

const CLOCK_TICK_MS = 10;

/**
 * CPU time the whole machine spent busy (every process: the API, the worker, PostgreSQL, Temporal,
 * the load generator, the neighbours), from /proc/stat: what a case costs in all.
 */
export function machineBusyMs(): number {
  // "cpu  user nice system idle iowait irq softirq steal ...": all but idle and iowait is busy.
  const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) * CLOCK_TICK_MS;
}

/** User + system CPU of a process so far, in ms. */
export function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces: utime is the 14th field, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
  } catch {
    return NaN;
  }
}

/** Every process's id and command line (arguments split), read at once. */
function processes(): { pid: number; args: string[] }[] {
  const found: { pid: number; args: string[] }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      found.push({ pid: Number(entry), args: readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0") });
    } catch {
      // Gone since the listing.
    }
  }
  return found;
}

/**
 * A meter of the CPU some processes spend from now on, found again at each reading: processes that
 * start meanwhile count whole, processes that end meanwhile are lost (a pool's connections live long).
 */
export function cpuMeter(select: (args: string[]) => boolean): () => number {
  const pick = () => new Map(processes().flatMap(({ pid, args }) => (select(args) ? [[pid, processCpuMs(pid)] as const] : [])));
  const before = pick();
  return () => [...pick()].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
}

/** The PostgreSQL backends of one database: a backend's title is "postgres: [cluster: ]user database client state". */
export const postgresBackendsOf =
  (database: string) =>
  (args: string[]): boolean =>
    args[0]!.startsWith("postgres:") && args[0]!.split(" ").includes(database);

/** The Temporal dev server listening on `port` (`temporal server start-dev --port <port>`). */
export const temporalServerOn =
  (port: string) =>
  (args: string[]): boolean =>
    args.includes("start-dev") && args[args.indexOf("--port") + 1] === port;
