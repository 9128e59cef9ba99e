import type { Knex } from "knex";
import type { AppContext } from "../http/context";
import type { AgentBot } from "../models/AgentBot";
import { auditActor, auditChange } from "./audit";

/** Everything but the secret, as Chatwoot's Enterprise::Audit::AgentBot. */
const AUDITED = ["name", "description", "outgoing_url", "avatar_url", "bot_type", "bot_config", "account_id"] as const;

/**
 * Audits a bot's create (no before), update or destroy (no after) in the account it belongs to;
 * system bots belong to no account, so no account's log shows them.
 */
export async function auditAgentBot(ctx: AppContext, trx: Knex, before: AgentBot | undefined, after: AgentBot | undefined): Promise<void> {
  const accountId = after?.account_id ?? before?.account_id;
  if (!accountId) return;
  await auditChange(trx, auditActor(ctx), { accountId, auditableType: "AgentBot", keys: AUDITED, before, after });
}
