import { loadConfig } from "../config";
import { connectDatabase, migrate } from "../db";
import { requireEnv } from "../runtime";

async function main() {
  const knex = connectDatabase(requireEnv(loadConfig().databaseUrl, "DATABASE_URL"));
  try {
    const applied = await migrate(knex);
    console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Already up to date");
  } finally {
    await knex.destroy();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
