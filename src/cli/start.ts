import path from "node:path";
import { type Config, DATA_DIR, loadConfig, embeddedPorts } from "../config";
import { EMBEDDED_DATABASE, EMBEDDED_PG_PORT, startEmbeddedPostgres, type EmbeddedDatabase } from "../infra/embeddedPostgres";
import { startTemporalDevServer, type RunningTemporal } from "../infra/temporalDevServer";
import { closeServer, describeTemporal, onShutdown, openRuntime, startApi } from "../runtime";
import { logger } from "../lib/logger";
import { apiProcess, supervise, workerProcess } from "./processes";

const { temporal: TEMPORAL_PORT, temporalUi: TEMPORAL_UI_PORT } = embeddedPorts();

/**
 * `npm start`: the whole service on one machine. PostgreSQL and Temporal come from DATABASE_URL and
 * TEMPORAL_ADDRESS, or are started here with their data under .data/ so a restart finds it again.
 * WORKER_CONCURRENCY worker processes run beside it, and WEB_CONCURRENCY API processes share the
 * port (a single one runs in this process).
 */
async function main() {
  const config = loadConfig();
  const stops: (() => Promise<void>)[] = [];
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const stop of stops.reverse()) await stop().catch((err) => logger.error({ err }, "stop failed"));
    })());
  onShutdown(stopAll);

  try {
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const db: EmbeddedDatabase = await startEmbeddedPostgres(DATA_DIR, EMBEDDED_PG_PORT, EMBEDDED_DATABASE);
      stops.push(db.stop);
      databaseUrl = db.url;
      logger.info(`Embedded PostgreSQL: ${databaseUrl} (data in ${path.join(DATA_DIR, "postgres")})`);
    }

    let temporalAddress = config.temporalAddress;
    let uiUrl: string | undefined;
    if (!temporalAddress) {
      const temporal: RunningTemporal = await startTemporalDevServer({
        port: TEMPORAL_PORT,
        uiPort: TEMPORAL_UI_PORT,
        dbFile: path.join(DATA_DIR, "temporal", "temporal.db"),
        namespace: config.temporalNamespace,
      });
      stops.push(temporal.stop);
      temporalAddress = temporal.address;
      uiUrl = temporal.uiUrl;
    }

    const runtime = await openRuntime(config, { databaseUrl, temporalAddress }, { migrate: true });
    stops.push(runtime.close);

    const env = { DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress };
    const supervision = {
      shuttingDown: () => stopping !== undefined,
      onFatal: (reason: string) => {
        if (stopping) return;
        logger.error(`${reason}; stopping.`);
        void stopAll().then(() => process.exit(1));
      },
    };
    // The workers run in processes of their own, as in production: workflow activations and the
    // relay then never compete with request handling for one event loop.
    stops.push(supervise("worker", config.workerConcurrency, (slot) => workerProcess({ ...env, ...metricsPorts(config, slot) }), supervision).stop);
    if (config.webConcurrency > 1) {
      stops.push(supervise("API", config.webConcurrency, () => apiProcess(env), supervision).stop);
    } else {
      const server = await startApi(runtime, config);
      stops.push(() => closeServer(server));
    }

    logger.info(
      `API:         http://127.0.0.1:${config.port}  (${config.webConcurrency} process(es), ${config.workerConcurrency} worker(s); OpenAPI at /api-docs/openapi.json, health at /health)`,
    );
    logger.info(`Temporal:    ${describeTemporal(runtime, config, temporalAddress)}`);
    if (uiUrl) logger.info(`Temporal UI: ${uiUrl}`);
    if (!config.platformAppToken) logger.info("Create a platform app token with: npm run platform-app -- --name NAME");
    logger.info("Press Ctrl-C to stop.");
  } catch (err) {
    logger.fatal({ err }, "startup failed");
    await stopAll();
    process.exit(1);
  }
}

/**
 * Worker `slot`'s metrics addresses: each worker serves its own, so the Nth takes the configured
 * port plus N-1 (METRICS_PORT 9464 gives 9464, 9465, ...; the same for TEMPORAL_METRICS_ADDRESS).
 */
function metricsPorts(config: Config, slot: number): Record<string, string> {
  const ports: Record<string, string> = {};
  if (config.metricsPort !== undefined) ports.METRICS_PORT = String(config.metricsPort + slot - 1);
  const sdk = config.temporalMetricsAddress?.match(/^(.*):(\d+)$/);
  if (sdk) ports.TEMPORAL_METRICS_ADDRESS = `${sdk[1]}:${Number(sdk[2]) + slot - 1}`;
  return ports;
}

void main();
