import type { Knex } from "knex";
import { type AutomationAction, AutomationRule } from "../../models/AutomationRule";
import { Contact } from "../../models/Contact";
import { Conversation } from "../../models/Conversation";
import { ATTRIBUTE_DISPLAY_TYPES, ATTRIBUTE_MODELS, CustomAttributeDefinition } from "../../models/CustomAttributeDefinition";
import { MESSAGE_TYPES, Message } from "../../models/Message";
import { KIND_OF_DISPLAY } from "../filters/attributes";
import { appointmentConditionsHold } from "./appointmentConditions";
import { type ConditionResult, type ConditionSnapshot, evaluateConditions, MESSAGE_ATTRIBUTES, type SnapshotMessage } from "./conditions";
import type { AutomationWorkflowInput } from "./trigger";

export type RuleEvaluation = { matched: true; ruleName: string; actions: AutomationAction[] } | { matched: false; ruleName: string | null; reason: string };

async function customAttributeKinds(db: Knex, accountId: number): Promise<ConditionSnapshot["customAttributes"]> {
  const kinds: ConditionSnapshot["customAttributes"] = { conversation_attribute: {}, contact_attribute: {} };
  for (const definition of await CustomAttributeDefinition.ofAccount(accountId, db)) {
    const model = ATTRIBUTE_MODELS[definition.attribute_model];
    const display = ATTRIBUTE_DISPLAY_TYPES[definition.attribute_display_type];
    if (model && display) kinds[model][definition.attribute_key] = KIND_OF_DISPLAY[display];
  }
  return kinds;
}

const snapshotMessage = (message: Message): SnapshotMessage => ({
  content: message.processed_message_content ?? message.content,
  message_type: MESSAGE_TYPES[message.message_type]!,
  private: message.private,
});

/**
 * The database as the conditions see it now: Chatwoot evaluates when its job runs, not as of the
 * event. Messages are read only when a condition looks at them.
 */
export async function loadConditionSnapshot(db: Knex, input: AutomationWorkflowInput, needsMessages: boolean): Promise<ConditionSnapshot | null> {
  const conversation = await Conversation.query(db).findOne({ id: input.conversationId, account_id: input.accountId });
  if (!conversation) return null;
  const contact = conversation.contact_id ? await Contact.query(db).findById(conversation.contact_id) : undefined;
  let messages: Message[] = [];
  if (needsMessages) {
    messages =
      input.messageId !== null
        ? await Message.query(db).where({ id: input.messageId, conversation_id: conversation.id })
        : await Message.query(db).where("conversation_id", conversation.id).select("content", "processed_message_content", "message_type", "private");
  }
  return {
    conversation,
    contact: contact ?? null,
    messages: messages.map(snapshotMessage),
    changedAttributes: input.changedAttributes,
    customAttributes: await customAttributeKinds(db, input.accountId),
    now: new Date(),
  };
}

/** Loads the rule (still active, still the account's) and decides whether its actions run. */
export async function evaluateRule(db: Knex, input: AutomationWorkflowInput): Promise<RuleEvaluation> {
  const rule = await AutomationRule.query(db).findOne({ id: input.ruleId, account_id: input.accountId });
  if (!rule) return { matched: false, ruleName: null, reason: "rule no longer exists" };
  if (!rule.active) return { matched: false, ruleName: rule.name, reason: "rule is inactive" };
  const result =
    input.appointmentId !== undefined
      ? await appointmentConditionsHold(db, input.accountId, input.appointmentId, rule.conditions, input.changedAttributes)
      : await conversationConditionsHold(db, input, rule);
  return result.matched ? { matched: true, ruleName: rule.name, actions: rule.actions } : { matched: false, ruleName: rule.name, reason: result.reason };
}

async function conversationConditionsHold(db: Knex, input: AutomationWorkflowInput, rule: AutomationRule): Promise<ConditionResult> {
  const needsMessages = rule.conditions.some((c) => MESSAGE_ATTRIBUTES.includes(c.attribute_key) && c.filter_operator !== "attribute_changed");
  const snapshot = await loadConditionSnapshot(db, input, needsMessages);
  if (!snapshot) return { matched: false, reason: "conversation no longer exists" };
  return evaluateConditions(rule.conditions, snapshot);
}
