import path from "node:path";
import { DATA_DIR, loadConfig } from "../config";
import { EMBEDDED_DATABASE, EMBEDDED_PG_PORT, startEmbeddedPostgres, type EmbeddedDatabase } from "../infra/embeddedPostgres";
import { startTemporalDevServer, type RunningTemporal } from "../infra/temporalDevServer";
import { closeServer, describeTemporal, onShutdown, openRuntime, startApi, startWorker } from "../runtime";
import { logger } from "../lib/logger";

const TEMPORAL_PORT = Number(process.env.TEMPORAL_DEV_PORT ?? 7233);
const TEMPORAL_UI_PORT = Number(process.env.TEMPORAL_UI_PORT ?? 8233);

/**
 * `npm start`: the whole service on one machine. PostgreSQL and Temporal come from DATABASE_URL and
 * TEMPORAL_ADDRESS, or are started here with their data under .data/ so a restart finds it again.
 */
async function main() {
  const config = loadConfig();
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((err) => logger.error({ err }, "stop failed"));
  };
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

    const worker = await startWorker(runtime, config, temporalAddress);
    stops.push(worker.stop);
    const server = await startApi(runtime, config);
    stops.push(() => closeServer(server));

    logger.info(`API:         http://127.0.0.1:${config.port}  (OpenAPI at /api-docs/openapi.json, health at /health)`);
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

void main();
