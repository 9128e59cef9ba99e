import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { logSettings } from "../config";

export type { Logger };

/**
 * The process's logger: one JSON object a line for log collectors, or pino-pretty's readable lines
 * when a person watches the terminal. LOG_LEVEL sets the threshold (info by default); LOG_FORMAT=json
 * or pretty overrides the choice by terminal.
 */
function createLogger(): Logger {
  const { level, format } = logSettings();
  // Temporal passes failures as `error`; both keys print a stack.
  const options = {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    base: { pid: process.pid },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
  };
  // pino-pretty as a stream in this thread rather than a transport: no worker thread to outlive a crash.
  output = format === "pretty" ? pretty({ colorize: true, sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" }) : batchedStdout();
  return pino(options, { write: (line: string) => output.write(line) });
}

/**
 * Stdout that takes the lines of one turn of the event loop in one write: on a pipe (a container's
 * log, a supervisor) each write is a blocking system call, and under load one a request line cost
 * the API a sixth of a small read. What is pending is written before the process exits (an uncaught
 * error included); only a SIGKILL loses the lines of the turn it interrupts.
 */
function batchedStdout(): { write(line: string): void } {
  let pending: string[] = [];
  const flush = () => {
    if (!pending.length) return;
    const text = pending.join("");
    pending = [];
    process.stdout.write(text);
  };
  process.on("exit", flush);
  return {
    write(line) {
      if (!pending.length) setImmediate(flush);
      pending.push(line);
    },
  };
}

let output: { write(line: string): unknown };
export const logger = createLogger();

/** Sends log lines elsewhere until the returned function is called (tests read what was logged). */
export function redirectLogs(write: (line: string) => void): () => void {
  const previous = output;
  output = { write };
  return () => {
    output = previous;
  };
}

/** What every log line written while serving one request carries. */
export interface RequestScope {
  requestId: string;
  log: Logger;
}

const requestScope = new AsyncLocalStorage<RequestScope>();

export function runInRequest<T>(scope: RequestScope, fn: () => T): T {
  return requestScope.run(scope, fn);
}

/** The id of the request being served, wherever in its call chain this runs (undefined outside one). */
export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}

/** The logger of the request being served (its lines carry request_id), else the process's. */
export function currentLogger(): Logger {
  return requestScope.getStore()?.log ?? logger;
}
