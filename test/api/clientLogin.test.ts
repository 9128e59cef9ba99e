import test from "ava";
import { createAccount } from "../support/factories";
import { useHarness } from "../support/harness";

const h = useHarness(test);

/** What HTTP clients send: fetch with the token header and a JSON accept header, no harness helpers. */
async function call(path: string, headers: Record<string, string>) {
  const response = await fetch(`${h.baseUrl}${path}`, { headers: { accept: "application/json", ...headers } });
  return { status: response.status, body: (await response.json()) as any };
}

test("the chatwoot CLI logs in: GET /api/v1/profile with api_access_token, then works in the account it names", async (t) => {
  const account = await createAccount(h, "CLI Co");
  const profile = await call("/api/v1/profile", { api_access_token: account.agent.token });
  t.is(profile.status, 200);
  t.is(profile.body.access_token, account.agent.token);
  t.is(profile.body.account_id, account.id);
  t.deepEqual(
    profile.body.accounts.map((a: { id: number; name: string }) => [a.id, a.name]),
    [[account.id, "CLI Co"]],
  );
  // The header as clients often spell it works too.
  t.is((await call("/api/v1/profile", { "Api-Access-Token": account.agent.token })).status, 200);

  const inAccount = await call(`/api/v1/accounts/${profile.body.account_id}/conversations`, { api_access_token: account.agent.token });
  t.is(inAccount.status, 200);
  const badToken = await call("/api/v1/profile", { api_access_token: "revoked-or-mistyped" });
  t.deepEqual([badToken.status, badToken.body], [401, { error: "Invalid Access Token" }]);
});

test("the n8n credential checks pass: GET /api on the base URL and the platform account list", async (t) => {
  const info = await call("/api", {});
  t.is(info.status, 200);
  t.is(typeof info.body.version, "string");
  t.is(info.body.data_services, "ok");

  const accounts = await call("/platform/api/v1/accounts", { api_access_token: h.platformToken });
  t.is(accounts.status, 200);
  t.true(Array.isArray(accounts.body));
  const wrong = await call("/platform/api/v1/accounts", { api_access_token: "not-a-platform-token" });
  t.deepEqual([wrong.status, wrong.body], [401, { error: "Invalid access_token" }]);
});
