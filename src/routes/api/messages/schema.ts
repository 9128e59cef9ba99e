import { z } from "zod";
import { submittedValues } from "../../../schemas/message";
import { MAX_LENGTH } from "../../../http/limits";
import { id } from "../../../http/schemas";
import { MESSAGE_STATUSES } from "../../../models/Message";
import { messageResponse } from "../../../schemas/message";

export const messageParams = z.object({ account_id: id(), conversation_id: id(), id: id() });
export const conversationMessagesParams = z.object({ account_id: id(), conversation_id: id() });

export const messagesQuery = z.object({ before: id().optional(), after: id().optional() });

/** A delivery status (API inboxes), or the contact's answers to a choice (submitted_values), or both. */
export const messageStatusBody = z
  .object({
    status: z
      .string()
      .openapi({ enum: [...MESSAGE_STATUSES] })
      .optional(),
    external_error: z.string().max(MAX_LENGTH.text).nullable().optional(),
    submitted_values: submittedValues().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.status === undefined && !body.submitted_values)
      ctx.addIssue({ code: "custom", path: ["status"], message: "Invalid input: expected string, received undefined" });
  })
  .openapi("MessageStatusUpdate");

export const messageListResponse = z
  .object({
    meta: z.object({
      labels: z.array(z.string()),
      additional_attributes: z.record(z.string(), z.unknown()),
      contact: z.record(z.string(), z.unknown()).nullable(),
      assignee: z.record(z.string(), z.unknown()).optional(),
      agent_last_seen_at: z.string().nullable(),
      assignee_last_seen_at: z.string().nullable(),
    }),
    payload: z.array(messageResponse),
  })
  .openapi("MessageList");
