import type { Knex } from "knex";
import { Trip } from "../db/trip";
import { AccountUser } from "../models/AccountUser";
import { AgentBot } from "../models/AgentBot";
import { Contact } from "../models/Contact";
import type { Message, SenderType } from "../models/Message";
import { User } from "../models/User";
import type { MessageSender } from "../presenters/message";
import { loadAttachments } from "./attachments";

/** The senders of messages with what their payloads show, by message id; loads the messages' attachments on the way. */
export async function loadSenders(db: Knex, accountId: number, messages: Message[]): Promise<Map<number, MessageSender | null>> {
  const idsOf = (type: SenderType) => [...new Set(messages.filter((m) => m.sender_type === type && m.sender_id !== null).map((m) => m.sender_id!))];
  const contactIds = idsOf("Contact");
  const userIds = idsOf("User");
  const botIds = idsOf("AgentBot");
  // The lookups that have ids to look up, in one round trip.
  const trip = new Trip(db);
  const loads = Promise.all([
    trip.modelsWhere(Contact, "id", contactIds),
    trip.modelsWhere(User, "id", userIds),
    trip.modelsWhere(AccountUser, "user_id", userIds, { account_id: accountId }),
    trip.modelsWhere(AgentBot, "id", botIds),
    // Not a sender, but every payload that shows a message's sender shows its attachments too.
    loadAttachments(db, messages, trip),
  ] as const);
  await trip.run();
  const [contacts, users, accountUsers, bots] = await loads;
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
  return new Map(messages.map((message) => [message.id, senderOf(message)]));
}
