import { loadConfig } from "../config";
import { describeTemporal, onShutdown, openRuntime, requireEnv, startWorker } from "../runtime";
import { logger } from "../lib/logger";

/** Production worker role: `npm run start:worker` against DATABASE_URL and TEMPORAL_ADDRESS. */
async function main() {
  const config = loadConfig();
  const databaseUrl = requireEnv(config.databaseUrl, "DATABASE_URL");
  const temporalAddress = requireEnv(config.temporalAddress, "TEMPORAL_ADDRESS");
  const runtime = await openRuntime(config, { databaseUrl, temporalAddress });
  const worker = await startWorker(runtime, config, temporalAddress);
  logger.info(`Worker on ${describeTemporal(runtime, config, temporalAddress)}`);
  onShutdown(async () => {
    await worker.stop();
    await runtime.close();
  });
}

main().catch((err) => {
  logger.fatal({ err }, "worker failed to start");
  process.exit(1);
});
