import type { LogLevel, LogMetadata, Logger as TemporalLogger } from "@temporalio/common";
import { Runtime } from "@temporalio/worker";
import { logger, type Logger } from "../lib/logger";

const LEVELS: Record<LogLevel, "trace" | "debug" | "info" | "warn" | "error"> = { TRACE: "trace", DEBUG: "debug", INFO: "info", WARN: "warn", ERROR: "error" };

/**
 * The SDK's log lines (workflow `log`, activity `log`, the worker's own and, forwarded, Core's) as
 * pino lines: the SDK puts the workflow id, run id, workflow type and activity id in the metadata.
 */
export class PinoTemporalLogger implements TemporalLogger {
  constructor(private readonly pino: Logger = logger.child({ component: "temporal" })) {}

  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    this.pino[LEVELS[level]]({ ...meta }, message);
  }
  trace(message: string, meta?: LogMetadata) {
    this.log("TRACE", message, meta);
  }
  debug(message: string, meta?: LogMetadata) {
    this.log("DEBUG", message, meta);
  }
  info(message: string, meta?: LogMetadata) {
    this.log("INFO", message, meta);
  }
  warn(message: string, meta?: LogMetadata) {
    this.log("WARN", message, meta);
  }
  error(message: string, meta?: LogMetadata) {
    this.log("ERROR", message, meta);
  }
}

export interface TemporalRuntimeOptions {
  /** host:port where Core serves the SDK's Prometheus metrics (TEMPORAL_METRICS_ADDRESS); none without. */
  metricsAddress?: string;
  /**
   * Core's own (Rust) log lines through pino as well; otherwise Core prints them to stderr. Forwarding
   * keeps the process alive until it exits, which a service does by itself but a test file does not.
   */
  forwardCoreLogs?: boolean;
}

let installed = false;

/**
 * Installs the SDK runtime with the pino bridge (and Core's Prometheus exporter when asked); must run
 * before the first worker connection, once per process.
 */
export function installTemporalRuntime(options: TemporalRuntimeOptions = {}): void {
  if (installed) return;
  installed = true;
  // A worker created before this call has installed the SDK's default runtime; that one stays.
  if ((Runtime as unknown as { _instance?: Runtime })._instance) return;
  Runtime.install({
    logger: new PinoTemporalLogger(),
    telemetryOptions: {
      logging: { ...(options.forwardCoreLogs ? { forward: {} } : {}), filter: { core: "WARN", other: "ERROR" } },
      ...(options.metricsAddress ? { metrics: { prometheus: { bindAddress: options.metricsAddress } } } : {}),
    },
  });
}
