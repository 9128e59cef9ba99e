import { performance } from "node:perf_hooks";
import type { Knex } from "knex";
import { benchAccount } from "../account";
import { noteRawMessages } from "../../test/support/conversationFactories";
import { expectOk, startHarness } from "../../test/support/harness";
import { asInService } from "../inService";
import { startServer } from "../load";
import { formatMs, percentile } from "../stats";

const REQUESTS = 9;

/**
 * The hot reads in one large account, one request at a time: what grows with the account's data
 * rather than with the request (a sort of every row, a scan per conversation) shows here and not in
 * the load cases, whose account is small. BENCH_LARGE_CONVERSATIONS conversations (default 100,000;
 * one in five open), half as many contacts, each with a contact inbox, and four messages a
 * conversation, written straight to the tables. Prints each read's p50 and max to the body's last
 * byte, and the server's CPU per request.
 */
export async function run() {
  const h = await startHarness();
  const server = await startServer("api");
  try {
    const { account, token, base, inbox, contact } = await benchAccount(h);
    const first = await expectOk(h.request("POST", `${base}/conversations`, { token, body: { inbox_id: inbox.id, contact_id: contact.id } }), "conversation");
    const conversations = Number(process.env.BENCH_LARGE_CONVERSATIONS ?? 100_000);
    const contacts = Math.max(1, Math.floor(conversations / 2));
    const seeding = performance.now();
    await seed(h.knex, account.id, inbox.id, conversations, contacts);
    console.log(
      `${conversations} conversations, ${contacts} contacts, ${conversations * 4} messages written in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );

    const newest = await h.knex("conversations").where({ account_id: account.id }).max("display_id as id").first();
    const someContact = await h.knex("contacts").where({ account_id: account.id }).max("id as id").first();
    const paths = [
      "/conversations?status=open&page=1",
      "/conversations?status=open&page=40",
      "/conversations?status=open&assignee_type=unassigned",
      "/conversations?status=resolved&sort_by=created_at_desc",
      "/conversations?status=all&page=1",
      "/conversations?status=all&page=40",
      "/conversations/meta?status=open",
      "/conversations/unread_counts",
      `/conversations/${newest!.id}`,
      `/conversations/${newest!.id}/messages`,
      `/conversations/${first.id}`,
      "/contacts?page=1",
      "/contacts?page=50",
      "/contacts?page=1&sort=name",
      "/contacts/search?q=Person%201234",
      "/contacts/search?q=p777@example",
      `/contacts/${someContact!.id}`,
      `/contacts/${someContact!.id}/conversations`,
    ];
    for (const path of paths) {
      const samples: number[] = [];
      const cpuBefore = server.cpuMs();
      for (let i = 0; i < REQUESTS; i++) {
        const start = performance.now();
        const response = await fetch(`${server.url}${base}${path}`, { headers: { api_access_token: token } });
        await response.arrayBuffer();
        samples.push(performance.now() - start);
        if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
      }
      console.log(
        `GET ${path.padEnd(56)} p50 ${formatMs(percentile(samples, 50)).padStart(9)}, max ${formatMs(Math.max(...samples)).padStart(9)}, ` +
          `server CPU ${((server.cpuMs() - cpuBefore) / REQUESTS).toFixed(1)} ms/req`,
      );
    }
  } finally {
    await server.stop();
    await h.close();
  }
}

/** Contacts with a contact inbox each, conversations spread over them and over the last 30 days, four messages each. */
async function seed(knex: Knex, accountId: number, inboxId: number, conversations: number, contacts: number): Promise<void> {
  await knex.raw(
    `insert into contacts (account_id, name, email, phone_number, last_activity_at, created_at)
     select ?, 'Person ' || g, 'p' || g || '@example.com', '+1555' || lpad(g::text, 7, '0'), now() - (g % 43200) * interval '1 minute', now() - g * interval '1 second'
     from generate_series(1, ?) g`,
    [accountId, contacts],
  );
  await knex.raw(
    `insert into contact_inboxes (account_id, contact_id, inbox_id, source_id)
     select account_id, id, ?, 'large-' || id from contacts where account_id = ? and name like 'Person %'`,
    [inboxId, accountId],
  );
  await knex.raw(
    `insert into conversations (account_id, inbox_id, display_id, uuid, contact_id, contact_inbox_id, status, last_activity_at, created_at, updated_at)
     select ?, ?, 1000 + g, gen_random_uuid(), ci.contact_id, ci.id, (array['open','resolved','pending','resolved','resolved'])[1 + g % 5],
       now() - (g % 43200) * interval '1 minute', now() - g * interval '1 second', now() - g * interval '1 second'
     from generate_series(1, ?) g
     join (select id, contact_id, row_number() over (order by id) - 1 as n from contact_inboxes where account_id = ? and source_id like 'large-%') ci on ci.n = g % ?`,
    [accountId, inboxId, conversations, accountId, contacts],
  );
  await knex.raw(
    `insert into messages (account_id, inbox_id, conversation_id, message_type, content, created_at)
     select c.account_id, c.inbox_id, c.id, g % 2, 'hello ' || g, c.created_at + g * interval '1 minute'
     from conversations c, generate_series(1, 4) g where c.account_id = ? and c.display_id > 1000`,
    [accountId],
  );
  await noteRawMessages(knex, accountId);
  await asInService(knex);
}
