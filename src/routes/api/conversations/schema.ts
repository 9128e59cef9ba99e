import { z } from "zod";
import { idOrAbsent, id, jsonObject, oneOf, optionalId, optionalOneOf, page, railsBoolean } from "../../../http/schemas";
import { CONVERSATION_STATUSES, PRIORITIES } from "../../../models/Conversation";
import { ASSIGNEE_TYPES, CONVERSATION_TYPES } from "../../../conversations/list";
import { SORT_OPTIONS } from "../../../conversations/listOrder";
import { messageBody, messageResponse } from "../../../schemas/message";
import { teamResponse } from "../../../schemas/team";
import { timeInput } from "../../../schemas/time";

/** `labels[]=a&labels[]=b`, `labels=a&labels=b` or `labels=a,b`. */
const labelList = z.preprocess((value) => (typeof value === "string" ? value.split(",") : value), z.array(z.string().trim().min(1)));

export const conversationListQuery = z.object({
  // Unknown values of these fall back to the default, as ConversationFinder ignores them.
  status: oneOf([...CONVERSATION_STATUSES, "all"], "open"),
  assignee_type: oneOf(ASSIGNEE_TYPES, "all"),
  inbox_id: idOrAbsent().optional(),
  team_id: idOrAbsent().optional(),
  labels: labelList.optional(),
  page: page(),
  /** Conversations with an incoming or outgoing message containing q, whatever their status. */
  q: z.string().max(1000).optional(),
  sort_by: oneOf(SORT_OPTIONS, "last_activity_at_desc"),
  source_id: z.string().max(255).optional(),
  conversation_type: optionalOneOf(CONVERSATION_TYPES),
  /** Seconds: every conversation updated that recently, unpaginated. */
  updated_within: z
    .string()
    .regex(/^\d{1,9}$/, { error: "must be a whole number of seconds" })
    .transform(Number)
    .optional(),
});

export const conversationCreate = z
  .object({
    source_id: z.string().trim().min(1).max(255).optional(),
    inbox_id: id().optional(),
    contact_id: id().optional(),
    additional_attributes: jsonObject().optional(),
    custom_attributes: jsonObject().optional(),
    status: z.enum(CONVERSATION_STATUSES).optional(),
    assignee_id: optionalId().optional(),
    team_id: optionalId().optional(),
    snoozed_until: timeInput.optional(),
    message: messageBody.omit({ attachments: true }).optional(),
  })
  .openapi("ConversationCreate");

export const conversationUpdate = z.object({ priority: z.enum(PRIORITIES).nullable().optional() }).openapi("ConversationUpdate");

export const toggleStatusBody = z
  .object({ status: z.enum(CONVERSATION_STATUSES).optional(), snoozed_until: timeInput.optional() })
  .openapi("ConversationToggleStatus");

/** An empty priority clears it, as Chatwoot's `priority.presence`. */
export const togglePriorityBody = z
  // Conversation#toggle_priority assigns `priority.presence`: blank or absent clears it.
  .object({
    priority: z
      .union([z.enum(PRIORITIES), z.literal("").transform(() => null), z.null()])
      .optional()
      .transform((p) => p ?? null),
  })
  .openapi("ConversationTogglePriority");

export const typingBody = z.object({ typing_status: z.enum(["on", "off", "recording"]), is_private: railsBoolean().optional() }).openapi("ConversationTyping");

export const assignmentBody = z
  .object({
    assignee_id: optionalId().optional(),
    assignee_type: z.enum(["User", "AgentBot"]).optional(),
    // Beside assignee_id it is ignored, as Chatwoot's assignments#create does; alone, 0 or "" unassigns.
    team_id: optionalId().optional(),
  })
  .openapi("ConversationAssignment");

export const labelsBody = z
  .object({
    labels: z.union([
      z.array(z.string().max(255)),
      z
        .string()
        .max(255)
        .transform((label) => [label]),
    ]),
  })
  .openapi("ConversationLabels");

export const customAttributesBody = z
  .object({
    custom_attributes: jsonObject(),
    merge: railsBoolean().optional(),
  })
  .openapi("ConversationCustomAttributes");

const counts = z.object({ mine_count: z.number(), assigned_count: z.number(), unassigned_count: z.number(), all_count: z.number() });

const contactSummary = z.record(z.string(), z.unknown());

export const conversationResponse = z
  .object({
    meta: z.object({
      sender: contactSummary.nullable(),
      channel: z.string(),
      assignee: z.record(z.string(), z.unknown()).optional(),
      team: teamResponse.optional(),
      hmac_verified: z.boolean().nullable(),
    }),
    id: z.number(),
    messages: z.array(messageResponse),
    account_id: z.number(),
    uuid: z.string(),
    additional_attributes: z.record(z.string(), z.unknown()),
    agent_last_seen_at: z.number(),
    assignee_last_seen_at: z.number(),
    can_reply: z.boolean(),
    contact_last_seen_at: z.number(),
    custom_attributes: z.record(z.string(), z.unknown()),
    inbox_id: z.number(),
    labels: z.array(z.string()),
    muted: z.boolean(),
    snoozed_until: z.string().nullable(),
    status: z.enum(CONVERSATION_STATUSES),
    created_at: z.number(),
    updated_at: z.number(),
    timestamp: z.number(),
    first_reply_created_at: z.number(),
    unread_count: z.number(),
    last_non_activity_message: messageResponse.nullable(),
    last_activity_at: z.number(),
    priority: z.enum(PRIORITIES).nullable(),
    waiting_since: z.number(),
    sla_policy_id: z.number().nullable(),
  })
  .openapi("Conversation");

export const conversationListResponse = z.object({ data: z.object({ meta: counts, payload: z.array(conversationResponse) }) }).openapi("ConversationList");
/** Chatwoot's filter.json.jbuilder: no `data` wrapper and no assigned_count. */
export const conversationFilterResponse = z
  .object({
    meta: z.object({ mine_count: z.number(), unassigned_count: z.number(), all_count: z.number() }),
    payload: z.array(conversationResponse),
  })
  .openapi("ConversationFilterResult");
export const conversationMetaResponse = z.object({ meta: counts }).openapi("ConversationMeta");
export const conversationsPayload = z.object({ payload: z.array(conversationResponse) }).openapi("ConversationsPayload");

export const toggleStatusResponse = z
  .object({
    meta: z.object({}),
    payload: z.object({
      success: z.boolean().nullable(),
      conversation_id: z.number(),
      current_status: z.enum(CONVERSATION_STATUSES),
      snoozed_until: z.string().nullable(),
    }),
  })
  .openapi("ConversationToggleStatusResult");

export const labelsResponse = z.object({ payload: z.array(z.string()) }).openapi("ConversationLabelList");
export const customAttributesResponse = z.object({ custom_attributes: z.record(z.string(), z.unknown()) }).openapi("ConversationCustomAttributesResult");

export const unreadCountsResponse = z
  .object({
    by_inbox: z.record(z.string(), z.number()),
    by_label: z.record(z.string(), z.number()),
    by_status: z.object({ all: z.number(), mine: z.number(), unassigned: z.number() }),
    total: z.number(),
  })
  .openapi("ConversationUnreadCounts");
