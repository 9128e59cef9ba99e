import { loadConfig, embeddedPorts } from "../config";
import { embeddedDatabaseUrl } from "../infra/embeddedPostgres";
import { describeTemporal, openRuntime } from "../runtime";
import { adoptTimers } from "../conversations/timers";

/**
 * `npm run timers:replan`: plans every open or snoozed conversation's deadline again from its row and
 * its account's settings, and wakes the timer sweep for the earliest. After restoring a database the
 * deadlines are those of the backup; this makes them match the rows again. Against DATABASE_URL (else
 * a running `npm start`'s embedded database) and TEMPORAL_ADDRESS (else `npm start`'s dev server).
 */
async function main() {
  const config = loadConfig();
  const temporalAddress = config.temporalAddress ?? `127.0.0.1:${embeddedPorts().temporal}`;
  const runtime = await openRuntime(config, { databaseUrl: config.databaseUrl ?? embeddedDatabaseUrl(), temporalAddress });
  try {
    const accounts = await adoptTimers(runtime.deps, { force: true });
    console.log(`Re-planning the timers of ${accounts} account(s) on ${describeTemporal(runtime, config, temporalAddress)}`);
  } finally {
    await runtime.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
