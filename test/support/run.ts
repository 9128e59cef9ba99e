/** `npm test`: brings up PostgreSQL and Temporal (see services.ts), runs ava, stops what it started. */
import { spawn } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "../../src/config";
import { servicesEnv, withTestServices } from "./services";

async function main() {
  let exitCode = 1;
  try {
    exitCode = await withTestServices(async (services) => {
      const ava = spawn(process.execPath, [path.join(PROJECT_ROOT, "node_modules/ava/entrypoints/cli.mjs"), ...process.argv.slice(2)], {
        stdio: "inherit",
        cwd: PROJECT_ROOT,
        // Request and SDK lines would drown ava's report; LOG_LEVEL=info shows them.
        env: { LOG_LEVEL: "error", ...process.env, ...servicesEnv(services) },
      });
      return new Promise<number>((resolve) => ava.on("exit", (code) => resolve(code ?? 1)));
    });
  } catch (err) {
    console.error(err);
  }
  process.exit(exitCode);
}

void main();
