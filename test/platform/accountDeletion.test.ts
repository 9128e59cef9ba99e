import test from "ava";
import { createAccount } from "../support/factories";
import { accountApi, useHarness } from "../support/harness";
import { accountDeletionWorkflowId } from "../../src/temporal/contracts";

const h = useHarness(test, { worker: true });

test("deleting an account answers at once and a workflow removes all its data", async (t) => {
  const account = await createAccount(h);
  const other = await createAccount(h, "Other");
  const bot = await h.request("POST", `/api/v1/accounts/${account.id}/agent_bots`, {
    token: account.admin.token,
    body: { name: "Bot", outgoing_url: "http://127.0.0.1:9/bot" },
  });
  t.is(bot.status, 200);
  const team = await accountApi(h, account).post("/teams", { name: "Support" });
  t.is(team.status, 200);
  t.is(
    (
      await h.request("POST", `/api/v1/accounts/${account.id}/teams/${team.body.id}/team_members`, {
        token: account.admin.token,
        body: { user_ids: [account.agent.id] },
      })
    ).status,
    200,
  );

  const deleted = await h.request("DELETE", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken });
  t.is(deleted.status, 200);
  t.is((await h.request("GET", `/platform/api/v1/accounts/${account.id}`, { token: h.platformToken })).status, 404);
  t.is((await accountApi(h, account).get()).status, 404);

  const result = await h.deps.temporal.client.workflow.getHandle(accountDeletionWorkflowId(h.deps.temporal.installationId, account.id)).result();
  t.true(result.deletedRows >= 3);

  t.is(await h.knex("accounts").where("id", account.id).first(), undefined);
  t.deepEqual(await h.knex("account_users").where("account_id", account.id), []);
  t.deepEqual(await h.knex("agent_bots").where("account_id", account.id), []);
  t.deepEqual(await h.knex("teams").where("account_id", account.id), []);
  t.deepEqual(await h.knex("team_members").where("account_id", account.id), []);
  t.deepEqual(await h.knex("access_tokens").where({ owner_type: "AgentBot", owner_id: bot.body.id }), []);
  // Users outlive the account, and other accounts are untouched.
  t.is((await accountApi(h, other).get()).status, 200);
  t.truthy(await h.knex("users").where("id", account.admin.id).first());
});
