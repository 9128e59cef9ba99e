import { randomUUID } from "node:crypto";
import test from "ava";
import type { AppContext } from "../../src/http/context";
import { errorHandler } from "../../src/middlewares/errorHandler";
import { AccountUser } from "../../src/models/AccountUser";
import { User } from "../../src/models/User";
import { createAccount } from "../support/factories";
import { useHarness } from "../support/harness";
import { redirectLogs } from "../../src/lib/logger";

const h = useHarness(test);

/** What the error handler answers for whatever `fail` throws. */
async function answerTo(fail: () => PromiseLike<unknown>) {
  const ctx = { method: "POST", path: "/test" } as AppContext;
  await errorHandler(ctx, async () => {
    await fail();
  });
  return { status: ctx.status, body: ctx.body };
}

// Models check uniqueness first; these are the races that get past the check to the database.
test("a unique violation raised through Objection is 422 has already been taken, on the right attribute", async (t) => {
  const account = await createAccount(h);
  const duplicateEmail = await answerTo(() =>
    User.query().insert({ name: "Twin", email: account.admin.email.toUpperCase(), uid: "x", pubsub_token: randomUUID() }),
  );
  t.deepEqual(duplicateEmail, { status: 422, body: { message: "Email has already been taken", attributes: ["email"] } });

  const duplicateMember = await answerTo(() => AccountUser.query().insert({ account_id: account.id, user_id: account.agent.id, role: "agent" }));
  t.deepEqual(duplicateMember, { status: 422, body: { message: "User has already been taken", attributes: ["user_id"] } });
});

test("a foreign key violation is 422 must exist", async (t) => {
  const answer = await answerTo(() => AccountUser.query().insert({ account_id: 999999999, user_id: 999999999, role: "agent" }));
  t.is(answer.status, 422);
  t.regex((answer.body as { message: string }).message, / must exist$/);
});

test("anything else is a 500 that reveals nothing", async (t) => {
  const restoreLogs = redirectLogs(() => undefined);
  try {
    t.deepEqual(await answerTo(async () => Promise.reject(new Error("secret detail"))), { status: 500, body: { error: "Internal server error" } });
  } finally {
    restoreLogs();
  }
});
