import type { Knex } from "knex";
import type { Sql } from "../db/sql";
import { Batch } from "../db/batch";
import { AccountUser } from "../models/AccountUser";
import { AgentBot } from "../models/AgentBot";
import { Contact } from "../models/Contact";
import type { Message, SenderType } from "../models/Message";
import { User } from "../models/User";
import type { MessageSender } from "../presenters/message";
import { queueAttachments } from "../services/attachments";

/** Once its batch has run: the sender of each of these messages, by message id, their attachments set on them. */
export type SendersOf = (messages: Message[]) => Promise<Map<number, MessageSender | null>>;

/**
 * Queues the lookups of the messages' senders (with what their payloads show) and of their
 * attachments on a batch. `accountId` may be a scalar subquery when the account is only known from
 * rows the same batch reads.
 */
export async function queueSenders(
  batch: Batch,
  db: Knex,
  accountId: number | Sql,
  of: Message[],
  /** The messages' attachments when the caller's batch reads them already (with others). */
  attachments?: ReturnType<typeof queueAttachments>,
): Promise<SendersOf> {
  const idsOf = (type: SenderType) => [...new Set(of.filter((m) => m.sender_type === type && m.sender_id !== null).map((m) => m.sender_id!))];
  const userIds = idsOf("User");
  const loads = Promise.all([
    batch.modelsWhere(Contact, "id", idsOf("Contact")),
    batch.modelsWhere(User, "id", userIds),
    batch.modelsWhere(AccountUser, "user_id", userIds, { account_id: accountId }),
    batch.modelsWhere(AgentBot, "id", idsOf("AgentBot")),
    // Not a sender, but every payload that shows a message's sender shows its attachments too.
    attachments ??
      queueAttachments(
        batch,
        db,
        of.map((m) => m.id),
      ),
  ] as const);
  const [contacts, users, accountUsers, bots, attach] = await loads;
  const contactById = new Map(contacts.map((c) => [c.id, c]));
  const userById = new Map(users.map((u) => [u.id, u]));
  const availabilityOf = new Map(accountUsers.map((au) => [au.user_id, au.availability]));
  const botById = new Map(bots.map((b) => [b.id, b]));
  const senderOf = (message: Message): MessageSender | null => {
    const id = message.sender_id;
    if (id === null) return null;
    switch (message.sender_type) {
      case "Contact": {
        const contact = contactById.get(id);
        return contact ? { type: "Contact", contact } : null;
      }
      case "User": {
        const user = userById.get(id);
        return user ? { type: "User", user, availability: availabilityOf.get(id) ?? "offline" } : null;
      }
      case "AgentBot": {
        const bot = botById.get(id);
        return bot ? { type: "AgentBot", bot } : null;
      }
      default:
        return null;
    }
  };
  return async (messages) => {
    await attach(messages);
    return new Map(messages.map((message) => [message.id, senderOf(message)]));
  };
}

/** The senders of messages with what their payloads show, by message id, in one round trip; loads the messages' attachments on the way. */
export async function loadSenders(db: Knex, accountId: number, messages: Message[]): Promise<Map<number, MessageSender | null>> {
  const batch = new Batch(db);
  const senders = queueSenders(batch, db, accountId, messages);
  await batch.run();
  return (await senders)(messages);
}
