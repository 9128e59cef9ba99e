/* The conversation's own attributes: priority, labels and custom attributes. */
import type { Knex } from "knex";
import { Conversation, type Priority } from "../models/Conversation";
import type { Actor } from "./activityMessages";
import { changeConversation } from "./changes";
import { validateCustomAttributes } from "../services/customAttributes";
import { inUnit } from "./unit";

export async function setPriority(db: Knex, conversation: Conversation, priority: Priority | null, actor: Actor): Promise<Conversation> {
  return inUnit(db, (unit) => changeConversation(unit, conversation.id, { priority }, { actor }));
}

/** Replaces the labels (Chatwoot's update_labels); duplicates collapse, order is kept. */
export async function setLabels(db: Knex, conversation: Conversation, labels: string[], actor: Actor): Promise<Conversation> {
  const unique = [...new Set(labels.map((label) => label.trim()).filter(Boolean))];
  return inUnit(db, (unit) => changeConversation(unit, conversation.id, { labels: unique }, { actor }));
}

/** Replaces the custom attributes, or merges into them when `merge` is set; values are checked against the definitions. */
export async function setCustomAttributes(
  db: Knex,
  conversation: Conversation,
  attributes: Record<string, unknown>,
  { merge, actor }: { merge: boolean; actor: Actor },
): Promise<Conversation> {
  await validateCustomAttributes(db, conversation.account_id, "conversation_attribute", attributes);
  return inUnit(db, async (unit) => {
    const current = await Conversation.lock(unit.trx, conversation.id);
    const custom_attributes = merge ? { ...current.custom_attributes, ...attributes } : attributes;
    return changeConversation(unit, current.id, { custom_attributes }, { actor });
  });
}
