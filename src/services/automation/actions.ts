import { ApplicationFailure } from "@temporalio/common";
import type { Knex } from "knex";
import { ApiError } from "../../errors";
import { safePost, UnsafeUrlError } from "../../lib/safeFetch";
import type { AutomationAction } from "../../models/AutomationRule";
import { AccountUser } from "../../models/AccountUser";
import { CONVERSATION_STATUSES, Conversation, type ConversationStatus, PRIORITIES, type Priority } from "../../models/Conversation";
import { InboxMember } from "../../models/InboxMember";
import { MESSAGE_TYPE, Message } from "../../models/Message";
import { Team } from "../../models/Team";
import { User } from "../../models/User";
import { conversationWebhookData } from "../../presenters/conversation";
import type { Actor } from "../../conversations/activityMessages";
import { assignConversation, setTeam } from "../../conversations/assignment";
import { setLabels, setPriority } from "../../conversations/attributes";
import { changeConversation } from "../../conversations/changes";
import { muteConversation, openConversation, resolveConversation, toggleStatus } from "../../conversations/status";
import { inUnit } from "../../conversations/unit";
import { loadConversationGraph } from "../../conversations/graph";
import { createMessage } from "../../conversations/messages";
import type { DeliveryConfig } from "../../config";
import type { AutomationWorkflowInput } from "./trigger";
import { automationRuleWorkflowId } from "../../temporal/contracts";
import { offerSlotsAction } from "../../scheduling/offerAction";

export type ActionOutcome = { status: "done" | "skipped"; detail?: string };

/** The failure type of an action that cannot succeed on retry (bad params, a refused change). */
export const ACTION_REJECTED = "AutomationActionRejected";

/** What a rule's action sees of its run (booking rules' actions take it too). */
export interface ActionContext {
  db: Knex;
  webhooks: Pick<DeliveryConfig, "timeoutMs" | "allowPrivateNetworks">;
  input: AutomationWorkflowInput;
  params: unknown[];
}

/**
 * One run of an action on one conversation, whoever runs it (a rule on an event, a macro run by a
 * user): built by the activity, so it may hold functions.
 */
export interface ActionRun {
  accountId: number;
  /** None for a run on something else (a booking rule's event without a conversation): nothing to act on. */
  conversationId: number | null;
  /** Named by activity messages; a rule's events also raise no rules again. */
  actor: Actor;
  /** Names this one action of this run on this conversation: a retried attempt finds what an earlier one did by it. */
  key: string;
  /** What a message it posts carries besides the key (the rule's id). */
  messageAttributes: Record<string, unknown>;
  /** The `event` of send_webhook_event's body. */
  webhookEvent(db: Knex): Promise<string>;
  /** Whom assign_agent's "self" names (the user running a macro). */
  selfUserId?: number;
}

/** What a conversation action works with. */
interface ConversationActionContext {
  db: Knex;
  webhooks: ActionContext["webhooks"];
  run: ActionRun;
  /** Reloaded before each action, as ActionService does. */
  conversation: Conversation;
  actor: Actor;
  params: unknown[];
}

type Handler = (ctx: ConversationActionContext) => Promise<ActionOutcome | void>;

export const rejected = (message: string) => ApplicationFailure.nonRetryable(message, ACTION_REJECTED);
export const skipped = (detail: string): ActionOutcome => ({ status: "skipped", detail });

function text(ctx: ConversationActionContext): string {
  const content = ctx.params[0];
  if (typeof content !== "string" || !content.trim()) throw rejected("no message text");
  return content;
}

/**
 * Posting is the one action that is not naturally idempotent, and Temporal retries an activity whose
 * transaction may have committed before the worker died (or whose first attempt is still running
 * when the retry starts): the message carries its action's key, and an attempt that finds it posts
 * nothing. The check and the insert share the conversation's lock, so two attempts cannot both miss.
 */
function postMessage(privateNote: boolean): Handler {
  return async (ctx) => {
    const { key } = ctx.run;
    const content = text(ctx);
    return ctx.db.transaction(async (trx): Promise<ActionOutcome | void> => {
      await Conversation.lock(trx, ctx.conversation.id);
      const posted = await Message.query(trx)
        .where("conversation_id", ctx.conversation.id)
        .whereRaw("content_attributes->>'automation_action_key' = ?", [key])
        .first();
      if (posted) return { status: "done", detail: "posted by an earlier attempt" };
      const content_attributes = { ...ctx.run.messageAttributes, automation_action_key: key };
      // A user's run (a macro) sends as them; a rule's messages have no sender, as in Chatwoot.
      const sender = ctx.actor?.kind === "user" ? { type: "User" as const, id: ctx.actor.user.id } : null;
      await createMessage(trx, ctx.conversation, { content, message_type: "outgoing", private: privateNote, content_attributes }, sender, ctx.actor);
    });
  };
}

function changeStatus(status: ConversationStatus): Handler {
  return async (ctx) => {
    await toggleStatus(ctx.db, ctx.conversation, { status }, ctx.actor);
  };
}

const NOT_IN_SERVICE = "email, attachments and SLA policies are not part of this service";

/**
 * ActionService#assign_agent's candidates: inbox members and account administrators. The agent a
 * rule names may have left since; then, as in Chatwoot, nothing is assigned.
 */
async function assignableAgent(ctx: ConversationActionContext, userId: number): Promise<boolean> {
  const membership = await AccountUser.query(ctx.db).findOne({ account_id: ctx.conversation.account_id, user_id: userId });
  if (!membership) return false;
  const user = await User.query(ctx.db).findById(userId);
  if (!user?.confirmed_at) return false;
  return membership.role === "administrator" || Boolean(await InboxMember.query(ctx.db).findOne({ inbox_id: ctx.conversation.inbox_id, user_id: userId }));
}

/** The agent who wrote the conversation's latest public reply. */
async function lastRespondingAgent(ctx: ConversationActionContext): Promise<number | null> {
  const reply = await Message.query(ctx.db)
    .where({ conversation_id: ctx.conversation.id, message_type: MESSAGE_TYPE.outgoing, private: false, sender_type: "User" })
    .orderBy([
      { column: "created_at", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .first();
  return reply?.sender_id ?? null;
}

const unassign: Handler = async (ctx) => {
  // Only the agent: ActionService leaves an agent bot assignment alone.
  await inUnit(ctx.db, (unit) => changeConversation(unit, ctx.conversation.id, { assignee_id: null }, { actor: ctx.actor }));
};

const removeTeam: Handler = async (ctx) => {
  await setTeam(ctx.db, ctx.conversation, null, ctx.actor);
};

/** send_webhook_event: the body posted to the URL the action names, unsigned, as Chatwoot's WebhookJob without a secret. */
async function postWebhook(ctx: Pick<ActionContext, "webhooks" | "params">, body: Record<string, unknown>): Promise<void> {
  const url = ctx.params[0];
  if (typeof url !== "string") throw rejected("no webhook URL");
  try {
    const response = await safePost(url, {
      body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", Accept: "application/json", "User-Agent": "convo-sched-webhooks" },
      timeoutMs: ctx.webhooks.timeoutMs,
      allowPrivateNetworks: ctx.webhooks.allowPrivateNetworks,
    });
    if (response.status < 200 || response.status >= 300) throw rejected(`${url} answered ${response.status}`);
  } catch (err) {
    throw err instanceof UnsafeUrlError ? rejected(err.message) : err;
  }
}

/** The rule's event name (as stored now; the run's event when the rule is gone). */
async function ruleEventName(db: Knex, input: AutomationWorkflowInput): Promise<string> {
  const rule = await db("automation_rules").where("id", input.ruleId).first<{ event_name: string }>("event_name");
  return rule?.event_name ?? input.eventName;
}

/** send_webhook_event of a rule: the body `shape` makes of the rule's event name. */
export async function postRuleWebhook(
  ctx: Pick<ActionContext, "db" | "webhooks" | "input" | "params">,
  shape: (eventName: string) => Record<string, unknown>,
): Promise<void> {
  if (typeof ctx.params[0] !== "string") throw rejected("no webhook URL");
  await postWebhook(ctx, shape(await ruleEventName(ctx.db, ctx.input)));
}

const HANDLERS: Record<string, Handler> = {
  send_message: postMessage(false),
  add_private_note: postMessage(true),
  async add_label(ctx) {
    await setLabels(ctx.db, ctx.conversation, [...ctx.conversation.labels, ...ctx.params.map(String)], ctx.actor);
  },
  async remove_label(ctx) {
    const removed = ctx.params.map(String);
    await setLabels(
      ctx.db,
      ctx.conversation,
      ctx.conversation.labels.filter((label) => !removed.includes(label)),
      ctx.actor,
    );
  },
  async assign_agent(ctx) {
    const target = ctx.params[0];
    if (target === "nil") return unassign(ctx);
    const userId =
      target === "last_responding_agent" ? await lastRespondingAgent(ctx) : target === "self" && ctx.run.selfUserId ? ctx.run.selfUserId : Number(target);
    if (userId === null) return skipped("no agent has replied yet");
    if (!Number.isInteger(userId) || !(await assignableAgent(ctx, userId))) return skipped(`user ${String(target)} is not an inbox member or administrator`);
    await assignConversation(ctx.db, ctx.conversation, { type: "User", id: userId }, ctx.actor);
  },
  remove_assigned_agent: unassign,
  async change_status(ctx) {
    const status = ctx.params[0] as ConversationStatus;
    if (!CONVERSATION_STATUSES.includes(status)) throw rejected(`unknown status ${String(status)}`);
    await changeStatus(status)(ctx);
  },
  async resolve_conversation(ctx) {
    await resolveConversation(ctx.db, ctx.conversation, ctx.actor);
  },
  async open_conversation(ctx) {
    await openConversation(ctx.db, ctx.conversation, ctx.actor);
  },
  pending_conversation: changeStatus("pending"),
  snooze_conversation: changeStatus("snoozed"),
  async change_priority(ctx) {
    const priority = ctx.params[0] === "nil" || ctx.params[0] === null ? null : (ctx.params[0] as Priority);
    if (priority !== null && !PRIORITIES.includes(priority)) throw rejected(`unknown priority ${String(priority)}`);
    await setPriority(ctx.db, ctx.conversation, priority, ctx.actor);
  },
  async mute_conversation(ctx) {
    await muteConversation(ctx.db, ctx.conversation, ctx.actor);
  },
  async send_webhook_event(ctx) {
    if (typeof ctx.params[0] !== "string") throw rejected("no webhook URL");
    const graph = await loadConversationGraph(ctx.db, ctx.conversation);
    await postWebhook(ctx, { ...conversationWebhookData(graph), event: await ctx.run.webhookEvent(ctx.db) });
  },
  send_email_to_team: async () => skipped(NOT_IN_SERVICE),
  send_email_transcript: async () => skipped(NOT_IN_SERVICE),
  async assign_team(ctx) {
    const target = ctx.params[0];
    // ActionService#assign_team: no team, "nil" or 0 removes the team.
    if (target === undefined || target === null || ["nil", "0", ""].includes(String(target))) return removeTeam(ctx);
    const id = Number(target);
    const team = Number.isSafeInteger(id) && id > 0 ? await Team.findInAccount(ctx.conversation.account_id, id, ctx.db) : undefined;
    if (!team) return skipped(`team ${String(target)} is not a team of the account`);
    await setTeam(ctx.db, ctx.conversation, team, ctx.actor);
  },
  remove_assigned_team: removeTeam,
  send_attachment: async () => skipped(NOT_IN_SERVICE),
  add_sla: async () => skipped(NOT_IN_SERVICE),
  offer_slots: (ctx) => offerSlotsAction(ctx.db, ctx.conversation, ctx.params, ctx.run.key, ctx.actor),
};

/** Runs one action (the step-th of its rule) of a rule run; what the activity calls. */
export type ActionRunner = (
  db: Knex,
  webhooks: ActionContext["webhooks"],
  input: AutomationWorkflowInput,
  action: AutomationAction,
  step: number,
) => Promise<ActionOutcome>;

/** Runs one action on the run's conversation; a refusal by the domain fails for good, anything else may be retried. */
export async function runActionOn(db: Knex, webhooks: ActionContext["webhooks"], run: ActionRun, action: AutomationAction): Promise<ActionOutcome> {
  const handler = HANDLERS[action.action_name];
  if (!handler) throw rejected(`unsupported action ${action.action_name}`);
  const conversation = run.conversationId === null ? undefined : await Conversation.query(db).findOne({ id: run.conversationId, account_id: run.accountId });
  if (!conversation) return skipped("conversation no longer exists");
  return refusalsRejected(() => handler({ db, webhooks, run, conversation, actor: run.actor, params: paramsOf(action) }));
}

/** Runs one action of a rule as the rule (so its events do not trigger rules again). */
export const runAction: ActionRunner = (db, webhooks, input, action, step) =>
  runActionOn(
    db,
    webhooks,
    {
      accountId: input.accountId,
      conversationId: input.conversationId,
      actor: { kind: "automation_rule", rule: { id: input.ruleId } },
      // The action's position in the rule: with the run's id it names this one action of this run.
      key: `${automationRuleWorkflowId(input.installationId, input.eventUid, input.ruleId)}/${step}`,
      messageAttributes: { automation_rule_id: input.ruleId },
      webhookEvent: async (trx) => `automation_event.${await ruleEventName(trx, input)}`,
    },
    action,
  );

export const paramsOf = (action: AutomationAction): unknown[] => (Array.isArray(action.action_params) ? action.action_params : []);

/** Runs a handler: a refusal by the domain (validation, bad params) fails for good; anything else may be retried by Temporal. */
export async function refusalsRejected(handler: () => Promise<ActionOutcome | void>): Promise<ActionOutcome> {
  try {
    return (await handler()) ?? { status: "done" };
  } catch (err) {
    if (err instanceof ApiError) throw rejected(err.message);
    throw err;
  }
}
