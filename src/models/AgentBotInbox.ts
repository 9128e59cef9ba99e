import type { Knex } from "knex";
import { BaseModel } from "./BaseModel";

/** The agent bot attached to an inbox (one at most). */
export class AgentBotInbox extends BaseModel {
  static tableName = "agent_bot_inboxes";

  declare account_id: number;
  declare inbox_id: number;
  declare agent_bot_id: number;
  declare status: "active" | "inactive";

  /** Attaches the bot to the inbox, replacing any bot attached before; null detaches. */
  static async setBot(trx: Knex.Transaction, accountId: number, inboxId: number, agentBotId: number | null): Promise<void> {
    await AgentBotInbox.query(trx).delete().where("inbox_id", inboxId);
    if (agentBotId !== null) {
      await AgentBotInbox.query(trx).insert({ account_id: accountId, inbox_id: inboxId, agent_bot_id: agentBotId, status: "active" });
    }
  }

  /** Whether the bot serves an inbox of the account, which lets it act in that account (Chatwoot's EnsureCurrentAccountHelper). */
  static async servesAccount(agentBotId: number, accountId: number): Promise<boolean> {
    return Boolean(await AgentBotInbox.query().findOne({ agent_bot_id: agentBotId, account_id: accountId }));
  }
}
