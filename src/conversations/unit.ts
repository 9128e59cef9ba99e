/*
 * A unit of work on conversations: one transaction, and the events its changes raise, recorded in
 * that transaction with payloads built from the state the work leaves.
 */
import type { Knex } from "knex";
import { sql } from "../db/sql";
import { Contact } from "../models/Contact";
import { Conversation } from "../models/Conversation";
import { contactWebhookData } from "../presenters/contact";
import { type ConversationGraph, conversationWebhookData } from "../presenters/conversation";
import { messageWebhookData, withEchoId } from "../presenters/message";
import type { Message } from "../models/Message";
import type { Actor } from "./activityMessages";
import { loadConversationGraphs, loadMessage } from "./graph";
import { type EventRecord, recordEvent } from "../events/outbox";

/** `[{attr: {previous_value, current_value}}, ...]` (BaseListener#extract_changed_attributes). */
export type ChangedAttributes = Record<string, { previous_value: unknown; current_value: unknown }>[];

type PendingEvent =
  | { name: "conversation_created" | "conversation_status_changed"; conversationId: number }
  | { name: "conversation_updated"; conversationId: number; changed: ChangedAttributes }
  | { name: "message_created" | "message_updated"; conversationId: number; messageId: number; echoId?: string | null }
  | { name: "contact_updated"; conversationId: number; contactId: number; changed: ChangedAttributes };

/**
 * One transaction's work on conversations and the events it raises, in the order Chatwoot raises
 * them. Payloads are built once the work is done, from the state it leaves, as Chatwoot's jobs
 * build them from the database when they run; changed_attributes are captured as each change happens.
 */
export interface Unit {
  trx: Knex.Transaction;
  events: PendingEvent[];
  /** The messages the unit wrote: most likely the newest of their conversations, whose graphs then read their senders in their first round trip. */
  newMessages: Message[];
  /** The automation rule that acted in this unit: its events carry it so that rules skip them. */
  performedByRuleId?: number;
}

/** Remembers an automation rule acting in the unit (Chatwoot's performed_by). */
export function noteActor(unit: Unit, actor: Actor): void {
  if (actor?.kind === "automation_rule") unit.performedByRuleId = actor.rule.id;
}

/** A conversation's graph as the unit left it, loaded at most once per unit. */
export type GraphOf = (conversationId: number) => Promise<ConversationGraph>;

/** What a unit's view reads with: its transaction and the graphs its events loaded. */
export interface Settled {
  trx: Knex.Transaction;
  graphOf: GraphOf;
}

/**
 * Runs fn in a unit (a new transaction unless db already is one); then view, if given, reads the
 * result there too (it must not write), and the unit's events are recorded in the same transaction.
 * Graphs are loaded only once the work is done, so the events and the view share one per
 * conversation and nothing can make it stale.
 */
export async function inUnit<T>(db: Knex, fn: (unit: Unit) => Promise<T>): Promise<T>;
export async function inUnit<T, R>(db: Knex, fn: (unit: Unit) => Promise<T>, view: (result: T, settled: Settled) => Promise<R>): Promise<R>;
export async function inUnit<T, R>(db: Knex, fn: (unit: Unit) => Promise<T>, view?: (result: T, settled: Settled) => Promise<R>): Promise<T | R> {
  const ownTransaction = !db.isTransaction;
  const run = async (trx: Knex.Transaction) => {
    const unit: Unit = { trx, events: [], newMessages: [] };
    const result = await fn(unit);
    const graphOf = graphsOf(trx, unit.newMessages);
    const viewed = view ? await view(result, { trx, graphOf }) : result;
    await recordPending(unit, graphOf);
    return viewed;
  };
  return ownTransaction ? db.transaction(run) : run(db as Knex.Transaction);
}

/** GraphOf, and loading several conversations' graphs at once (per account, as loadConversationGraphs takes them). */
function graphsOf(trx: Knex.Transaction, newMessages: Message[]): GraphOf & { preload(conversationIds: number[]): Promise<void> } {
  const graphs = new Map<number, Promise<ConversationGraph>>();
  const newIn = (conversationIds: number[]) => ({ messages: newMessages.filter((message) => conversationIds.includes(message.conversation_id)) });
  const graphOf = (conversationId: number) => {
    let graph = graphs.get(conversationId);
    if (!graph) {
      // The conversation is read in the graph's own round trip.
      graph = loadConversationGraphs(trx, { where: sql`conversations.id = ${conversationId}` }, newIn([conversationId])).then(([loaded]) => {
        if (!loaded) throw new Error(`conversation ${conversationId} vanished inside its unit`);
        return loaded;
      });
      graphs.set(conversationId, graph);
    }
    return graph;
  };
  const preload = async (conversationIds: number[]) => {
    const missing = conversationIds.filter((id) => !graphs.has(id));
    if (missing.length < 2) return;
    const byAccount = new Map<number, Conversation[]>();
    for (const conversation of await Conversation.query(trx).whereIn("id", missing)) {
      byAccount.set(conversation.account_id, [...(byAccount.get(conversation.account_id) ?? []), conversation]);
    }
    for (const conversations of byAccount.values()) {
      const loaded = loadConversationGraphs(trx, conversations, newIn(conversations.map((conversation) => conversation.id)));
      conversations.forEach((conversation, i) => {
        const graph = loaded.then((all) => all[i]!);
        // The first event to await it fails the unit; the others' copies must not crash the process as unhandled.
        graph.catch(() => undefined);
        graphs.set(conversation.id, graph);
      });
    }
  };
  return Object.assign(graphOf, { preload });
}

async function recordPending({ trx, events, performedByRuleId }: Unit, graphOf: ReturnType<typeof graphsOf>): Promise<void> {
  // A unit that changed many conversations (a timer sweep) loads their graphs in a few queries, not a few each.
  await graphOf.preload([...new Set(events.map((event) => event.conversationId))]);
  const records: EventRecord[] = [];
  for (const event of events) {
    const graph = await graphOf(event.conversationId);
    const scope = { accountId: graph.conversation.account_id, inboxId: graph.conversation.inbox_id, conversationId: graph.conversation.id, performedByRuleId };
    records.push({ ...scope, name: event.name, payload: { ...(await payloadOf(trx, event, graph)), event: event.name } });
  }
  await recordEvent(trx, records);
}

async function payloadOf(trx: Knex.Transaction, event: PendingEvent, graph: ConversationGraph): Promise<Record<string, unknown>> {
  switch (event.name) {
    case "conversation_created":
      return conversationWebhookData(graph);
    case "conversation_status_changed":
      // Chatwoot reads status_change after the save has cleared it, so consumers always get null.
      return { ...conversationWebhookData(graph), changed_attributes: null };
    case "conversation_updated":
      return { ...conversationWebhookData(graph), changed_attributes: event.changed };
    case "message_created":
    case "message_updated": {
      const { message, sender } = await loadMessage(trx, graph, event.messageId);
      return withEchoId(
        messageWebhookData(message, sender, { account: graph.account, inbox: graph.inbox, conversation: conversationWebhookData(graph) }),
        event.echoId,
      );
    }
    case "contact_updated": {
      const contact = graph.contact?.id === event.contactId ? graph.contact : await Contact.query(trx).findById(event.contactId).throwIfNotFound();
      return { ...contactWebhookData(contact, graph.account), changed_attributes: event.changed };
    }
  }
}
