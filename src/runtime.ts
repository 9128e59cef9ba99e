import { widgetBundles } from "./widgetAssets/bundles";
import { createServer, type Server } from "node:http";
import { metrics, watchDatabase } from "./lib/metrics";
import { createApp } from "./app";
import { type Config, installSettings } from "./config";
import { connectDatabase, migrate } from "./db";
import { appointmentConsumer } from "./scheduling/appointmentLife";
import { offerConsumer } from "./scheduling/offerLife";
import { attachmentAnalysisConsumer } from "./services/attachmentAnalysis";
import { avatarFetchConsumer } from "./services/avatarFetch";
import { purgeAllDeletedFiles } from "./services/attachments";
import { fileStorage } from "./storage";
import { automationConsumer } from "./services/automation/trigger";
import { AuthCache } from "./auth/authCache";
import { BlockedAddresses } from "./auth/blockedAddresses";
import { AUTH_FAILURES } from "./middlewares/rateLimits";
import { adoptTimers, resumeTimerSweep, timerConsumer } from "./conversations/timers";
import type { EventConsumer } from "./events/outbox";
import { privateNetworkNotice } from "./webhooks/attempt";
import { webhookConsumer } from "./webhooks/plan";
import { loadInstallationId } from "./infra/installation";
import { taskQueueFor } from "./temporal/contracts";
import type { AppDeps } from "./deps";
import { PlatformApp } from "./models/PlatformApp";
import { resumeAccountDeletions } from "./services/accountDeletion";
import { EventRelay } from "./events/relay";
import { connectTemporalClient } from "./temporal/client";
import { installTemporalRuntime } from "./temporal/runtime";
import { createWorker } from "./temporal/worker";
import { logger } from "./lib/logger";
import { attachRealtime, closeRealtime, realtimeConsumer } from "./realtime";
import { notificationConsumer } from "./notifications/consumer";
import { transcriptConsumer } from "./conversations/transcript";
import { campaignConsumer } from "./campaigns/consumer";

export interface Endpoints {
  databaseUrl: string;
  temporalAddress: string;
}

export interface Runtime {
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * Connects to PostgreSQL and Temporal; the pieces every role shares. With `migrate` the database is
 * brought up to date first (npm start); the production roles expect `npm run migrate` to have run.
 */
export async function openRuntime(config: Config, endpoints: Endpoints, options: { migrate?: boolean } = {}): Promise<Runtime> {
  const knex = connectDatabase(endpoints.databaseUrl, undefined, { preparedStatements: config.databasePreparedStatements });
  try {
    if (options.migrate) {
      const applied = await migrate(knex);
      if (applied.length) logger.info(`Applied migrations: ${applied.join(", ")}`);
    }
    const installationId = await loadInstallationId(knex);
    const client = await connectTemporalClient(endpoints.temporalAddress, config.temporalNamespace);
    if (config.platformAppToken) await PlatformApp.ensureWithToken(config.platformAppToken);
    installSettings(config.settings);
    return {
      deps: { knex, settings: config.settings, temporal: { client, taskQueue: taskQueueFor(config.taskQueue, installationId), installationId } },
      async close() {
        await client.connection.close();
        await knex.destroy();
      },
    };
  } catch (err) {
    await knex.destroy();
    throw err;
  }
}

/** The startup line that says which Temporal namespace and installation this process serves. */
export function describeTemporal(runtime: Runtime, config: Config, temporalAddress: string): string {
  const { installationId, taskQueue } = runtime.deps.temporal;
  return `${temporalAddress}, namespace ${config.temporalNamespace}, installation ${installationId}, task queue ${taskQueue}`;
}

/** The API role: the HTTP server, with the auth cache and blocked-address mirror its process keeps (stopped when the server closes). */
export async function startApi(runtime: Runtime, config: Config): Promise<Server> {
  // A storage misconfiguration (ACTIVE_STORAGE_SERVICE without its bucket, ...) stops the start, not a later upload.
  fileStorage();
  // The widget's browser code is bundled now, so a broken build stops the start rather than a site's widget.
  await widgetBundles();
  const authCache = new AuthCache(runtime.deps.knex);
  await authCache.start();
  const blockedAddresses = config.rateLimits && new BlockedAddresses(runtime.deps.knex, AUTH_FAILURES, config.rateLimits.authFailuresPerAddress.points);
  await blockedAddresses?.start();
  const app = createApp(
    { ...runtime.deps, authCache },
    {
      bodyLimit: config.bodyLimit,
      trustProxy: config.trustProxy,
      rateLimits: config.rateLimits,
      blockedAddresses,
      outboxMaxAgeSeconds: config.outboxMaxAgeSeconds,
    },
  );
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(config.port, () => resolve(listening));
    listening.on("close", () => {
      void authCache.stop();
      void blockedAddresses?.stop();
    });
  });
  await attachRealtime(server, runtime.deps.knex);
  return server;
}

export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * What happens after a change: every committed event goes to each of these, in this order of
 * planning (src/events/outbox.ts has the contract, src/events/relay.ts the delivery of events to them).
 */
export function eventConsumers(): EventConsumer[] {
  return [
    webhookConsumer(),
    timerConsumer(),
    automationConsumer(),
    appointmentConsumer(),
    offerConsumer(),
    attachmentAnalysisConsumer(),
    avatarFetchConsumer(),
    realtimeConsumer(),
    notificationConsumer(),
    transcriptConsumer(),
    campaignConsumer(),
  ];
}

/** The worker role: the Temporal worker and the relay that hands committed events to Temporal. */
export async function startWorker(runtime: Runtime, config: Config, temporalAddress: string): Promise<RunningWorker> {
  installTemporalRuntime({ metricsAddress: config.temporalMetricsAddress, forwardCoreLogs: true });
  fileStorage();
  const worker = await createWorker({
    address: temporalAddress,
    namespace: config.temporalNamespace,
    taskQueue: runtime.deps.temporal.taskQueue,
    deps: runtime.deps,
    workflowBundlePath: config.workflowBundlePath,
  });
  const finished = worker.run();
  const notice = privateNetworkNotice(runtime.deps.settings.delivery);
  if (notice) logger.warn(notice);
  const relay = new EventRelay(runtime.deps, {
    consumers: eventConsumers(),
    ...(config.relayClaimSeconds !== undefined ? { claimSeconds: config.relayClaimSeconds } : {}),
  });
  await relay.start();
  const metricsServer = config.metricsPort === undefined ? undefined : await serveMetrics(runtime.deps, config.metricsPort);
  const resumed = await resumeAccountDeletions(runtime.deps);
  if (resumed) logger.info(`Resumed deletion of ${resumed} account(s)`);
  // Files whose rows went while storage was away (their removal stayed queued).
  const purged = await purgeAllDeletedFiles(runtime.deps.knex);
  if (purged) logger.info(`Removed ${purged} stored file(s) of deleted rows`);
  const adopted = await adoptTimers(runtime.deps);
  if (adopted) logger.info(`Re-planning the conversation timers of ${adopted} account(s)`);
  // The sweep may have been lost with its server, or wake later than a restored database's deadlines.
  await resumeTimerSweep(runtime.deps);
  return {
    async stop() {
      await relay.stop();
      if (metricsServer) await closeServer(metricsServer);
      // The SDK's runtime also shuts workers down on SIGINT/SIGTERM; by now it may have done so.
      if (worker.getState() === "RUNNING") worker.shutdown();
      await finished;
    },
  };
}

/** The worker role's /metrics (it has no API port): the relay's counters and the database gauges. */
async function serveMetrics(deps: AppDeps, port: number): Promise<Server> {
  watchDatabase(deps.knex);
  const server = createServer((req, res) => {
    if (req.url !== "/metrics") return void res.writeHead(404).end();
    metrics.metrics().then(
      (text) => res.writeHead(200, { "content-type": metrics.contentType }).end(text),
      (err) => res.writeHead(500).end(String(err)),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, resolve));
  logger.info(`Worker metrics on http://0.0.0.0:${port}/metrics`);
  return server;
}

/** Closes the server, its /cable clients first (it would wait for their sockets). */
export async function closeServer(server: Server): Promise<void> {
  await closeRealtime(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Runs `stop` once on Ctrl-C or SIGTERM, then exits. */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received, shutting down...`);
    stop()
      .then(() => process.exit(0))
      .catch((err) => {
        logger.error({ err }, "shutdown failed");
        process.exit(1);
      });
  };
  process.on("SIGINT", () => handler("SIGINT"));
  process.on("SIGTERM", () => handler("SIGTERM"));
}

export function requireEnv(value: string | undefined, name: string): string {
  if (!value) {
    console.error(`${name} is required for this command (npm start runs everything with embedded defaults).`);
    process.exit(1);
  }
  return value;
}
