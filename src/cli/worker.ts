import { loadConfig } from "../config";
import { describeTemporal, onShutdown, openRuntime, requireEnv, startWorker } from "../runtime";

/** Production worker role: `npm run start:worker` against DATABASE_URL and TEMPORAL_ADDRESS. */
async function main() {
  const config = loadConfig();
  const databaseUrl = requireEnv(config.databaseUrl, "DATABASE_URL");
  const temporalAddress = requireEnv(config.temporalAddress, "TEMPORAL_ADDRESS");
  const runtime = await openRuntime(config, { databaseUrl, temporalAddress });
  const worker = await startWorker(runtime, config, temporalAddress);
  console.log(`Worker on ${describeTemporal(runtime, config, temporalAddress)}`);
  onShutdown(async () => {
    await worker.stop();
    await runtime.close();
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
