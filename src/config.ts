import path from "node:path";
import packageJson from "../package.json";

/** Where `npm start` keeps embedded PostgreSQL and Temporal data, relative to the project. */
export const PROJECT_ROOT = path.resolve(__dirname, "..");
export const DATA_DIR = process.env.DATA_DIR ?? path.join(PROJECT_ROOT, ".data");

export const SERVICE_VERSION: string = packageJson.version;

export interface Config {
  port: number;
  databaseUrl: string | undefined;
  temporalAddress: string | undefined;
  temporalNamespace: string;
  taskQueue: string;
  platformAppToken: string | undefined;
  /** host:port where the worker's Temporal SDK serves its Prometheus metrics; off when unset. */
  temporalMetricsAddress: string | undefined;
  /** Health answers 503 once the oldest undispatched event is older than this (OUTBOX_MAX_AGE_SECONDS). */
  outboxMaxAgeSeconds: number;
  /** The worker role's own /metrics port (METRICS_PORT); the API serves /metrics on its port. */
  metricsPort: number | undefined;
  /** Largest accepted JSON body; beyond it the API answers 413. */
  bodyLimit: string;
  production: boolean;
  /** Take the client address from X-Forwarded-For (behind a reverse proxy); rate limits key on it. */
  trustProxy: boolean;
  /** Absent when RATE_LIMITS=off. */
  rateLimits: RateLimits | undefined;
}

/** At most `points` in `seconds`, per key. */
export interface Limit {
  points: number;
  seconds: number;
}

/** The throttles of src/middlewares/rateLimits.ts, each set by an environment variable `points/seconds`. */
export interface RateLimits {
  /** Requests with an api_access_token that matches no one, per address. */
  authFailuresPerAddress: Limit;
  /** New web-widget sessions (widget config without X-Auth-Token), per address. */
  widgetSessionsPerAddress: Limit;
  /** Public widget and client API requests, per address. */
  publicPerAddress: Limit;
  /** Public widget and client API requests, per inbox (website_token or inbox identifier). */
  publicPerInbox: Limit;
  /** Platform user creations, per address. */
  platformUserCreatesPerAddress: Limit;
}

export const RATE_LIMIT_ENV: Record<keyof RateLimits, [name: string, fallback: Limit]> = {
  authFailuresPerAddress: ["RATE_LIMIT_AUTH_FAILURES", { points: 10, seconds: 300 }],
  widgetSessionsPerAddress: ["RATE_LIMIT_WIDGET_SESSIONS", { points: 5, seconds: 3600 }],
  publicPerAddress: ["RATE_LIMIT_PUBLIC_PER_ADDRESS", { points: 600, seconds: 60 }],
  publicPerInbox: ["RATE_LIMIT_PUBLIC_PER_INBOX", { points: 6000, seconds: 60 }],
  platformUserCreatesPerAddress: ["RATE_LIMIT_PLATFORM_USER_CREATES", { points: 60, seconds: 60 }],
};

function parseLimit(name: string, value: string | undefined, fallback: Limit): Limit {
  if (!value) return fallback;
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new Error(`${name} must read <requests>/<seconds>, e.g. 10/300; got "${value}"`);
  return { points: Number(match[1]), seconds: Number(match[2]) };
}

export function loadRateLimits(env: NodeJS.ProcessEnv = process.env): RateLimits | undefined {
  if (/^(off|false|0)$/i.test(env.RATE_LIMITS ?? "")) return undefined;
  const entries = Object.entries(RATE_LIMIT_ENV).map(([key, [name, fallback]]) => [key, parseLimit(name, env[name], fallback)]);
  return Object.fromEntries(entries) as RateLimits;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 3000),
    databaseUrl: env.DATABASE_URL || undefined,
    temporalAddress: env.TEMPORAL_ADDRESS || undefined,
    temporalNamespace: env.TEMPORAL_NAMESPACE || "default",
    taskQueue: env.TEMPORAL_TASK_QUEUE || "convo-sched",
    platformAppToken: env.PLATFORM_APP_TOKEN || undefined,
    bodyLimit: env.BODY_LIMIT || "1mb",
    outboxMaxAgeSeconds: Number(env.OUTBOX_MAX_AGE_SECONDS || 120),
    metricsPort: env.METRICS_PORT ? Number(env.METRICS_PORT) : undefined,
    temporalMetricsAddress: env.TEMPORAL_METRICS_ADDRESS || undefined,
    production: env.NODE_ENV === "production",
    trustProxy: /^(true|1|yes)$/i.test(env.TRUST_PROXY ?? ""),
    rateLimits: loadRateLimits(env),
  };
}

/** The dashboard's base URL (Chatwoot's FRONTEND_URL): widget script hosts and SSO login links point there. */
export function frontendUrl(): string {
  return process.env.FRONTEND_URL || "http://localhost:3000";
}
