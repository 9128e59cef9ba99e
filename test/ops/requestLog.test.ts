import test from "ava";
import { redirectLogs, logger } from "../../src/lib/logger";
import { accountDeletionWorkflowId } from "../../src/temporal/contracts";
import { createInbox } from "../support/conversationFactories";
import { createAccount } from "../support/factories";
import { accountApi, useHarness } from "../support/harness";

const h = useHarness(test);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test("every response carries a generated X-Request-Id, also errors and unknown routes", async (t) => {
  const account = await createAccount(h);
  const responses = [
    await accountApi(h, account).get("/inboxes"),
    await h.request("GET", `/api/v1/accounts/${account.id}/inboxes`, { token: "wrong" }),
    await h.request("GET", "/no/such/route"),
    await h.request("GET", "/health"),
  ];
  const ids = responses.map((response) => response.headers.get("x-request-id") ?? "");
  for (const id of ids) t.regex(id, UUID);
  t.is(new Set(ids).size, ids.length, "one id per request");
});

test("a client's X-Request-Id is echoed; one with unsafe characters is stripped as Rails does", async (t) => {
  t.is((await h.request("GET", "/health", { headers: { "x-request-id": "checkout-42_retry@edge" } })).headers.get("x-request-id"), "checkout-42_retry@edge");
  t.is((await h.request("GET", "/health", { headers: { "x-request-id": 'a b<script>"c' } })).headers.get("x-request-id"), "abscriptc");
  t.regex((await h.request("GET", "/health", { headers: { "x-request-id": "<>" } })).headers.get("x-request-id") ?? "", UUID);
});

test("the audit row of a change records the request id", async (t) => {
  const account = await createAccount(h);
  const inbox = await createInbox(h, account, { name: "Support", channel: { type: "api" } });
  const response = await h.request("PATCH", `/api/v1/accounts/${account.id}/inboxes/${inbox.id}`, {
    token: account.admin.token,
    body: { name: "Renamed" },
    headers: { "x-request-id": "rename-inbox-1" },
  });
  t.is(response.status, 200);
  const row = await h.knex("audit_logs").where({ account_id: account.id, auditable_type: "Inbox", auditable_id: inbox.id, action: "update" }).first();
  t.is(row?.request_uuid, "rename-inbox-1");
});

test("a workflow started while serving a request names the request in its memo", async (t) => {
  const account = await createAccount(h);
  const response = await h.request("DELETE", `/platform/api/v1/accounts/${account.id}`, {
    token: h.platformToken,
    headers: { "x-request-id": "delete-account-7" },
  });
  t.true(response.status < 300, `${response.status}`);
  const handle = h.deps.temporal.client.workflow.getHandle(accountDeletionWorkflowId(h.deps.temporal.installationId, account.id));
  const { memo } = await handle.describe();
  t.like(memo, { request_id: "delete-account-7", installation: h.deps.temporal.installationId });
});

test("each answered request writes one JSON line with its id, method, route template, status, duration and account", async (t) => {
  const account = await createAccount(h);
  const lines: Record<string, unknown>[] = [];
  const level = logger.level;
  logger.level = "info";
  const restore = redirectLogs((line) => lines.push(JSON.parse(line)));
  try {
    await h.request("GET", `/api/v1/accounts/${account.id}/inboxes`, { token: account.admin.token, headers: { "x-request-id": "log-line-1" } });
    await h.request("GET", "/nowhere", { headers: { "x-request-id": "log-line-2" } });
  } finally {
    restore();
    logger.level = level;
  }
  const [served] = lines.filter((line) => line.request_id === "log-line-1");
  t.like(served, { method: "GET", route: "/api/v1/accounts/:account_id/inboxes", status: 200, account_id: account.id, msg: "request" });
  t.is(typeof served?.duration_ms, "number");
  t.like(
    lines.find((line) => line.request_id === "log-line-2"),
    { route: "unmatched", status: 404 },
  );
});
