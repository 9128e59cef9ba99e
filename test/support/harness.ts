import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Worker } from "@temporalio/worker";
import type { TestFn } from "ava";
import { createApp } from "../../src/app";
import { type DeliveryConfig, installSettings, loadDeliveryConfig, loadSettings, type Settings } from "../../src/config";
import { connectDatabase, type Database } from "../../src/db";
import type { AppDeps } from "../../src/deps";
import { PlatformApp } from "../../src/models/PlatformApp";
import { attachRealtime, type RealtimeOptions } from "../../src/realtime";
import { closeServer, eventConsumers } from "../../src/runtime";
import { EventRelay, type RelayOptions } from "../../src/events/relay";
import { AuthCache } from "../../src/auth/authCache";
import { loadInstallationId } from "../../src/infra/installation";
import { connectTemporalClient } from "../../src/temporal/client";
import { taskQueueFor } from "../../src/temporal/contracts";
import { installTemporalRuntime } from "../../src/temporal/runtime";
import { createWorker } from "../../src/temporal/worker";

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding body (malformed-JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Harness {
  baseUrl: string;
  knex: Database;
  deps: AppDeps;
  /** A platform app token for provisioning test data. */
  platformToken: string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/** The body of a successful (2xx) response; anything else fails the test with what was being done. */
export async function expectOk(response: { status: number; body: any } | Promise<{ status: number; body: any }>, what: string): Promise<any> {
  const { status, body } = await response;
  if (status < 200 || status >= 300) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body;
}

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests with npm test`);
  return value;
}

/**
 * The real API on an ephemeral port against the real PostgreSQL and Temporal, and (with worker: true)
 * a real worker on a task queue of its own, so test files never pick up each other's workflows.
 */
/** The harness's request function for the API at `baseUrl`: JSON bodies parsed, anything else as text. */
export function requestTo(baseUrl: string): Harness["request"] {
  return async (method, path, { token, body, rawBody, headers = {} } = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body !== undefined || rawBody !== undefined ? { "content-type": "application/json" } : {}),
        ...(token ? { api_access_token: token } : {}),
        ...headers,
      },
      body: rawBody ?? (body !== undefined ? JSON.stringify(body) : undefined),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: tests see the raw text.
    }
    return { status: response.status, body: parsed as any, headers: response.headers };
  };
}

export interface HarnessOptions {
  /** Run a Temporal worker in this process. */
  worker?: boolean;
  /** Run the event relay (needs a worker somewhere; implies worker). */
  relay?: boolean | Partial<RelayOptions>;
  /** A Temporal server of the test's own (one it stops and starts), instead of TEMPORAL_ADDRESS. */
  temporalAddress?: string;
  /** A database of the test's own, so no other file's relay hands its events to another Temporal. */
  databaseUrl?: string;
  /** Over loadSettings(): what the test configures instead of the environment (storage, deliveries, limits, links). */
  settings?: Partial<Settings>;
  /** Serve /cable (src/realtime) on the harness's server, with these limits. */
  realtime?: boolean | RealtimeOptions;
  /** Database connections at most: a few per file keep the suite's files within PostgreSQL's limit; a bench takes what production has. */
  poolMax?: number;
}

/** Local storage in a fresh temporary directory (`root`), so a test sees only its own files. */
export function tempStorage(): { service: "local"; root: string } {
  return { service: "local", root: mkdtempSync(path.join(os.tmpdir(), "storage-")) };
}

/** Deliveries whose retries start 200 ms after a failure, so a test sees a retry within seconds. */
export function quickRetries(): DeliveryConfig {
  return loadDeliveryConfig({ ...process.env, WEBHOOK_RETRY_INITIAL_MS: "200" });
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const knex = connectDatabase(options.databaseUrl ?? env("DATABASE_URL"), { min: 0, max: options.poolMax ?? 5 });
  const temporalAddress = options.temporalAddress ?? env("TEMPORAL_ADDRESS");
  const client = await connectTemporalClient(temporalAddress, "default");
  // Every test worker on one database polls the same queue: any live worker can finish any file's
  // workflows, so a workflow started by one file's relay never waits on a worker that has already gone.
  const installationId = await loadInstallationId(knex);
  // The auth cache as the API runs it, so tests see what clients see after a change.
  const authCache = new AuthCache(knex);
  await authCache.start();
  const settings: Settings = { ...loadSettings(), ...options.settings };
  // Presenters and storage read the installed settings (see appSettings), so they see the test's too.
  installSettings(settings);
  const deps: AppDeps = { knex, settings, authCache, temporal: { client, taskQueue: taskQueueFor("convo-sched-test", installationId), installationId } };

  const server = createApp(deps).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (options.realtime) await attachRealtime(server, knex, options.realtime === true ? {} : options.realtime);

  let worker: Worker | undefined;
  // The SDK's lines go through pino as in production; LOG_LEVEL (error under npm test) keeps them quiet.
  installTemporalRuntime();
  let workerDone: Promise<void> | undefined;
  if (options.worker || options.relay) {
    worker = await createWorker({
      address: temporalAddress,
      namespace: "default",
      taskQueue: deps.temporal.taskQueue,
      deps,
      workflowBundlePath: process.env.WORKFLOW_BUNDLE_PATH,
    });
    workerDone = worker.run();
  }
  const relay = options.relay ? new EventRelay(deps, { consumers: eventConsumers(), ...(options.relay === true ? {} : options.relay) }) : undefined;
  await relay?.start();

  const { token: platformToken } = await PlatformApp.createWithToken(`test-${randomUUID()}`);

  return {
    baseUrl,
    knex,
    deps,
    platformToken,
    request: requestTo(baseUrl),
    async close() {
      await relay?.stop();
      if (worker) {
        worker.shutdown();
        await workerDone;
      }
      await closeServer(server);
      await authCache.stop();
      await client.connection.close();
      await knex.destroy();
    },
  };
}

/**
 * Starts a harness before the file's tests and closes it after them; the answer stands for it in
 * tests and later hooks. Options that depend on an earlier hook's work can come as a function.
 * Its hooks are serial: ava runs other hooks concurrently, but never across a serial one, so hooks
 * declared before it have finished when it starts (or closes), and hooks declared after it wait for it.
 */
export function useHarness(test: TestFn, options: HarnessOptions | (() => HarnessOptions | Promise<HarnessOptions>) = {}): Harness {
  let started: Harness | undefined;
  test.serial.before(async () => {
    started = await startHarness(typeof options === "function" ? await options() : options);
  });
  test.serial.after.always(async () => {
    await started?.close();
  });
  return new Proxy({} as Harness, {
    get(_target, key) {
      // Not a promise: `await` and async returns look for `then`.
      if (key === "then") return undefined;
      if (!started) throw new Error(`harness.${String(key)} before the harness started: use it inside tests and hooks`);
      // Unbound: the harness's methods do not use `this`, and knex is a function with properties.
      return Reflect.get(started, key);
    },
  });
}

/** Requests to one account's API (/api/v1/accounts/:id + path), as its administrator unless a token is given. */
export function accountApi(h: Harness, account: { id: number; admin?: { token: string } }, token = account.admin?.token) {
  const call =
    (method: string) =>
    <T = any>(path = "", body?: unknown): Promise<ApiResponse<T>> =>
      h.request<T>(method, `/api/v1/accounts/${account.id}${path}`, { token, body });
  return { get: call("GET"), post: call("POST"), patch: call("PATCH"), put: call("PUT"), delete: call("DELETE") };
}

/** A webhook's lanes of this installation (one per span it had deliveries in), as the Temporal UI lists them. */
export async function webhookLanes(h: Harness, webhookId: number) {
  const lanes = [];
  for await (const lane of h.deps.temporal.client.workflow.list({ query: `WorkflowType = 'webhookLaneWorkflow' AND WebhookId = ${webhookId}` })) {
    // The dev server may hold an earlier database's runs.
    if (lane.workflowId.startsWith(`webhook-lane-${h.deps.temporal.installationId}-`)) lanes.push(lane);
  }
  return lanes;
}

/**
 * The harness's dependencies on a task queue of the test's own, and a worker for it: the test decides
 * when a worker runs, and no other test's worker can stand in while this one is down.
 */
export function ownQueue(h: Harness, name: string): { deps: AppDeps; startWorker: () => Promise<Worker> } {
  const deps: AppDeps = { ...h.deps, temporal: { ...h.deps.temporal, taskQueue: `${name}-${randomUUID()}` } };
  const startWorker = () =>
    createWorker({
      address: process.env.TEMPORAL_ADDRESS!,
      namespace: "default",
      taskQueue: deps.temporal.taskQueue,
      deps,
      workflowBundlePath: process.env.WORKFLOW_BUNDLE_PATH,
    });
  return { deps, startWorker };
}
