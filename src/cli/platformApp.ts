import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { connectDatabase, migrate } from "../db";
import { PlatformApp } from "../models/PlatformApp";
import { embeddedDatabaseUrl } from "../infra/embeddedPostgres";

/** `npm run platform-app -- --name NAME`: creates a platform app and prints its token. */
async function main() {
  const { values } = parseArgs({ options: { name: { type: "string" } } });
  if (!values.name) {
    console.error("Usage: npm run platform-app -- --name NAME");
    process.exit(2);
  }
  // Without DATABASE_URL, the embedded database of a running `npm start`.
  const knex = connectDatabase(loadConfig().databaseUrl ?? embeddedDatabaseUrl());
  try {
    await migrate(knex);
    const { app, token } = await PlatformApp.createWithToken(values.name);
    console.log(`Platform app "${app.name}" (id ${app.id}) created. Its api_access_token:\n${token}`);
  } finally {
    await knex.destroy();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
