import { createContact, createInbox } from "../../test/support/conversationFactories";
import { createAccount } from "../../test/support/factories";
import { type Harness, expectOk, startHarness } from "../../test/support/harness";

/**
 * SQL statements per request on the hot paths, with the auth cache warm (the steady state): each
 * statement pays query building, a round trip and row parsing, so this is the first number to cut.
 * BENCH_SHOW_SQL=1 prints the statements.
 */
export async function run() {
  const h = await startHarness();
  try {
    const account = await createAccount(h);
    const token = account.admin.token;
    const base = `/api/v1/accounts/${account.id}`;
    const inbox = await createInbox(h, account);
    const { contact } = await createContact(h, account, { inbox_id: inbox.id });
    const conversation = await expectOk(
      h.request("POST", `${base}/conversations`, { token, body: { inbox_id: inbox.id, contact_id: contact.id } }),
      "conversation",
    );
    const cases: [string, string, string, unknown?][] = [
      ["GET contact", "GET", `${base}/contacts/${contact.id}`],
      ["GET conversation", "GET", `${base}/conversations/${conversation.id}`],
      ["GET conversation list", "GET", `${base}/conversations?status=open&page=1`],
      ["POST message", "POST", `${base}/conversations/${conversation.id}/messages`, { content: "counted", message_type: "outgoing" }],
    ];
    for (const [name, method, path, body] of cases) {
      await expectOk(h.request(method, path, { token, body }), `${name} (warming the auth cache)`);
      const statements = await counted(h, () => expectOk(h.request(method, path, { token, body }), name));
      console.log(`${name.padEnd(24)} ${statements.length} SQL statements`);
      if (process.env.BENCH_SHOW_SQL === "1") for (const sql of statements) console.log(`    ${sql}`);
    }
  } finally {
    await h.close();
  }
}

async function counted(h: Harness, request: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const onQuery = (query: { sql: string }) => statements.push(query.sql);
  h.knex.on("query", onQuery);
  try {
    await request();
  } finally {
    h.knex.off("query", onQuery);
  }
  return statements;
}
