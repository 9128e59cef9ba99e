import { createContact } from "./conversationFactories";
import type { TestAccount } from "./factories";
import { expectOk, type Harness } from "./harness";
import type { ReceivedRequest } from "./receiver";
import { startRoles, type RoleProcess } from "./serviceProcesses";

/*
 * What test/ops/scaleOut.test.ts and the `scale` bench case share: several API and worker processes
 * on one database, calls through any of them, and the webhook deliveries a receiver got, by message.
 */

/**
 * The roles' environment over one database. The harness's task queue, so a timer it plans is run by
 * the processes' workers; a short claim lease, so a killed worker's claimed events go to the other
 * relay in seconds, not minutes.
 */
export function fleetEnv(databaseUrl: string): Record<string, string> {
  return { DATABASE_URL: databaseUrl, TEMPORAL_TASK_QUEUE: "convo-sched-test", RATE_LIMITS: "off", EVENT_RELAY_CLAIM_SECONDS: "5" };
}

/** Several processes of each role on one database. */
export interface Fleet {
  apis: RoleProcess[];
  workers: RoleProcess[];
  /** The roles' environment, to start a process again. */
  env: Record<string, string>;
}

/** Two API processes and two workers (each with its relay), started together. */
export async function startFleet(env: Record<string, string>): Promise<Fleet> {
  const [api1, api2, worker1, worker2] = await startRoles(["api", "api", "worker", "worker"], env);
  return { apis: [api1!, api2!], workers: [worker1!, worker2!], env };
}

/** An account-scoped call as the account's administrator, through `via`; fails unless it succeeds. */
export const accountCall = (via: Harness, account: TestAccount, method: string, path: string, body?: unknown) =>
  expectOk(via.request(method, `/api/v1/accounts/${account.id}${path}`, { token: account.admin.token, body }), `${method} ${path}`);

/** A new contact's open conversation in the inbox; answers its display id. */
export async function openConversation(via: Harness, account: TestAccount, inboxId: number): Promise<number> {
  const { contact } = await createContact(via, account, { inbox_id: inboxId });
  return (await accountCall(via, account, "POST", "/conversations", { inbox_id: inboxId, contact_id: contact.id, status: "open" })).id;
}

/** For each message id a receiver was sent, the distinct `X-Chatwoot-Delivery` ids it came under. */
export function deliveryIdsByMessage(requests: readonly ReceivedRequest[]): Map<number, Set<string>> {
  const byMessage = new Map<number, Set<string>>();
  for (const request of requests) {
    const seen = byMessage.get(request.body.id) ?? new Set<string>();
    seen.add(String(request.headers["x-chatwoot-delivery"]));
    byMessage.set(request.body.id, seen);
  }
  return byMessage;
}
