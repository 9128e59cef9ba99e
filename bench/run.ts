/**
 * `npm run bench`: brings up PostgreSQL and Temporal as the tests do, then runs each case in
 * bench/cases (all of them, or those named: `npm run bench -- calendar`) and prints its figures.
 * A case exports `run(): Promise<void>`; it reads the services from the environment through
 * test/support/harness.ts, like a test.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { servicesEnv, withTestServices } from "../test/support/services";

async function main() {
  const casesDir = path.join(__dirname, "cases");
  const available = readdirSync(casesDir)
    .filter((file) => file.endsWith(".ts"))
    .map((file) => file.replace(/\.ts$/, ""))
    .sort();
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !available.includes(name));
  if (unknown.length) throw new Error(`Unknown bench case(s): ${unknown.join(", ")}; available: ${available.join(", ")}`);
  const selected = wanted.length ? wanted : available;

  await withTestServices(
    async (services) => {
      Object.assign(process.env, servicesEnv(services));
      for (const name of selected) {
        console.log(`\n== ${name}`);
        const { run } = (await import(path.join(casesDir, `${name}.ts`))) as { run: () => Promise<void> };
        await run();
      }
    },
    { temporalInMemory: true },
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
