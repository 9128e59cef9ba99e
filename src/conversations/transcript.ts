import type { Knex } from "knex";
import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { AppDeps } from "../deps";
import { ApiError } from "../errors";
import { type EventConsumer, type EventRow, recordEvent } from "../events/outbox";
import { DISPATCH_CONCURRENCY, inParallel } from "../lib/inParallel";
import { sendMail } from "../mail/transport";
import { Conversation } from "../models/Conversation";
import { Inbox } from "../models/Inbox";
import { Message } from "../models/Message";
import type { MessageSender } from "../presenters/message";
import { startOnce } from "../temporal/client";
import { type TranscriptInput, transcriptWorkflowId } from "../temporal/contracts";
import { AccountIdAttribute } from "../temporal/searchAttributes";
import { loadSenders } from "./messageSenders";

const MailNotConfigured = () => new ApiError(422, { error: "Email delivery is not configured (SMTP_ADDRESS)" });

/**
 * Chatwoot's conversations#transcript: the request is recorded in the outbox with nothing else, and
 * the relay starts the workflow that mails it; a relay or worker down meanwhile only delays it.
 */
export async function requestTranscript(deps: AppDeps, conversation: Conversation, email: string): Promise<void> {
  if (!deps.settings.mail) throw MailNotConfigured();
  await deps.knex.transaction((trx) =>
    recordEvent(trx, {
      accountId: conversation.account_id,
      name: "transcript_requested",
      inboxId: conversation.inbox_id,
      conversationId: conversation.id,
      payload: { conversation_id: conversation.id, email },
    }),
  );
}

export function transcriptConsumer(): EventConsumer {
  return {
    async dispatch(deps: AppDeps, events: EventRow[]) {
      await inParallel(
        events.filter((event) => event.name === "transcript_requested"),
        DISPATCH_CONCURRENCY,
        async (event) => {
          const input: TranscriptInput = {
            accountId: event.account_id,
            conversationId: Number(event.payload.conversation_id),
            email: String(event.payload.email),
            eventUid: event.uid,
          };
          await startOnce(deps, "transcriptWorkflow", {
            workflowId: transcriptWorkflowId(deps.temporal.installationId, event.account_id, event.uid),
            work: `transcript of conversation ${input.conversationId} after event ${event.uid}`,
            args: [input],
            workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
            typedSearchAttributes: [{ key: AccountIdAttribute, value: event.account_id }],
            staticSummary: `Mail the transcript of conversation ${input.conversationId}`,
          });
        },
      );
    },
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function senderName(sender: MessageSender | null | undefined): string {
  if (!sender) return "Bot";
  if (sender.type === "Contact") return sender.contact.name || "Customer";
  if (sender.type === "User") return sender.user.availableName;
  return sender.bot.name ?? "Bot";
}

export interface Transcript {
  subject: string;
  text: string;
  html: string;
}

/**
 * The conversation as Chatwoot's conversation_transcript mail shows it: its chat messages (no private
 * notes, no activity), oldest first, each with who wrote it and when. Read when the mail is sent.
 */
export async function buildTranscript(db: Knex, accountId: number, conversationId: number): Promise<Transcript | undefined> {
  const conversation = await Conversation.query(db).findOne({ account_id: accountId, id: conversationId });
  if (!conversation) return undefined;
  const inbox = await Inbox.query(db).findById(conversation.inbox_id);
  const messages = await Message.query(db)
    .where({ conversation_id: conversation.id, private: false })
    .whereIn("message_type", [0, 1])
    .orderBy(["created_at", "id"]);
  const senders = await loadSenders(db, accountId, messages);
  const lines = messages.map((m) => ({
    who: senderName(senders.get(m.id)),
    when: m.created_at.toISOString().replace("T", " ").slice(0, 16) + " UTC",
    content: m.content ?? "",
  }));
  const subject = `[#${conversation.display_id}] Conversation Transcript`;
  const heading = `Conversation #${conversation.display_id}${inbox ? ` in ${inbox.name}` : ""}`;
  const text = [heading, "", ...lines.map((l) => `${l.who} (${l.when}):\n${l.content}\n`)].join("\n");
  const html = `<h2>${escapeHtml(heading)}</h2>${lines
    .map((l) => `<p><strong>${escapeHtml(l.who)}</strong> <small>${escapeHtml(l.when)}</small><br>${escapeHtml(l.content).replace(/\n/g, "<br>")}</p>`)
    .join("")}`;
  return { subject, text, html };
}

/** The transcript activity: a conversation deleted meanwhile sends nothing. */
export async function sendTranscript(deps: AppDeps, input: TranscriptInput): Promise<{ sent: boolean }> {
  const mail = deps.settings.mail;
  if (!mail) throw new Error("SMTP_ADDRESS is not set on the worker");
  const transcript = await buildTranscript(deps.knex, input.accountId, input.conversationId);
  if (!transcript) return { sent: false };
  const host = mail.helo ?? "convo-sched.local";
  await sendMail(mail, { to: input.email, ...transcript, messageId: `<transcript-${input.eventUid}@${host}>` });
  return { sent: true };
}
