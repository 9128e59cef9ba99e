import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import test from "ava";
import { PROJECT_ROOT } from "../../src/config";
import { eventually } from "../support/eventually";
import { freePort } from "../support/serviceProcesses";

test("npm start brings up its own PostgreSQL (which asks for a password), and the API, worker and relay answer", async (t) => {
  t.timeout(180_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "convo-start-"));
  // As root, PostgreSQL runs as a user of its own, which must reach the data directory (mkdtemp's is 0700).
  chmodSync(dataDir, 0o755);
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const [port, postgresPort] = [await freePort(), await freePort()];
  const token = `start-test-${process.pid}-${Date.now()}`;
  // What npm start is given on a machine with nothing set up: no DATABASE_URL. Temporal is the test
  // run's own dev server (started the same way, by startTemporalDevServer): one more started here
  // took ports that a parallel test could take first.
  const { DATABASE_URL: _database, ...inherited } = process.env;
  const service = spawn(process.execPath, [path.join(PROJECT_ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(PROJECT_ROOT, "src/cli/start.ts")], {
    cwd: PROJECT_ROOT,
    env: {
      ...inherited,
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(postgresPort),
      PLATFORM_APP_TOKEN: token,
      LOG_LEVEL: "error",
    },
    stdio: ["ignore", "pipe", "pipe"],
    // A process group of its own, signalled as a terminal signals one.
    detached: true,
  });
  // Its log, shown only when the test fails.
  let passed = false;
  let output = "";
  for (const stream of [service.stdout, service.stderr]) stream.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  t.teardown(() => {
    if (!passed) console.error(output);
  });
  const exited = new Promise((resolve) => service.once("exit", resolve));
  t.teardown(() => {
    if (service.exitCode === null) process.kill(-service.pid!, "SIGKILL");
  });
  const base = `http://127.0.0.1:${port}`;

  // Health is 200 only with the relay listening and both connections up.
  await eventually(
    async () => {
      if (service.exitCode !== null) throw new Error(`npm start exited (${service.exitCode})`);
      return (await fetch(`${base}/health`).catch(() => undefined))?.status;
    },
    (status) => status === 200,
    "npm start's /health to answer 200",
    150_000,
  );
  const created = await fetch(`${base}/platform/api/v1/accounts`, {
    method: "POST",
    headers: { api_access_token: token, "content-type": "application/json" },
    body: JSON.stringify({ name: "Started" }),
  });
  t.is(created.status, 200);
  t.like(await created.json(), { name: "Started" });

  // Ctrl-C (SIGINT to every process of the group) stops everything it started.
  process.kill(-service.pid!, "SIGINT");
  await exited;
  for (const [what, stopped] of [
    ["the API", port],
    ["PostgreSQL", postgresPort],
  ] as const) {
    await eventually(
      () => listening(stopped),
      (open) => !open,
      `${what} to stop`,
      30_000,
    );
  }
  passed = true;
  t.pass();
});

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
