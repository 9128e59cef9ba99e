// One file on purpose: every environment variable the service reads is parsed here, so there is one place to check them.
import path from "node:path";
import packageJson from "../package.json";
import type { RetrySchedule } from "./temporal/contracts";

/** Where `npm start` keeps embedded PostgreSQL and Temporal data, relative to the project. */
export const PROJECT_ROOT = path.resolve(__dirname, "..");
export const DATA_DIR = process.env.DATA_DIR ?? path.join(PROJECT_ROOT, ".data");

export const SERVICE_VERSION: string = packageJson.version;

export interface Config {
  port: number;
  databaseUrl: string | undefined;
  /**
   * The hot reads' recurring statements are prepared statements of their connections (on unless
   * DATABASE_PREPARED_STATEMENTS=off, for a pooler that hands one session's statements to another).
   */
  databasePreparedStatements: boolean;
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
  settings: Settings;
  /** API processes `npm start` runs on the one port (WEB_CONCURRENCY); start:api is always one. */
  webConcurrency: number;
  /** Worker processes (each with its relay) `npm start` runs (WORKER_CONCURRENCY); start:worker is always one. */
  workerConcurrency: number;
  /** A workflow bundle built beforehand (WORKFLOW_BUNDLE_PATH), so a worker starts without bundling. */
  workflowBundlePath: string | undefined;
  /** The relay's claim lease in seconds (EVENT_RELAY_CLAIM_SECONDS); undefined keeps the relay's default. */
  relayClaimSeconds: number | undefined;
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
  /** Sign-in attempts (POST /auth/sign_in, right or wrong), per address. */
  signInPerAddress: Limit;
  /** Sign-in attempts, per email (lower-cased, whitespace removed). */
  signInPerEmail: Limit;
}

export const RATE_LIMIT_ENV: Record<keyof RateLimits, [name: string, fallback: Limit]> = {
  authFailuresPerAddress: ["RATE_LIMIT_AUTH_FAILURES", { points: 10, seconds: 300 }],
  widgetSessionsPerAddress: ["RATE_LIMIT_WIDGET_SESSIONS", { points: 5, seconds: 3600 }],
  publicPerAddress: ["RATE_LIMIT_PUBLIC_PER_ADDRESS", { points: 600, seconds: 60 }],
  publicPerInbox: ["RATE_LIMIT_PUBLIC_PER_INBOX", { points: 6000, seconds: 60 }],
  platformUserCreatesPerAddress: ["RATE_LIMIT_PLATFORM_USER_CREATES", { points: 60, seconds: 60 }],
  // Chatwoot's login/ip and login/email.
  signInPerAddress: ["RATE_LIMIT_SIGN_IN_PER_ADDRESS", { points: 5, seconds: 300 }],
  signInPerEmail: ["RATE_LIMIT_SIGN_IN_PER_EMAIL", { points: 10, seconds: 900 }],
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

const listenPort = (env: NodeJS.ProcessEnv) => Number(env.PORT || 3000);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: listenPort(env),
    databaseUrl: env.DATABASE_URL || undefined,
    databasePreparedStatements: !/^(off|false|0)$/i.test(env.DATABASE_PREPARED_STATEMENTS ?? ""),
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
    settings: loadSettings(env),
    webConcurrency: Math.floor(positive(env.WEB_CONCURRENCY, 1)),
    workerConcurrency: Math.floor(positive(env.WORKER_CONCURRENCY, 1)),
    workflowBundlePath: env.WORKFLOW_BUNDLE_PATH || undefined,
    relayClaimSeconds: env.EVENT_RELAY_CLAIM_SECONDS ? Math.ceil(positive(env.EVENT_RELAY_CLAIM_SECONDS, 120)) : undefined,
  };
}

/*
 * Every environment variable the service reads is read in this module. The CLIs read the settings
 * below once at start (loadConfig) and hand them to the app in AppDeps (deps.settings); each parser
 * takes the environment as a parameter for tests of its parsing.
 */

/** What the app's behaviour depends on beyond its connections: links, keys, limits, deliveries, storage. */
export interface Settings {
  /** FRONTEND_URL as set (no trailing slash); Chatwoot renders some links only when it is configured. */
  frontendUrl: string | undefined;
  /** PORT, where the API listens: links point there when FRONTEND_URL is not set. */
  port: number;
  /** Chatwoot's SECRET_KEY_BASE; without it the service generates a key once per database. */
  secretKeyBase: string | undefined;
  /** CHATWOOT_INBOX_HMAC_KEY: users' hmac_identifier for widget identity validation (none without it). */
  inboxHmacKey: string | undefined;
  /** Expenses paid per activity by expenses/pay_all (SCHEDULING_PAYOUT_BATCH_SIZE). */
  payoutBatchSize: number;
  /** One-off campaign messages sent per second (CAMPAIGN_SENDS_PER_SECOND). */
  campaignSendsPerSecond: number;
  /** Chatwoot's MAXIMUM_FILE_UPLOAD_SIZE (megabytes), as bytes. */
  maxUploadBytes: number;
  /** How long a file URL works (FILE_URL_EXPIRES_IN): long enough for a webhook's retries, which carry the URL made at the event. */
  fileUrlTtlSeconds: number;
  delivery: DeliveryConfig;
  storage: StorageSettings;
  /** Outgoing e-mail (transcripts) through SMTP, as Chatwoot's SMTP_* variables set it; none without SMTP_ADDRESS. */
  mail: MailSettings | undefined;
}

export interface MailSettings {
  host: string;
  port: number;
  /** TLS from the first byte (SMTP_SSL / SMTP_TLS, or port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  /** SMTP_ENABLE_STARTTLS_AUTO=false: never upgrade a plain connection. */
  ignoreTls: boolean;
  /** SMTP_OPENSSL_VERIFY_MODE=none accepts any certificate. */
  verifyCertificate: boolean;
  auth: { user: string; pass: string; method: string | undefined } | undefined;
  /** SMTP_DOMAIN: the name given in HELO/EHLO. */
  helo: string | undefined;
  /** MAILER_SENDER_EMAIL: the From of every mail. */
  from: string;
}

/** Chatwoot's SMTP_* settings (config/environments/production.rb), read the way Action Mailer reads them. */
export function loadMailSettings(env: NodeJS.ProcessEnv = process.env): MailSettings | undefined {
  const host = env.SMTP_ADDRESS?.trim();
  if (!host) return undefined;
  const port = Number(env.SMTP_PORT) || 587;
  const flag = (value: string | undefined) => (value === undefined ? undefined : railsTrue(value));
  return {
    host,
    port,
    secure: flag(env.SMTP_SSL) ?? flag(env.SMTP_TLS) ?? port === 465,
    ignoreTls: flag(env.SMTP_ENABLE_STARTTLS_AUTO) === false,
    verifyCertificate: env.SMTP_OPENSSL_VERIFY_MODE?.trim().toLowerCase() !== "none",
    auth: env.SMTP_USERNAME
      ? { user: env.SMTP_USERNAME, pass: env.SMTP_PASSWORD ?? "", method: env.SMTP_AUTHENTICATION?.trim().toUpperCase() || undefined }
      : undefined,
    helo: env.SMTP_DOMAIN?.trim() || undefined,
    from: env.MAILER_SENDER_EMAIL?.trim() || "Notifications <notifications@localhost>",
  };
}

/**
 * Where clients reach this service (Chatwoot's FRONTEND_URL): widget scripts, SSO links and file URLs.
 * Without it, the port the API listens on, so links work out of the box on any PORT.
 */
export function publicBaseUrl(settings: Pick<Settings, "frontendUrl" | "port">): string {
  return settings.frontendUrl ?? `http://localhost:${settings.port}`;
}

let installed: Settings | undefined;

/**
 * The settings of code below the services that get only a database handle: presenters (absolute
 * links), link signing and file storage. Where deps are made (openRuntime, the test harness) their
 * settings are installed here, so this is deps.settings; a tool that made no deps gets the environment's.
 */
export function appSettings(): Settings {
  return (installed ??= loadSettings());
}

export function installSettings(settings: Settings): void {
  installed = settings;
}

const positive = (value: string | undefined, fallback: number) => {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : fallback;
};

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const batchSize = Number(env.SCHEDULING_PAYOUT_BATCH_SIZE);
  return {
    frontendUrl: env.FRONTEND_URL?.replace(/\/+$/, "") || undefined,
    port: listenPort(env),
    secretKeyBase: env.SECRET_KEY_BASE || undefined,
    inboxHmacKey: env.CHATWOOT_INBOX_HMAC_KEY || undefined,
    payoutBatchSize: Number.isInteger(batchSize) && batchSize > 0 ? batchSize : 500,
    campaignSendsPerSecond: Math.min(1000, Math.floor(positive(env.CAMPAIGN_SENDS_PER_SECOND, 10)) || 10),
    // Whole megabytes, 40 when unset or less than one.
    maxUploadBytes: (Math.floor(positive(env.MAXIMUM_FILE_UPLOAD_SIZE, 40)) || 40) * 1024 * 1024,
    fileUrlTtlSeconds: positive(env.FILE_URL_EXPIRES_IN, 7 * 86_400),
    delivery: loadDeliveryConfig(env),
    storage: storageSettings(env),
    mail: loadMailSettings(env),
  };
}

export interface DeliveryConfig {
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  /** Account webhooks and agent bots: at least a day of retries. */
  standard: RetrySchedule;
  /** The API inbox's webhook_url is its message transport, so it gives up within minutes and marks the message failed. */
  apiInbox: RetrySchedule;
  /** How long one lane of a target takes hand-overs before the next span's lane does (docs/events-and-webhooks.md). */
  laneSpanMs: number;
}

const num = (value: string | undefined, fallback: number) => (value ? Number(value) : fallback);

/** Rails' boolean cast: blank, "0", "f", "false", "off" (any case) are false; anything else is true. */
const railsTrue = (value: string) => !/^(|0|f|false|off)$/i.test(value.trim());

/**
 * Whether deliveries and fetches may reach private and loopback addresses: WEBHOOK_ALLOW_PRIVATE_NETWORKS,
 * or Chatwoot's name for the same switch, SAFE_FETCH_ALLOW_PRIVATE_NETWORK (so a Chatwoot .env or
 * compose file carries over); allowed outside production when neither is set.
 */
function allowPrivateNetworks(env: NodeJS.ProcessEnv): boolean {
  if (env.WEBHOOK_ALLOW_PRIVATE_NETWORKS) return env.WEBHOOK_ALLOW_PRIVATE_NETWORKS === "true";
  if (env.SAFE_FETCH_ALLOW_PRIVATE_NETWORK) return railsTrue(env.SAFE_FETCH_ALLOW_PRIVATE_NETWORK);
  return env.NODE_ENV !== "production";
}

/** Webhook and agent-bot delivery: WEBHOOK_* and API_INBOX_* variables. */
export function loadDeliveryConfig(env: NodeJS.ProcessEnv = process.env): DeliveryConfig {
  const initialIntervalMs = num(env.WEBHOOK_RETRY_INITIAL_MS, 1000);
  return {
    timeoutMs: num(env.WEBHOOK_TIMEOUT_MS, 5000),
    allowPrivateNetworks: allowPrivateNetworks(env),
    standard: {
      initialIntervalMs,
      backoffCoefficient: 2,
      maximumIntervalMs: num(env.WEBHOOK_RETRY_MAX_INTERVAL_MS, 60 * 60 * 1000),
      windowMs: num(env.WEBHOOK_RETRY_WINDOW_MS, 25 * 60 * 60 * 1000),
    },
    apiInbox: {
      initialIntervalMs,
      backoffCoefficient: 2,
      maximumIntervalMs: num(env.API_INBOX_RETRY_MAX_INTERVAL_MS, 60 * 1000),
      windowMs: num(env.API_INBOX_RETRY_WINDOW_MS, 10 * 60 * 1000),
    },
    laneSpanMs: num(env.WEBHOOK_LANE_SPAN_MS, 2000),
  };
}

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible service's address (MinIO, R2, Spaces, ...); AWS itself without one. */
  endpoint?: string;
  forcePathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prepended to every key, so one bucket can hold several installations. */
  prefix?: string;
}

/** Where files go, with Chatwoot's variable names so a Chatwoot .env carries over. */
export type StorageSettings = { service: "local"; root: string } | ({ service: "s3" } & S3Settings);

/**
 * ACTIVE_STORAGE_SERVICE=local (default, under STORAGE_DIR or <data dir>/storage), amazon
 * (S3_BUCKET_NAME, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) or s3_compatible
 * (STORAGE_BUCKET_NAME, STORAGE_ENDPOINT, STORAGE_REGION, STORAGE_ACCESS_KEY_ID,
 * STORAGE_SECRET_ACCESS_KEY, STORAGE_FORCE_PATH_STYLE); STORAGE_PREFIX for both S3 kinds.
 */
export function storageSettings(env: NodeJS.ProcessEnv = process.env): StorageSettings {
  const service = (env.ACTIVE_STORAGE_SERVICE || "local").toLowerCase();
  const required = (name: string): string => {
    const value = env[name];
    if (!value) throw new Error(`${name} is required for ACTIVE_STORAGE_SERVICE=${env.ACTIVE_STORAGE_SERVICE}`);
    return value;
  };
  switch (service) {
    case "local":
      return { service: "local", root: env.STORAGE_DIR || path.join(DATA_DIR, "storage") };
    case "amazon":
    case "s3":
      return {
        service: "s3",
        bucket: required("S3_BUCKET_NAME"),
        region: env.AWS_REGION || "us-east-1",
        accessKeyId: env.AWS_ACCESS_KEY_ID,
        secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
        prefix: env.STORAGE_PREFIX,
      };
    case "s3_compatible":
      return {
        service: "s3",
        bucket: required("STORAGE_BUCKET_NAME"),
        region: env.STORAGE_REGION || "us-east-1",
        endpoint: required("STORAGE_ENDPOINT"),
        forcePathStyle: env.STORAGE_FORCE_PATH_STYLE ? env.STORAGE_FORCE_PATH_STYLE === "true" : true,
        accessKeyId: env.STORAGE_ACCESS_KEY_ID,
        secretAccessKey: env.STORAGE_SECRET_ACCESS_KEY,
        prefix: env.STORAGE_PREFIX,
      };
    default:
      throw new Error(`ACTIVE_STORAGE_SERVICE=${service} is not one of local, amazon, s3_compatible`);
  }
}

/** LOG_LEVEL (info) and LOG_FORMAT (pretty on a terminal, else json). */
export function logSettings(env: NodeJS.ProcessEnv = process.env): { level: string; format: string } {
  return { level: env.LOG_LEVEL || "info", format: env.LOG_FORMAT || (process.stdout.isTTY ? "pretty" : "json") };
}

/** Ports of the services `npm start` runs itself when DATABASE_URL or TEMPORAL_ADDRESS is not set. */
export function embeddedPorts(env: NodeJS.ProcessEnv = process.env): { postgres: number; temporal: number; temporalUi: number } {
  return {
    postgres: Number(env.EMBEDDED_PG_PORT ?? 54329),
    temporal: Number(env.TEMPORAL_DEV_PORT ?? 7233),
    temporalUi: Number(env.TEMPORAL_UI_PORT ?? 8233),
  };
}

/** TEMPORAL_CLI_PATH: a Temporal CLI binary to use instead of finding or building one. */
export function temporalCliPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.TEMPORAL_CLI_PATH || undefined;
}
