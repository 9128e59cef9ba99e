import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import test from "ava";
import { Model } from "objection";
import { loadConfig, PROJECT_ROOT } from "../../src/config";
import { PlatformApp } from "../../src/models/PlatformApp";
import { openRuntime } from "../../src/runtime";
import { createUser } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

const appsWithToken = (token: string) => h.knex("access_tokens").where({ token, owner_type: "PlatformApp" });

// Serial: while it runs, the models are bound to the runtime's own pool.
test.serial("startup with PLATFORM_APP_TOKEN ensures exactly one platform app with that token, and it works", async (t) => {
  const token = `bootstrap-${randomUUID()}`;
  const config = loadConfig({ PLATFORM_APP_TOKEN: token });
  const endpoints = { databaseUrl: process.env.DATABASE_URL!, temporalAddress: process.env.TEMPORAL_ADDRESS! };
  for (let start = 0; start < 2; start++) await (await openRuntime(config, endpoints, { migrate: true })).close();
  // Each runtime bound the models to its own pool, now closed: give them the harness's back.
  Model.knex(h.knex);
  await PlatformApp.ensureWithToken(token);
  t.is((await appsWithToken(token)).length, 1);

  const created = await h.request("POST", "/platform/api/v1/accounts", { token, body: { name: "Bootstrapped" } });
  t.is(created.status, 200);
  t.is((await h.request("GET", `/platform/api/v1/accounts/${created.body.id}`, { token })).status, 200);
});

test("a PLATFORM_APP_TOKEN that is already another owner's token is refused", async (t) => {
  const user = await createUser(h);
  await t.throwsAsync(PlatformApp.ensureWithToken(user.token), { message: /already the token of a user or agent bot/ });
  t.deepEqual(await appsWithToken(user.token), []);
});

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "platform-app", "--", ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

test("npm run platform-app -- --name NAME prints a token that works on the platform API", async (t) => {
  const name = `cli-${randomUUID()}`;
  const { code, stdout, stderr } = await runCli(["--name", name]);
  t.is(code, 0, stderr);
  t.true(stdout.includes(`Platform app "${name}"`));
  const token = stdout.trim().split("\n").at(-1)!.trim();
  t.regex(token, /^[1-9A-HJ-NP-Za-km-z]{24}$/);
  t.is((await h.knex("platform_apps").where({ name })).length, 1);

  const created = await h.request("POST", "/platform/api/v1/accounts", { token, body: { name: "From the CLI" } });
  t.is(created.status, 200);
  t.is(created.body.name, "From the CLI");
});

test("the CLI without --name prints its usage and fails", async (t) => {
  const { code, stderr } = await runCli([]);
  t.is(code, 2);
  t.regex(stderr, /Usage: npm run platform-app -- --name NAME/);
});
