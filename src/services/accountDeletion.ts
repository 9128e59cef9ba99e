import type { Knex } from "knex";
import { startOnce } from "../temporal/client";
import { accountDeletionWorkflowId } from "../temporal/contracts";
import { AccountIdAttribute } from "../temporal/searchAttributes";
import type { AppDeps } from "../deps";
import { Account } from "../models/Account";
import { fileStorage } from "../storage";
import { accountPrefix } from "../storage/keys";

/** Rows removed per statement, so deleting a large account never holds long locks. */
export const DELETION_BATCH_SIZE = 500;

interface DeletionStep {
  name: string;
  /** Deletes at most `limit` rows of this step for the account; returns how many went. */
  deleteBatch(knex: Knex, accountId: number, limit: number): Promise<number>;
}

/** Rows of `table` owned through an `account_id` column. */
const ownedRows = (table: string): DeletionStep => ({
  name: table,
  deleteBatch: (knex, accountId, limit) => knex(table).whereIn("id", knex(table).select("id").where("account_id", accountId).limit(limit)).delete(),
});

/** Rows of `table` that point at the account's agent bots through owner/permissible columns. */
const rowsOfAccountBots = (table: string, typeColumn: string, idColumn: string): DeletionStep => ({
  name: `${table} of agent bots`,
  deleteBatch: (knex, accountId, limit) =>
    knex(table)
      .whereIn(
        "id",
        knex(table).select("id").where(typeColumn, "AgentBot").whereIn(idColumn, knex("agent_bots").select("id").where("account_id", accountId)).limit(limit),
      )
      .delete(),
});

/**
 * Everything an account owns, children before parents. A feature that adds account-owned tables
 * adds them here, so deleting an account leaves nothing behind.
 */
export const DELETION_STEPS: DeletionStep[] = [
  ownedRows("scheduling_appointment_notices"),
  ownedRows("scheduling_expenses"),
  ownedRows("scheduling_payments"),
  ownedRows("scheduling_appointments"),
  ownedRows("scheduling_service_prices"),
  ownedRows("scheduling_services"),
  ownedRows("scheduling_time_offs"),
  ownedRows("scheduling_workday_overrides"),
  ownedRows("scheduling_holidays"),
  ownedRows("scheduling_break_rules"),
  ownedRows("scheduling_work_rules"),
  ownedRows("scheduling_resources"),
  ownedRows("scheduling_settings"),
  ownedRows("webhook_deliveries"),
  ownedRows("events"),
  ownedRows("webhooks"),
  ownedRows("integrations_hooks"),
  ownedRows("attachments"),
  ownedRows("messages"),
  // conversation_drafts go with their conversations (ON DELETE CASCADE).
  ownedRows("conversation_participants"),
  ownedRows("conversations"),
  ownedRows("team_members"),
  ownedRows("teams"),
  ownedRows("notes"),
  ownedRows("contact_inboxes"),
  ownedRows("contacts"),
  ownedRows("agent_bot_inboxes"),
  ownedRows("inbox_members"),
  ownedRows("inboxes"),
  ownedRows("channel_api"),
  ownedRows("channel_web_widgets"),
  ownedRows("automation_rules"),
  ownedRows("macros"),
  ownedRows("dashboard_apps"),
  ownedRows("custom_filters"),
  ownedRows("labels"),
  ownedRows("canned_responses"),
  ownedRows("custom_attribute_definitions"),
  ownedRows("audit_logs"),
  rowsOfAccountBots("access_tokens", "owner_type", "owner_id"),
  rowsOfAccountBots("platform_app_permissibles", "permissible_type", "permissible_id"),
  ownedRows("agent_bots"),
  ownedRows("account_users"),
  // Every stored file of the account (attachments, thumbnails, avatars) lives under its prefix.
  { name: "stored files", deleteBatch: (_knex, accountId, limit) => fileStorage().deletePrefix(accountPrefix(accountId), limit) },
  // Queued by the rows' deletion above; the prefix has already taken their files.
  ownedRows("file_deletions"),
];

/**
 * Hides the account at once (the API answers as if it were gone) and hands the removal of its
 * data to a workflow. The mark is committed before the workflow starts, so a crash in between
 * leaves a marked account that resumeAccountDeletions picks up.
 */
export async function requestAccountDeletion(deps: AppDeps, account: Account): Promise<void> {
  if (!account.deletion_requested_at) {
    await Account.query().patch({ deletion_requested_at: new Date() }).where("id", account.id);
  }
  await startAccountDeletion(deps, account.id);
}

async function startAccountDeletion(deps: AppDeps, accountId: number): Promise<void> {
  await startOnce(deps, "accountDeletionWorkflow", {
    workflowId: accountDeletionWorkflowId(deps.temporal.installationId, accountId),
    // The run re-checks that the account is marked before removing anything, so any run of it is this work.
    work: `deletion of account ${accountId}`,
    args: [accountId],
    typedSearchAttributes: [{ key: AccountIdAttribute, value: accountId }],
    staticSummary: `Delete account ${accountId} and all its data`,
  });
}

/** Restarts removal for accounts marked for deletion whose workflow never started (run by the worker at start). */
export async function resumeAccountDeletions(deps: AppDeps): Promise<number> {
  const pending = await Account.query().whereNotNull("deletion_requested_at").select("id");
  for (const { id } of pending) await startAccountDeletion(deps, id);
  return pending.length;
}

/** Deletes the next batch of the account's rows; `done` once nothing but the account row is left. */
export async function deleteAccountBatch(knex: Knex, accountId: number): Promise<{ done: boolean; step?: string; deleted: number }> {
  const account = await knex("accounts").where("id", accountId).first("deletion_requested_at");
  // Never remove data of an account nobody asked to delete, whatever a stray workflow says.
  if (!account?.deletion_requested_at) return { done: true, deleted: 0 };
  for (const step of DELETION_STEPS) {
    const deleted = await step.deleteBatch(knex, accountId, DELETION_BATCH_SIZE);
    if (deleted > 0) return { done: false, step: step.name, deleted };
  }
  return { done: true, deleted: 0 };
}

/** Removes the account row itself and the platform apps' claims on it. */
export async function deleteAccountRow(knex: Knex, accountId: number): Promise<void> {
  await knex.transaction(async (trx) => {
    const deleted = await trx("accounts").where("id", accountId).whereNotNull("deletion_requested_at").delete();
    if (deleted) await trx("platform_app_permissibles").where({ permissible_type: "Account", permissible_id: accountId }).delete();
  });
}
