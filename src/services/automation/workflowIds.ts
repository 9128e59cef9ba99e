// Imported by workflow code too, so this module must stay free of I/O imports.

/** The run of one rule on one event (a child of the event's automation workflow). */
export function automationWorkflowId(eventId: number, ruleId: number): string {
  return `automation-${eventId}-${ruleId}`;
}

/** The run of all an event's rules, one after another. */
export function automationEventWorkflowId(eventId: number): string {
  return `automation-${eventId}`;
}
