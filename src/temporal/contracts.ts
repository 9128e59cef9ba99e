// Over 300 lines on purpose: every name both sides of Temporal agree on (workflow ids, task
// queue, signals) in one place. Imported by workflow code too, so this module must stay free of
// I/O imports.
//
// Every id starts with the kind of work and the installation (the database's identity), so one
// Temporal namespace can serve several databases, and a new or restored database never meets the
// ids of another one's histories. Ids keyed by an event use its random uid, never its sequence number.

/** The queue this installation's workers poll: two databases on one namespace never run each other's work. */
export function taskQueueFor(prefix: string, installationId: string): string {
  return `${prefix}-${installationId}`;
}

/** One event sent to one target; a redelivery by an operator runs under an id of its own. */
export function webhookDeliveryWorkflowId(installationId: string, deliveryId: string, redelivery?: number): string {
  return `webhook-delivery-${installationId}-${deliveryId}${redelivery ? `-redelivery-${redelivery}` : ""}`;
}

/**
 * Delivers everything handed over for one target (an account webhook, an API inbox, an agent bot)
 * during one span of time: the lane takes batches of deliveries by signal, so a busy webhook costs a
 * signal per relay batch instead of a workflow start per event. Hand-overs after the span go to the
 * next span's lane, so a busy lane never has to continue as new while signals keep arriving (a
 * signal racing a continue-as-new makes the worker replay the whole run, and deliveries wait for it).
 * The id ends with the span's start in UTC, e.g. `…-account-webhook-7-20261123T201502Z`.
 */
export function webhookLaneWorkflowId(installationId: string, targetType: string, targetId: number, spanStart: number): string {
  const start = new Date(spanStart).toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
  return `webhook-lane-${installationId}-${targetType.replace("_", "-")}-${targetId}-${start}`;
}

/** The lane span holding `at`: spans of `spanMs` from the epoch, the same for every relay. */
export function laneSpanAt(at: number, spanMs: number): { start: number; end: number } {
  const start = Math.floor(at / spanMs) * spanMs;
  return { start, end: start + spanMs };
}

/** Hands a webhook lane the ids of deliveries to send. */
export const DELIVER_SIGNAL = "deliver";

/**
 * A signal with at most this many deliveries carries events as they happen; a larger one is a
 * backlog (a bulk change, a relay catching up). A lane sends live deliveries before any backlog left,
 * and the relay signals a bulk change's deliveries apart from the others.
 */
export const LIVE_SIGNAL_MAX = 20;

/** The run of all an event's automation rules, one after another. */
export function automationEventWorkflowId(installationId: string, eventUid: string): string {
  return `automation-${installationId}-${eventUid}`;
}

/** The run of one rule on one event (a child of the event's automation workflow). */
export function automationRuleWorkflowId(installationId: string, eventUid: string, ruleId: number): string {
  return `${automationEventWorkflowId(installationId, eventUid)}-rule-${ruleId}`;
}

/**
 * The installation's one timer sweep: it sleeps until the earliest conversation deadline
 * (conversations.timer_due_at), then auto-resolves or reopens every conversation due.
 */
export function timerSweepWorkflowId(installationId: string): string {
  return `conversation-timers-${installationId}`;
}

/**
 * The least time from the start of one sweep to the start of the next: deadlines a few milliseconds
 * apart are fired together instead of in a workflow task each, a sweep that takes longer is followed
 * at once, and no deadline waits longer than this plus one sweep.
 */
export const MIN_SWEEP_GAP_MS = 500;

/** Tells the timer sweep of a deadline (Unix milliseconds) that may come before its wake-up. */
export const WAKE_SIGNAL = "wake";

export interface TimerSweepInput {
  /** When the sweep wakes first (Unix milliseconds); null when nothing waits. */
  wakeAt: number | null;
  /** Sweeps per run before continuing as new; unset means the workflow's default (tests reach the switch sooner). */
  sweepsPerRun?: number;
}

/** Re-plans every timer of an account after its settings changed (one run per settings event). */
export function accountTimersWorkflowId(installationId: string, accountId: number, eventUid: string): string {
  return `auto-resolve-settings-${installationId}-${accountId}-${eventUid}`;
}

/** Gives an account's pending conversations timers of this installation (after an upgrade or a restore). */
export function adoptTimersWorkflowId(installationId: string, accountId: number, requestedAt: number): string {
  return `auto-resolve-adopt-${installationId}-${accountId}-${requestedAt}`;
}

/** Removes an account's data; the workflow re-checks the database, so a repeat is harmless. */
export function accountDeletionWorkflowId(installationId: string, accountId: number): string {
  return `account-deletion-${installationId}-${accountId}`;
}

/**
 * The one workflow that owns an appointment's timed life (confirmation, reminders, prepayment hold).
 * It re-reads the database whenever it wakes, so nothing it does depends on which booking held the
 * number first.
 */
export function appointmentWorkflowId(installationId: string, accountId: number, appointmentId: number): string {
  return `appointment-${installationId}-${accountId}-${appointmentId}`;
}

/** One offer of slots (or confirmation request) in a conversation, from its opening until it is answered or expires. */
export function schedulingOfferWorkflowId(installationId: string, accountId: number, offerId: number): string {
  return `scheduling-offer-${installationId}-${accountId}-${offerId}`;
}

/** Hands an offer's workflow the token of the item the contact chose. */
export const OFFER_CHOICE_SIGNAL = "choose";

export interface OfferWorkflowInput {
  accountId: number;
  offerId: number;
}

/** One pay_all run (the payout id is random). */
export function expensePayoutWorkflowId(installationId: string, accountId: number, payoutId: string): string {
  return `expense-payout-${installationId}-${accountId}-${payoutId}`;
}

/** After a scheduling settings change (one event), every upcoming appointment of the account re-plans its reminders. */
export function schedulingSettingsWorkflowId(installationId: string, accountId: number, eventUid: string): string {
  return `scheduling-settings-${installationId}-${accountId}-${eventUid}`;
}

/** Tells a conversation's timer, or an appointment's workflow, to plan again from the database. */
export const TOUCH_SIGNAL = "touch";

export interface RetrySchedule {
  initialIntervalMs: number;
  backoffCoefficient: number;
  maximumIntervalMs: number;
  /** How long retries go on before the delivery is given up as failed. */
  windowMs: number;
}

/** What one attempt needs: the delivery row holds the rest. */
export interface AttemptInput {
  deliveryId: string;
  timeoutMs: number;
}

/** A lane's round of attempts, at most `parallel` POSTs at once. */
export interface AttemptsInput {
  deliveryIds: string[];
  timeoutMs: number;
  parallel: number;
}

export interface DeliveryWorkflowInput extends AttemptInput {
  schedule: RetrySchedule;
  /** The attempt its lane already made, when that failed: the workflow goes on from there. */
  firstFailure?: AttemptFailure;
}

/** How a delivery attempt failed, as the retry loop needs it. */
export interface AttemptFailure {
  reason: string;
  /** The receiver refused for good (a 4xx other than 408/429, an unsafe URL): no retry. */
  permanent: boolean;
}

/** A delivery as the relay hands it to its lane: the row's id, and what names it in the Temporal UI. */
export interface LaneDelivery {
  id: string;
  eventName: string;
  /** The conversation's display id, for events of a conversation. */
  conversationId?: number;
}

export interface LaneInput {
  installationId: string;
  accountId: number;
  webhookId?: number;
  /** What the lane delivers to, for its details in the Temporal UI. */
  target: string;
  schedule: RetrySchedule;
  timeoutMs: number;
  /** Sends at once; beyond it deliveries wait their turn, live ones (small signals) first, then a backlog in arrival order. */
  concurrency?: number;
  /** How long a lane with nothing to send stays open before it ends (the next signal starts it again); after its span, for a lane with one. */
  idleMs?: number;
  /** The end of the lane's span (ms since the epoch). Lanes started before spans have none and continue as new instead. */
  spanEnd?: number;
  /** Carried over a continue-as-new: deliveries not yet sent, and the ids seen lately (repeats are dropped). */
  queued?: LaneDelivery[];
  recent?: string[];
}

/** Dimensions and thumbnails of a new message's images (one run per message_created event with images). */
export function attachmentAnalysisWorkflowId(installationId: string, accountId: number, eventUid: string): string {
  return `attachment-analysis-${installationId}-${accountId}-${eventUid}`;
}

/** Fetches the image of an avatar_url given to a contact or agent bot (one run per change event). */
export function avatarFetchWorkflowId(installationId: string, owner: string, ownerId: number, eventUid: string): string {
  return `avatar-fetch-${installationId}-${owner.replace("_", "-")}-${ownerId}-${eventUid}`;
}

export interface AvatarFetchInput {
  owner: "contact" | "agent_bot";
  id: number;
  url: string;
}

/** One run of a macro by a user on chosen conversations (POST macros/:id/execute). */
export function macroExecutionWorkflowId(installationId: string, executionUid: string): string {
  return `macro-execution-${installationId}-${executionUid}`;
}

export interface MacroExecutionInput {
  installationId: string;
  /** Random per request: the workflow id and every action's key carry it. */
  executionUid: string;
  accountId: number;
  macroId: number;
  /** Who ran it: activity messages name them, messages are sent as them, "self" is them. */
  userId: number;
  /** Database ids of the conversations the user may see, in display id order. */
  conversationIds: number[];
  /** Set when a run continues as new: the actions it read at its start, and the first conversations' results. */
  actions?: { action_name: string; action_params?: unknown[] }[];
  done?: ItemResult[];
}

/** Items a run works through before it continues as new, so its history stays small however many there are. */
export const ITEMS_PER_RUN = 100;

/** What a run over many items (a macro's conversations, a bulk action's records) did with one of them. */
export interface ItemResult {
  id: number;
  status: "done" | "skipped" | "failed";
  detail?: string;
  /** A macro's actions on the item, in order. */
  actions?: { action: string; status: "done" | "skipped" | "failed"; detail?: string }[];
}

/** One bulk action (POST bulk_actions) on the records it names. */
export function bulkActionWorkflowId(installationId: string, uid: string): string {
  return `bulk-action-${installationId}-${uid}`;
}

export interface BulkActionInput {
  installationId: string;
  uid: string;
  accountId: number;
  /** Who asked: activity messages name them. */
  userId: number;
  type: "Conversation" | "Contact";
  /** Database ids: conversations the user may see, or the account's contacts. */
  ids: number[];
  /** Conversations: a null status is left alone; a null assignee or team clears it. */
  fields?: { status?: "open" | "resolved" | "pending" | "snoozed" | null; assignee_id?: number | null; team_id?: number | null };
  labels?: { add?: string[]; remove?: string[] };
  /** ISO time, for conversations snoozed by the action. */
  snoozedUntil?: string | null;
  /** Contacts: "delete" removes them. */
  actionName?: "delete";
  /** Set when a run continues as new: the first items' results. */
  done?: ItemResult[];
}

/** Most items one macro execution or bulk action may name: its results travel with the run. */
export const MAX_ITEMS_PER_RUN = 1000;
/** Mails a conversation's transcript (one run per transcript request). */
export function transcriptWorkflowId(installationId: string, accountId: number, eventUid: string): string {
  return `transcript-${installationId}-${accountId}-${eventUid}`;
}

export interface TranscriptInput {
  accountId: number;
  conversationId: number;
  email: string;
  /** The request's outbox event: the mail's Message-ID, the same on every retry. */
  eventUid: string;
}

/** A one-off campaign's run: waits for its time, then messages its audience (one per campaign). */
export function campaignWorkflowId(installationId: string, accountId: number, campaignId: number): string {
  return `campaign-${installationId}-${accountId}-${campaignId}`;
}

/** Sent when a campaign changes or is deleted: its workflow reads it again. */
export const CAMPAIGN_CHANGED_SIGNAL = "campaignChanged";

export interface CampaignInput {
  accountId: number;
  campaignId: number;
  /** Contacts messaged per batch; a batch per second. */
  batchSize: number;
  /** Set when the run continued as new while sending: contacts up to this id are done. */
  afterContactId?: number;
}

/** A contact import's run (POST contacts/import): one per data import. */
export function contactImportWorkflowId(installationId: string, dataImportId: number): string {
  return `contact-import-${installationId}-${dataImportId}`;
}

/** A contact export's run (POST contacts/export): one per data export. */
export function contactExportWorkflowId(installationId: string, dataExportId: number): string {
  return `contact-export-${installationId}-${dataExportId}`;
}

export interface DataTransferInput {
  accountId: number;
  /** The data_imports or data_exports row the run works on. */
  id: number;
}

/** Rows of an import's CSV written per chunk (Chatwoot inserts in batches of 1000). */
export const IMPORT_CHUNK_ROWS = 1000;
