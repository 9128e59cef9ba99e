import { defaultPayloadConverter } from "@temporalio/common";
import { temporal } from "@temporalio/proto";
import type { Harness } from "../test/support/harness";
import type { ReceivedRequest } from "../test/support/receiver";
import { percentile } from "./stats";

const EventType = temporal.api.enums.v1.EventType;

/** When one delivery passed each step from its event's commit to its arrival (ms since the epoch). */
interface Passage {
  began?: number;
  committed?: number;
  planned?: number;
  signalled?: number;
  taskStarted?: number;
  roundScheduled?: number;
  roundStarted?: number;
  arrived?: number;
}

const STEPS: [string, keyof Passage, keyof Passage][] = [
  ["transaction began → committed", "began", "committed"],
  ["commit → relay planned it", "committed", "planned"],
  ["planned → signal recorded", "planned", "signalled"],
  ["signal → workflow task started", "signalled", "taskStarted"],
  ["task started → round scheduled", "taskStarted", "roundScheduled"],
  ["round scheduled → started", "roundScheduled", "roundStarted"],
  ["round started → POST arrived", "roundStarted", "arrived"],
  ["transaction began → POST arrived", "began", "arrived"],
];

const ms = (timestamp: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(timestamp?.seconds ?? 0) * 1000 + Math.floor((timestamp?.nanos ?? 0) / 1e6);

/**
 * Where a phase's commit-to-arrival latency goes, from the relay's rows (a delivery row is written when
 * the relay plans its event) and the lanes' Temporal histories (signal, workflow task, the round's
 * activity): p50 and p99 of each step, over the phase's deliveries, and the events its lanes wrote to
 * their histories per delivery, by type (the Temporal server's work for each).
 */
export async function printStages(
  h: Harness,
  webhookId: number,
  { began, committed }: { began: Map<number, number>; committed: Map<number, number> },
  requests: ReceivedRequest[],
  inPhase: (id: number) => boolean,
) {
  const passages = new Map<string, Passage>();
  const rows: { id: string; event: number; planned: Date }[] = await h
    .knex("webhook_deliveries as d")
    .join("events as e", "e.id", "d.event_id")
    .where("d.webhook_id", webhookId)
    .select("d.id", h.knex.raw("(e.payload->>'id')::int AS event"), "d.created_at AS planned");
  for (const row of rows)
    if (inPhase(row.event)) passages.set(row.id, { began: began.get(row.event), committed: committed.get(row.event), planned: row.planned.getTime() });
  for (const request of requests) {
    const passage = passages.get(String(request.headers["x-chatwoot-delivery"]));
    if (passage && passage.arrived === undefined) passage.arrived = request.receivedAt;
  }

  const tasks: { queued: number[]; ran: number[] } = { queued: [], ran: [] };
  // What the phase's lanes wrote to their histories, by event type: the server's work per delivery.
  const historyEvents = new Map<string, number>();
  const client = h.deps.temporal.client;
  for await (const lane of client.workflow.list({ query: `WorkflowType = 'webhookLaneWorkflow' AND WebhookId = ${webhookId}` })) {
    const history = await client.workflow.getHandle(lane.workflowId, lane.runId).fetchHistory();
    const rounds = new Map<number, string[]>();
    let waiting: Passage[] = [];
    let taskScheduled = 0;
    let taskStarted = 0;
    const laneEvents = new Map<string, number>();
    let inThisPhase = false;
    for (const event of history.events ?? []) {
      const type = EventType[event.eventType ?? 0]!.replace("EVENT_TYPE_", "").toLowerCase();
      laneEvents.set(type, (laneEvents.get(type) ?? 0) + 1);
      const at = ms(event.eventTime);
      if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) {
        const [deliveries] = (event.workflowExecutionSignaledEventAttributes?.input?.payloads ?? []).map((p) =>
          defaultPayloadConverter.fromPayload<{ id: string }[]>(p),
        );
        for (const { id } of deliveries ?? []) {
          const passage = passages.get(id);
          if (!passage) continue;
          inThisPhase = true;
          passage.signalled = at;
          waiting.push(passage);
        }
      } else if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) {
        taskScheduled = at;
      } else if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
        tasks.ran.push(at - taskStarted);
      } else if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) {
        taskStarted = at;
        tasks.queued.push(at - taskScheduled);
        for (const passage of waiting) passage.taskStarted = at;
        waiting = [];
      } else if (event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
        const [input] = (event.activityTaskScheduledEventAttributes?.input?.payloads ?? []).map((p) =>
          defaultPayloadConverter.fromPayload<{ deliveryIds: string[] }>(p),
        );
        rounds.set(Number(event.eventId), input?.deliveryIds ?? []);
        for (const id of input?.deliveryIds ?? []) {
          const passage = passages.get(id);
          if (passage) passage.roundScheduled = at;
        }
      } else if (event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
        for (const id of rounds.get(Number(event.activityTaskStartedEventAttributes?.scheduledEventId)) ?? []) {
          const passage = passages.get(id);
          if (passage) passage.roundStarted = at;
        }
      }
    }
    if (inThisPhase) for (const [type, count] of laneEvents) historyEvents.set(type, (historyEvents.get(type) ?? 0) + count);
  }

  const signalled = [...passages.values()].filter((p) => p.signalled !== undefined).length;
  const total = [...historyEvents.values()].reduce((a, b) => a + b, 0);
  const byType = [...historyEvents].sort((a, b) => b[1] - a[1]).map(([type, count]) => `${type} ${(count / signalled).toFixed(2)}`);
  console.log(`  lanes' history events a delivery: ${(total / Math.max(signalled, 1)).toFixed(1)} (${byType.join(", ")})`);
  for (const [label, spans] of [
    ["workflow task scheduled → started", tasks.queued],
    ["workflow task started → completed", tasks.ran],
  ] as const) {
    console.log(
      `  ${label.padEnd(34)} p50 ${percentile(spans, 50).toFixed(0).padStart(5)} ms, p99 ${percentile(spans, 99).toFixed(0).padStart(5)} ms (${spans.length})`,
    );
  }
  for (const [label, from, to] of STEPS) {
    const spans = [...passages.values()].flatMap((p) => (p[from] !== undefined && p[to] !== undefined ? [p[to]! - p[from]!] : []));
    console.log(
      `  ${label.padEnd(34)} p50 ${percentile(spans, 50).toFixed(0).padStart(5)} ms, p99 ${percentile(spans, 99).toFixed(0).padStart(5)} ms (${spans.length})`,
    );
  }
}
