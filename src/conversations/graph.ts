import type { Knex } from "knex";
import { type InList, Sql, sql, sqlText } from "../db/sql";
import { Batch } from "../db/batch";
import { AccountUser } from "../models/AccountUser";
import { AgentBot } from "../models/AgentBot";
import { Contact } from "../models/Contact";
import { ContactInbox } from "../models/ContactInbox";
import { Conversation, type UnreadRow } from "../models/Conversation";
import { Inbox } from "../models/Inbox";
import { MESSAGE_TYPE, Message } from "../models/Message";
import { Team } from "../models/Team";
import { User } from "../models/User";
import type { ConversationGraph, LoadedMessage } from "../presenters/conversation";
import type { AccountRef, MessageSender } from "../presenters/message";
import { loadSenders, queueSenders } from "./messageSenders";
import { queueAttachments } from "../services/attachments";

/* Loading a conversation with everything its JSON and webhook payloads show: read-only, shared by routes and changes. */

/** A message of the conversation with its sender: from the graph when it is one of the newest, else from the database. */
export async function loadMessage(db: Knex, graph: ConversationGraph, messageId: number): Promise<LoadedMessage> {
  const known = [graph.lastMessage, graph.lastNonActivityMessage, graph.lastChatMessage].find((loaded) => loaded?.message.id === messageId);
  if (known) return known;
  const message = await Message.query(db).findById(messageId).throwIfNotFound();
  return { message, sender: (await loadSenders(db, graph.conversation.account_id, [message])).get(message.id) ?? null };
}

/**
 * Runs independent queries: in parallel on the pool, one after the other on a transaction (whose
 * single connection takes one query at a time).
 */
export async function allOn<T extends readonly (() => PromiseLike<unknown>)[]>(
  db: Knex,
  queries: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  if (!db.isTransaction) return Promise.all(queries.map((query) => query())) as never;
  const results: unknown[] = [];
  for (const query of queries) results.push(await query());
  return results as never;
}

/** The newest message of each conversation that passes the condition, queued on a batch; none without ids, without a statement. */
function latestOn(batch: Batch, of: InList, condition?: string): Promise<Map<number, Message>> {
  if (!("subquery" in of) && !of.length) return Promise.resolve(new Map());
  return batch.rows(Message.latestSql(of, condition)).then((rows) => Message.latestByConversation(rows.map((row) => Message.fromDatabaseJson(row))));
}

/**
 * The newest message, the newest non-activity one and the newest chat one (neither activity nor
 * private) of each conversation. The newest message usually is all three, so the narrower ones are
 * looked up (together, in one more round trip) only for the conversations where it is not, once the
 * batch has read them.
 */
async function latestMessages(db: Knex, batch: Batch, of: InList, conversations: Promise<Conversation[]>) {
  const last = await latestOn(batch, of);
  const ids = (await conversations).map((c) => c.id);
  const isActivity = (id: number) => last.get(id)?.message_type === MESSAGE_TYPE.activity;
  const narrower = new Batch(db);
  const nonActivityLoad = latestOn(narrower, ids.filter(isActivity), `message_type <> ${MESSAGE_TYPE.activity}`);
  const chatLoad = latestOn(
    narrower,
    ids.filter((id) => isActivity(id) || last.get(id)?.private),
    `message_type <> ${MESSAGE_TYPE.activity} and not private`,
  );
  await narrower.run();
  const [nonActivity, chat] = [await nonActivityLoad, await chatLoad];
  return {
    last,
    lastNonActivity: (id: number) => (isActivity(id) ? nonActivity.get(id) : last.get(id)),
    lastChat: (id: number) => (isActivity(id) || last.get(id)?.private ? chat.get(id) : last.get(id)),
  };
}

/** The unread counts of conversations already read, queued on a batch; none without ids, without a statement. */
function unreadCountsOn(batch: Batch, ids: readonly number[]): Promise<Map<number, number>> {
  if (!ids.length) return Promise.resolve(new Map());
  return batch.rows<UnreadRow>(Conversation.unreadCountsSql(ids)).then(Conversation.unreadCountsOf);
}

/**
 * Which conversations to load: rows already read, or a condition on conversations (of one account)
 * that the load's first round trip reads them by, with what they show.
 */
export type ConversationsToLoad = Conversation[] | { accountId?: number; where: Sql };

/** The assignees, bots and teams of the conversations, queued on a batch. */
function queueAssigned(batch: Batch, accountId: number, conversations: Conversation[]) {
  const idsOf = (pick: (c: Conversation) => number | null) => [...new Set(conversations.map(pick).filter((id): id is number => id !== null))];
  const assigneeIds = idsOf((c) => c.assignee_id);
  return Promise.all([
    batch.modelsWhere(User, "id", assigneeIds),
    batch.modelsWhere(AccountUser, "user_id", assigneeIds, { account_id: accountId }),
    batch.modelsWhere(
      AgentBot,
      "id",
      idsOf((c) => c.assignee_agent_bot_id),
    ),
    batch.modelsWhere(
      Team,
      "id",
      idsOf((c) => c.team_id),
    ),
  ] as const);
}

/**
 * Conversations with everything their payloads show, in order, with a fixed number of queries;
 * `known.account` (the request's account, when it is theirs) saves one. Given a condition rather
 * than rows, the conversations are read in the same round trip as their inboxes, contacts, unread
 * counts and newest messages (those look them up by subqueries), and their assignees, bots and
 * teams, which most have none of, in a second only when there are some; so are the newest messages'
 * senders, but for those of `known.messages` (a unit's new messages, most likely the newest), which
 * the first batch reads.
 */
export async function loadConversationGraphs(
  db: Knex,
  toLoad: ConversationsToLoad,
  known: { account?: AccountRef; messages?: Message[] } = {},
): Promise<ConversationGraph[]> {
  const rows = Array.isArray(toLoad) ? toLoad : undefined;
  const where = Array.isArray(toLoad) ? undefined : toLoad.where;
  if (rows && !rows.length) return [];
  const givenAccountId = Array.isArray(toLoad) ? toLoad[0]!.account_id : toLoad.accountId;
  // Without rows or an account id, the account is the conversations' own, read in the same batch.
  const accountIdSql = givenAccountId !== undefined ? sql`${givenAccountId}` : sql`(select account_id from conversations where ${where!} limit 1)`;
  const knownAccount = known.account && known.account.id === givenAccountId ? known.account : undefined;
  const column = (name: keyof Conversation & string, pick: (c: Conversation) => number | null): InList =>
    rows
      ? [...new Set(rows.map(pick).filter((id): id is number => id !== null))]
      : { subquery: sql`select ${sqlText(name)} from conversations where ${where!}` };
  // Every lookup that needs only the conversations' own columns goes in one round trip.
  const batch = new Batch(db);
  // The newest messages' attachments (with the conversations' contacts, most senders, their payloads
  // need no second round trip), and those of the known messages, which are most often the newest.
  const latestIds = Message.latestIdsSql(column("id", (c) => c.id));
  const knownMessageIds = known.messages?.map((message) => message.id) ?? [];
  const attachments = queueAttachments(batch, db, {
    subquery: knownMessageIds.length ? sql`${latestIds} union select unnest(${knownMessageIds}::bigint[])` : latestIds,
  });
  // Conversations read here carry their unread counts; rows already read count only those that may
  // have unread messages (most have none).
  const readWithUnread = where && batch.rows(Conversation.withUnreadCountsSql(where)).then((found) => found.map(Conversation.rowWithUnread));
  const read = readWithUnread ? readWithUnread.then((found) => found.map((row) => row.conversation)) : Promise.resolve(rows!);
  const assignedWithRows = rows && queueAssigned(batch, rows[0]!.account_id, rows);
  const loads = Promise.all([
    knownAccount ?? batch.rows<AccountRef>(sql`select id, name from accounts where id = ${accountIdSql}`).then((rows) => rows[0]),
    batch.modelsWhere(
      Inbox,
      "id",
      column("inbox_id", (c) => c.inbox_id),
    ),
    batch.modelsWhere(
      Contact,
      "id",
      column("contact_id", (c) => c.contact_id),
    ),
    batch.modelsWhere(
      ContactInbox,
      "id",
      column("contact_inbox_id", (c) => c.contact_inbox_id),
    ),
    readWithUnread
      ? readWithUnread.then((found) => Conversation.unreadCountsOf(found.map((row) => row.unread)))
      : unreadCountsOn(
          batch,
          rows!.filter((c) => c.mayHaveUnread()).map((c) => c.id),
        ),
    latestMessages(
      db,
      batch,
      column("id", (c) => c.id),
      read,
    ),
    known.messages?.length ? queueSenders(batch, db, accountIdSql, known.messages, attachments) : undefined,
    attachments,
  ] as const);
  await batch.run();
  const conversations = await read;
  if (!conversations.length) return [];
  const accountId = conversations[0]!.account_id;
  const assignedBatch = new Batch(db);
  const assigned = assignedWithRows ?? queueAssigned(assignedBatch, accountId, conversations);
  await assignedBatch.run();
  const [account, inboxes, contacts, contactInboxes, unread, latest, knownSenders, attachLatest] = await loads;
  const [users, accountUsers, bots, teams] = await assigned;
  const latestLoaded = [
    ...new Map(
      conversations
        .flatMap((c) => [latest.last.get(c.id), latest.lastNonActivity(c.id), latest.lastChat(c.id)])
        .filter((m): m is Message => m !== undefined)
        .map((m) => [m.id, m]),
    ).values(),
  ];
  const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));
  const contactById = byId(contacts);
  const knownIds = new Set(knownSenders ? known.messages!.map((m) => m.id) : []);
  // A newest message from the conversation's contact has its sender and attachments read already.
  const fromContact = latestLoaded.filter(
    (m) => !knownIds.has(m.id) && latest.last.get(m.conversation_id) === m && m.sender_type === "Contact" && contactById.has(m.sender_id!),
  );
  const unknown = latestLoaded.filter((m) => !knownIds.has(m.id) && !fromContact.includes(m));
  await attachLatest(fromContact);
  // Conversations without messages (new ones) need no senders' round trip.
  const [readFirst, readAfter] = await Promise.all([
    knownSenders ? knownSenders(latestLoaded.filter((m) => knownIds.has(m.id))) : new Map<number, MessageSender | null>(),
    unknown.length ? loadSenders(db, accountId, unknown) : new Map<number, MessageSender | null>(),
  ]);
  const senders = new Map<number, MessageSender | null>([
    ...fromContact.map((m) => [m.id, { type: "Contact", contact: contactById.get(m.sender_id!)! }] as const),
    ...readFirst,
    ...readAfter,
  ]);
  const inboxById = byId(inboxes);
  const contactInboxById = byId(contactInboxes);
  const userById = byId(users);
  const botById = byId(bots);
  const teamById = byId(teams);
  const accountUserByUser = new Map(accountUsers.map((au) => [au.user_id, au]));
  const loaded = (message: Message | undefined) => (message ? { message, sender: senders.get(message.id) ?? null } : null);

  return conversations.map((conversation) => {
    const user = conversation.assignee_id ? userById.get(conversation.assignee_id) : undefined;
    const accountUser = conversation.assignee_id ? accountUserByUser.get(conversation.assignee_id) : undefined;
    return {
      conversation,
      account: { id: account!.id, name: account!.name },
      inbox: inboxById.get(conversation.inbox_id)!,
      contact: (conversation.contact_id && contactById.get(conversation.contact_id)) || null,
      contactInbox: (conversation.contact_inbox_id && contactInboxById.get(conversation.contact_inbox_id)) || null,
      assignee: user && accountUser ? { user, accountUser } : null,
      assigneeBot: (conversation.assignee_agent_bot_id && botById.get(conversation.assignee_agent_bot_id)) || null,
      team: (conversation.team_id && teamById.get(conversation.team_id)) || null,
      unreadCount: unread.get(conversation.id) ?? 0,
      lastMessage: loaded(latest.last.get(conversation.id)),
      lastNonActivityMessage: loaded(latest.lastNonActivity(conversation.id)),
      lastChatMessage: loaded(latest.lastChat(conversation.id)),
    };
  });
}

export async function loadConversationGraph(db: Knex, conversation: Conversation): Promise<ConversationGraph> {
  return (await loadConversationGraphs(db, [conversation]))[0]!;
}
