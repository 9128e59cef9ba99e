import { randomUUID } from "node:crypto";
import { ApplicationFailure } from "@temporalio/common";
import { WorkflowIdReusePolicy } from "@temporalio/client";
import type { Knex } from "knex";
import type { AppDeps } from "../deps";
import { ApiError } from "../errors";
import { recordEvent } from "../events/outbox";
import { Account } from "../models/Account";
import { Contact } from "../models/Contact";
import { Conversation } from "../models/Conversation";
import { Team } from "../models/Team";
import { User } from "../models/User";
import { contactWebhookData } from "../presenters/contact";
import type { Actor } from "../conversations/activityMessages";
import { assignConversation, setTeam } from "../conversations/assignment";
import { setLabels } from "../conversations/attributes";
import { toggleStatus } from "../conversations/status";
import { startOnce } from "../temporal/client";
import { type BulkActionInput, bulkActionWorkflowId, type ItemResult } from "../temporal/contracts";
import { AccountIdAttribute } from "../temporal/searchAttributes";
import { purgeDeletedFilesQuietly } from "./attachments";

/** The failure type of an item the domain refuses (an assignee who is not an agent): retrying cannot help. */
export const BULK_ITEM_REJECTED = "BulkActionItemRejected";

/** Starts the bulk action as a workflow: one per request, as Chatwoot queues a job per request. */
export async function startBulkAction(deps: AppDeps, input: Omit<BulkActionInput, "installationId" | "uid">): Promise<string> {
  const uid = randomUUID();
  const workflowId = bulkActionWorkflowId(deps.temporal.installationId, uid);
  await startOnce(deps, "bulkActionWorkflow", {
    workflowId,
    work: `bulk action ${uid}`,
    args: [{ ...input, installationId: deps.temporal.installationId, uid } satisfies BulkActionInput],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [{ key: AccountIdAttribute, value: input.accountId }],
    staticSummary: `Bulk action on ${input.ids.length} ${input.type.toLowerCase()}(s) by user ${input.userId}`,
  });
  return workflowId;
}

async function actorOf(db: Knex, userId: number): Promise<Actor> {
  const user = await User.query(db).findById(userId);
  return user ? { kind: "user", user } : null;
}

/** A domain refusal fails the item for good; anything else is retried (every step compares with what is stored, so a retry repeats nothing). */
async function asItem(id: number, work: () => Promise<ItemResult | void>): Promise<ItemResult> {
  try {
    return (await work()) ?? { id, status: "done" };
  } catch (err) {
    if (err instanceof ApiError) throw ApplicationFailure.nonRetryable(err.message, BULK_ITEM_REJECTED);
    throw err;
  }
}

/**
 * BulkActionsJob on one conversation, as the user: labels removed and added, then status (with
 * snoozed_until), assignee and team. Each change is the domain's, with its events and activity messages.
 */
export function runBulkConversationItem(db: Knex, input: BulkActionInput, conversationId: number): Promise<ItemResult> {
  return asItem(conversationId, async () => {
    const conversation = await Conversation.query(db).findOne({ id: conversationId, account_id: input.accountId });
    if (!conversation) return { id: conversationId, status: "skipped", detail: "conversation no longer exists" };
    const actor = await actorOf(db, input.userId);
    const { add = [], remove = [] } = input.labels ?? {};
    if (add.length || remove.length) await setLabels(db, conversation, [...conversation.labels.filter((label) => !remove.includes(label)), ...add], actor);
    const fields = input.fields ?? {};
    if (fields.status) {
      const snoozedUntil = input.snoozedUntil ? new Date(input.snoozedUntil) : undefined;
      await toggleStatus(db, conversation, { status: fields.status, ...(snoozedUntil ? { snoozedUntil } : {}) }, actor);
    }
    if (fields.assignee_id !== undefined) await assignConversation(db, conversation, { type: "User", id: fields.assignee_id }, actor);
    if (fields.team_id !== undefined) {
      const team = fields.team_id === null ? null : await Team.findInAccount(input.accountId, fields.team_id, db);
      if (team === undefined) return { id: conversationId, status: "failed", detail: `team ${fields.team_id} is not a team of the account` };
      await setTeam(db, conversation, team, actor);
    }
  });
}

/** Contacts::BulkActionService on one contact: deleted with its conversations, or given the labels. */
export function runBulkContactItem(db: Knex, input: BulkActionInput, contactId: number): Promise<ItemResult> {
  return asItem(contactId, async () => {
    if (input.actionName === "delete") {
      const deleted = await db.transaction(async (trx) => {
        const contact = await Contact.query(trx).findOne({ id: contactId, account_id: input.accountId }).forUpdate();
        if (contact) await contact.destroyWithDependents(trx);
        return Boolean(contact);
      });
      if (!deleted) return { id: contactId, status: "skipped", detail: "contact no longer exists" };
      await purgeDeletedFilesQuietly(db, input.accountId);
      return;
    }
    const add = input.labels?.add ?? [];
    const outcome = await db.transaction(async (trx) => {
      const contact = await Contact.query(trx).findOne({ id: contactId, account_id: input.accountId }).forUpdate();
      if (!contact) return "missing";
      const labels = [...new Set([...contact.labels, ...add.map((label) => label.trim()).filter(Boolean)])];
      if (labels.length === contact.labels.length) return "unchanged";
      const updated = await Contact.query(trx).patchAndFetchById(contactId, { labels } as Partial<Contact>);
      const account = await Account.query(trx).findById(input.accountId).throwIfNotFound();
      // Chatwoot saves the contact with its new tag list, which raises contact_updated.
      await recordEvent(trx, {
        accountId: input.accountId,
        name: "contact_updated",
        payload: {
          ...contactWebhookData(updated, account),
          event: "contact_updated",
          changed_attributes: [{ labels: { previous_value: contact.labels, current_value: labels } }],
        },
      });
      return "done";
    });
    if (outcome === "missing") return { id: contactId, status: "skipped", detail: "contact no longer exists" };
    if (outcome === "unchanged") return { id: contactId, status: "skipped", detail: "already has the labels" };
  });
}
