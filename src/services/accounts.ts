import { NotFound } from "../errors";
import { Account } from "../models/Account";
import { diff, recordAudit, type AuditActor } from "./audit";
import { recordEvent } from "../events/outbox";

const AUDITED = ["name", "locale", "domain", "support_email", "status", "features", "settings", "custom_attributes", "limits"] as const;
const TIMER_SETTINGS = ["auto_resolve_after", "auto_resolve_ignore_waiting"] as const;

/**
 * Updates an account with its audit entry, and, when the auto-resolve settings move, the internal
 * event that makes every conversation timer of the account re-plan (shorter, longer, off or on).
 * `attributesFor` computes the new attributes from the row as locked, so merges into settings,
 * custom_attributes and features never drop a concurrent request's keys.
 */
export async function updateAccount(accountId: number, attributesFor: (account: Account) => Partial<Account>, actor: AuditActor): Promise<Account> {
  return Account.transaction(async (trx) => {
    const account = await Account.live(trx).findById(accountId).forUpdate();
    if (!account) throw NotFound();
    const attributes = attributesFor(account);
    const updated = await Account.query(trx).patchAndFetchById(account.id, attributes);
    const changes = diff(account, updated, AUDITED);
    if (Object.keys(changes).length) {
      await recordAudit(trx, actor, { accountId: account.id, auditableType: "Account", auditableId: account.id, action: "update", changes });
    }
    if (TIMER_SETTINGS.some((key) => (account.settings[key] ?? null) !== (updated.settings[key] ?? null))) {
      await recordEvent(trx, { accountId: account.id, name: "account_auto_resolve_changed", payload: { settings: updated.settings } });
    }
    return updated;
  });
}
