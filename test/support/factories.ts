import { randomUUID } from "node:crypto";
import { expectOk, type Harness } from "./harness";

export interface TestUser {
  id: number;
  token: string;
  email: string;
}

export interface TestAccount {
  id: number;
  admin: TestUser;
  agent: TestUser;
}

export async function createUser(h: Harness, attributes: Record<string, unknown> = {}): Promise<TestUser> {
  const email = `user-${randomUUID()}@example.com`;
  const body = await expectOk(
    h.request("POST", "/platform/api/v1/users", {
      token: h.platformToken,
      body: { name: "Test User", email, password: "Passw0rd!", ...attributes },
    }),
    "create user",
  );
  return { id: body.id, token: body.access_token, email: body.email };
}

export async function addToAccount(h: Harness, accountId: number, userId: number, role: "agent" | "administrator") {
  await expectOk(
    h.request("POST", `/platform/api/v1/accounts/${accountId}/account_users`, { token: h.platformToken, body: { user_id: userId, role } }),
    "add account user",
  );
}

/** An account provisioned through the platform API, with one administrator and one agent. */
export async function createAccount(h: Harness, name = "Test Account"): Promise<TestAccount> {
  const account = await expectOk(h.request("POST", "/platform/api/v1/accounts", { token: h.platformToken, body: { name } }), "create account");
  const admin = await createUser(h, { name: "Admin Person" });
  const agent = await createUser(h, { name: "Agent Person" });
  await addToAccount(h, account.id, admin.id, "administrator");
  await addToAccount(h, account.id, agent.id, "agent");
  return { id: account.id, admin, agent };
}
