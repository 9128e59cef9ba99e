import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { AppDeps } from "../../deps";
import { APPOINTMENT_RULE_EVENTS, type AppointmentRuleEvent, type AutomationRule, isAppointmentRuleEvent } from "../../models/AutomationRule";
import { isIn, type Sql, sql } from "../../db/sql";
import { Batch } from "../../db/batch";
import { startOnce } from "../../temporal/client";
import { DISPATCH_CONCURRENCY, inParallel } from "../../lib/inParallel";
import { BatchReads, statusTransitionEventOf, type EventConsumer, type EventRow } from "../../events/outbox";
import { automationEventWorkflowId } from "../../temporal/contracts";
import { automationSearchAttributes, automationSubject } from "./subject";

/** The events AutomationRuleListener handles, and a booking's (our extension). */
export type AutomationEventName =
  "conversation_created" | "conversation_updated" | "message_created" | "conversation_opened" | "conversation_resolved" | AppointmentRuleEvent;

export interface AutomationWorkflowInput {
  accountId: number;
  ruleId: number;
  /** The installation whose database the rule and event live in; the child workflows' ids carry it. */
  installationId: string;
  eventId: number;
  /** The event's random uid: workflow ids and action keys use it, never the reusable number. */
  eventUid: string;
  eventName: AutomationEventName;
  /** Database id; null for an appointment event (its actions find the booking's conversation then). */
  conversationId: number | null;
  displayId: number | null;
  /** The booking of an appointment_* event; absent for a conversation's. */
  appointmentId?: number;
  /** The message of a message_created event: its conditions look at that message only. */
  messageId: number | null;
  /** `{attribute: [before, after]}` of a conversation_updated or appointment_updated event, for attribute_changed. */
  changedAttributes: Record<string, [unknown, unknown]>;
}

const APPOINTMENT_EVENT_OF_RULE_EVENT = new Map(
  Object.entries(APPOINTMENT_RULE_EVENTS).map(([rule, outbox]) => [outbox as string, rule as AppointmentRuleEvent]),
);

/**
 * The rule event an outbox event raises, or null when automation ignores it. As Chatwoot's listener,
 * events caused by a rule's own action raise none (no rule can loop on itself or another), and
 * neither do auto-reply conversations being created or opened.
 */
export function automationEventOf(event: EventRow): AutomationEventName | null {
  if (event.performed_by_rule_id != null) return null;
  const onAppointment = APPOINTMENT_EVENT_OF_RULE_EVENT.get(event.name);
  if (onAppointment) return onAppointment;
  if (!event.conversation_id) return null;
  const name =
    event.name === "conversation_status_changed"
      ? statusTransitionEventOf(event.payload.status)
      : ((["conversation_created", "conversation_updated", "message_created"] as const).find((known) => known === event.name) ?? null);
  const additional = event.payload.additional_attributes as Record<string, unknown> | undefined;
  if ((name === "conversation_created" || name === "conversation_opened") && additional?.auto_reply) return null;
  return name;
}

/** Webhook-shaped changed_attributes (`[{key: {previous_value, current_value}}]`) back as Chatwoot's previous_changes. */
function changesOf(event: EventRow): Record<string, [unknown, unknown]> {
  const changed = Array.isArray(event.payload.changed_attributes)
    ? (event.payload.changed_attributes as Record<string, { previous_value: unknown; current_value: unknown }>[])
    : [];
  return Object.fromEntries(
    changed.flatMap((entry) => Object.entries(entry).map(([key, { previous_value, current_value }]) => [key, [previous_value, current_value]])),
  );
}

/**
 * One event's automation: its matching rules' ids, oldest first, each run after the one before. Ids
 * only: whatever a rule holds is read by its activities, so an account's rules cannot grow the
 * workflow's input past Temporal's payload limit.
 */
export interface AutomationEventInput extends Omit<AutomationWorkflowInput, "ruleId"> {
  ruleIds: number[];
}

async function startAutomationEventWorkflow(deps: AppDeps, input: AutomationEventInput): Promise<void> {
  await startOnce(deps, "automationEventWorkflow", {
    workflowId: automationEventWorkflowId(input.installationId, input.eventUid),
    work: `automation of event ${input.eventUid}`,
    args: [input],
    // A relay retry after the run finished must not run the actions again.
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: automationSearchAttributes(input),
    staticSummary: `Automation on ${input.eventName} of ${automationSubject(input)} (event ${input.eventId}): ${input.ruleIds.map((id) => `rule ${id}`).join(", ")}`,
  });
}

type AutomationRuleRow = Pick<AutomationRule, "id" | "account_id" | "event_name">;

/** The batch's events that raise a rule event, with its name. */
function triggeredBy(events: EventRow[]): { event: EventRow; name: AutomationEventName }[] {
  return events.flatMap((event) => {
    const name = automationEventOf(event);
    return name ? [{ event, name }] : [];
  });
}

/** The active rules of the triggering events' accounts and rule events: a prepared statement, as every batch reads them. */
function rulesSql(triggered: { event: EventRow; name: AutomationEventName }[]): Sql {
  return sql`select id, account_id, event_name from automation_rules where active and ${isIn("account_id", [
    ...new Set(triggered.map((t) => t.event.account_id)),
  ])} and ${isIn("event_name", [...new Set(triggered.map((t) => t.name))])} order by id`;
}

/**
 * Runs the active rules of the event's account whose event_name it raises: one workflow per event
 * (a relay retry is absorbed by its deterministic id) that runs the rules one after another, as
 * Chatwoot's listener does, so a rule's conditions see what the rules before it changed.
 */
export function automationConsumer(): EventConsumer {
  const rulesRead = new BatchReads<AutomationRuleRow[]>();
  return {
    read(batch, events) {
      const triggered = triggeredBy(events);
      if (triggered.length) rulesRead.keep(events, batch.rows(rulesSql(triggered)));
    },
    async dispatch(deps, events: EventRow[]) {
      const triggered = triggeredBy(events);
      if (!triggered.length) return;
      const rules = await rulesRead.of(events, () => Batch.rowsOf(deps.knex, rulesSql(triggered)));
      const runs = triggered
        .map((t) => ({ ...t, rules: rules.filter((rule) => rule.account_id === t.event.account_id && rule.event_name === t.name) }))
        .filter((run) => run.rules.length);
      if (!runs.length) return;
      const conversationIds = [...new Set(runs.flatMap((run) => (run.event.conversation_id ? [run.event.conversation_id] : [])))];
      const conversations: { id: number; display_id: number }[] = conversationIds.length
        ? await deps.knex("conversations").whereIn("id", conversationIds).select("id", "display_id")
        : [];
      const displayIds = new Map(conversations.map((c) => [c.id, c.display_id]));
      await inParallel(runs, DISPATCH_CONCURRENCY, async ({ event, name, rules: matching }) => {
        const common = {
          accountId: event.account_id,
          ruleIds: matching.map((rule) => rule.id),
          installationId: deps.temporal.installationId,
          eventId: Number(event.id),
          eventUid: event.uid,
          eventName: name,
        };
        let input: AutomationEventInput;
        if (isAppointmentRuleEvent(name)) {
          // The booking is read again when the rule runs: a deleted one is skipped there.
          const changedAttributes = name === "appointment_updated" ? changesOf(event) : {};
          input = { ...common, conversationId: null, displayId: null, appointmentId: Number(event.payload.id), messageId: null, changedAttributes };
        } else {
          const displayId = displayIds.get(event.conversation_id!);
          // The conversation is gone (account deletion): nothing left to act on.
          if (displayId === undefined) return;
          input = {
            ...common,
            conversationId: Number(event.conversation_id),
            displayId,
            messageId: name === "message_created" ? Number(event.payload.id) : null,
            changedAttributes: name === "conversation_updated" ? changesOf(event) : {},
          };
        }
        await startAutomationEventWorkflow(deps, input);
      });
    },
  };
}
