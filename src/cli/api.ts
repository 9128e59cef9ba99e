import { loadConfig } from "../config";
import { closeServer, describeTemporal, onShutdown, openRuntime, requireEnv, startApi } from "../runtime";
import { logger } from "../lib/logger";

/** Production API role: `npm run start:api` against DATABASE_URL and TEMPORAL_ADDRESS. */
async function main() {
  const config = loadConfig();
  const databaseUrl = requireEnv(config.databaseUrl, "DATABASE_URL");
  const temporalAddress = requireEnv(config.temporalAddress, "TEMPORAL_ADDRESS");
  const runtime = await openRuntime(config, { databaseUrl, temporalAddress });
  const server = await startApi(runtime, config);
  logger.info(`API listening on http://0.0.0.0:${config.port}; Temporal ${describeTemporal(runtime, config, temporalAddress)}`);
  onShutdown(async () => {
    await closeServer(server);
    await runtime.close();
  });
}

main().catch((err) => {
  logger.fatal({ err }, "API failed to start");
  process.exit(1);
});
