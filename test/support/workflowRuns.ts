import type { AddressInfo } from "node:net";
import type { Client } from "@temporalio/client";
import type { Worker } from "@temporalio/worker";
import { createApp } from "../../src/app";
import { closeServer } from "../../src/runtime";
import { eventually } from "./eventually";
import { accountApi, expectOk, type Harness, ownQueue } from "./harness";
import type { ConversationWorld } from "../conversations/setup";

/** `count` conversations of the world's contact in its inbox, created a few at a time; their display ids in order. */
export async function manyConversations(h: Harness, world: ConversationWorld, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < count; start += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - start) }, () =>
        expectOk(accountApi(h, world.account).post("/conversations", { inbox_id: world.inbox.id, contact_id: world.contact.id }), "create conversation"),
      ),
    );
    ids.push(...batch.map((c: { id: number }) => c.id));
  }
  return ids.sort((a, b) => a - b);
}

/** The result of the account's only run of a workflow type. */
export async function onlyRunResult<T>(client: Client, workflowType: string, accountId: number): Promise<T> {
  const [workflowId] = await runsOf(client, workflowType, accountId);
  return client.workflow.getHandle(workflowId!).result();
}

/** The ids of the account's runs of a workflow type, once Temporal's visibility lists `count` of them. */
export async function runsOf(client: Client, workflowType: string, accountId: number, count = 1): Promise<string[]> {
  return eventually(
    async () => {
      const ids: string[] = [];
      for await (const run of client.workflow.list({ query: `WorkflowType = '${workflowType}' AND AccountId = ${accountId}` })) ids.push(run.workflowId);
      return [...new Set(ids)];
    },
    (ids) => ids.length >= count,
    `${count} ${workflowType} run(s) of account ${accountId}`,
  );
}

/**
 * The harness's API on a task queue of the test's own (ownQueue): the runs it starts wait for the
 * test's workers alone, so a test can stop one in the middle and start another.
 */
export async function apiOnOwnQueue(h: Harness, name: string) {
  const { deps, startWorker } = ownQueue(h, name);
  const server = createApp(deps).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (path: string, token: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", api_access_token: token },
      body: JSON.stringify(body),
    });
    return response.status;
  };
  return { deps, startWorker, post, close: () => closeServer(server) };
}

/** Runs a worker until `until` holds, then shuts it down (in-flight activities finish) and waits for it. */
export async function runWorkerUntil(worker: Worker, until: () => Promise<boolean>, what: string): Promise<void> {
  const running = worker.run();
  try {
    await eventually(until, Boolean, what, 60_000);
  } finally {
    worker.shutdown();
    await running;
  }
}
