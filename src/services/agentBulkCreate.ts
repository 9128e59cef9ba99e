import { ValidationError } from "../errors";
import type { Account } from "../models/Account";
import { AccountUser } from "../models/AccountUser";
import type { User } from "../models/User";
import { assertRoomForAgent, inviteAgent } from "./agents";
import type { AuditActor } from "./audit";

/** What one bulk_create did with its addresses (for logs and tests; Chatwoot answers 200 empty). */
export interface BulkInviteOutcome {
  /** Joined the account, or (a user of another account) invited to it. */
  invited: string[];
  /** Already members, or made members by a concurrent request meanwhile. */
  skipped: string[];
}

/** A unique index refusing a second membership that a concurrent request inserted first. */
const isUniqueViolation = (err: unknown) => ((err as { nativeError?: { code?: string } }).nativeError ?? (err as { code?: string })).code === "23505";

const alreadyTaken = (err: unknown) =>
  (err instanceof ValidationError && err.errors.some((e) => e.message.endsWith("has already been taken"))) || isUniqueViolation(err);

/**
 * The addresses among `emails` whose users are members of the account already, lower-cased
 * (emails arrive lower-cased from the schema, and users are matched case-insensitively).
 */
async function memberEmails(accountId: number, emails: string[]): Promise<Set<string>> {
  if (!emails.length) return new Set();
  const rows: { email: string }[] = await AccountUser.knex()("account_users")
    .join("users", "users.id", "account_users.user_id")
    .where("account_users.account_id", accountId)
    .whereRaw("lower(users.email) = any(?::text[])", [emails])
    .select("users.email");
  return new Set(rows.map((row) => row.email.toLowerCase()));
}

/**
 * Chatwoot's agents#bulk_create: each address is invited as agents#create invites one (a new
 * address becomes an unconfirmed agent named after its local part; a user of another account gets
 * an invitation), and an address already a member is passed over, as Chatwoot rescues its
 * RecordInvalid. The account's agent limit is checked first for the newcomers (Chatwoot's
 * validate_limit_for_bulk_create) and again, under the account's lock, as each one joins, so
 * concurrent requests never take the account past it.
 */
export async function bulkInviteAgents(account: Account, inviter: User, emails: string[], actor: AuditActor): Promise<BulkInviteOutcome> {
  const distinct = [...new Set(emails)];
  const members = await memberEmails(account.id, distinct);
  const newcomers = distinct.filter((email) => !members.has(email));
  if (newcomers.length) await assertRoomForAgent(AccountUser.knex(), account, newcomers.length);
  const outcome: BulkInviteOutcome = { invited: [], skipped: [...members] };
  for (const email of newcomers) {
    try {
      await inviteAgent(account, inviter, { email }, actor);
      outcome.invited.push(email);
    } catch (err) {
      // A concurrent request made them a member first: as good as done.
      if (alreadyTaken(err)) outcome.skipped.push(email);
      else throw err;
    }
  }
  return outcome;
}
