import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { connectDatabase } from "../db";
import { embeddedDatabaseUrl } from "../infra/embeddedPostgres";
import { parkedState, redriveParkedEvents } from "../events/parked";

const USAGE = `npm run events:redrive -- [--list] [--account <id>] [<event id> ...]

Re-drives events the relay parked (docs/operations.md): each goes back to the relay with a fresh
retry budget and parks again if it still cannot be handed over. Without ids, every parked event (of
--account, if given). --list only shows what is parked. Against DATABASE_URL, else a running
\`npm start\`'s embedded database.`;

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { account: { type: "string" }, list: { type: "boolean" }, help: { type: "boolean" } },
  });
  if (values.help) return console.log(USAGE);
  const numbers = (texts: string[]) =>
    texts.map((text) => {
      if (!/^\d+$/.test(text)) throw new Error(`not an id: ${text}\n\n${USAGE}`);
      return Number(text);
    });
  const ids = positionals.length ? numbers(positionals) : undefined;
  const accountId = values.account === undefined ? undefined : numbers([values.account])[0];
  const config = loadConfig();
  const knex = connectDatabase(config.databaseUrl ?? embeddedDatabaseUrl(), { min: 0, max: 1 });
  try {
    const before = await parkedState(knex);
    console.log(
      `${before.count} parked event(s)${before.oldest ? `; the oldest is ${before.oldest.id} (account ${before.oldest.account_id}, ${before.oldest.name}): ${before.oldest.error}` : ""}`,
    );
    if (values.list) return;
    const redriven = await redriveParkedEvents(knex, { ids, accountId });
    console.log(redriven.length ? `Re-driven: ${redriven.join(", ")}` : "Nothing to re-drive");
  } finally {
    await knex.destroy();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
