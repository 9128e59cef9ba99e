import type { Knex } from "knex";
import { secureToken } from "../lib/tokens";
import { AccessToken } from "./AccessToken";
import { BaseModel } from "./BaseModel";

export const BOT_TYPES = ["webhook"] as const;

/** A bot that receives conversation traffic on outgoing_url; account_id null means a system bot. */
export class AgentBot extends BaseModel {
  static tableName = "agent_bots";
  static jsonAttributes = ["bot_config"];

  declare name: string | null;
  declare description: string | null;
  declare outgoing_url: string | null;
  declare avatar_url: string | null;
  /** The stored avatar image (an uploaded file or the fetched avatar_url), when there is one. */
  declare avatar_key: string | null;
  /** The avatar_url last fetched (successfully or not). */
  declare avatar_fetched_url: string | null;
  declare bot_type: number;
  declare bot_config: Record<string, unknown>;
  declare account_id: number | null;
  declare secret: string;

  get systemBot(): boolean {
    return this.account_id === null;
  }

  /** Chatwoot's AgentBot.accessible_to(account): the account's own bots and the system bots. */
  static accessibleTo(accountId: number) {
    return AgentBot.query()
      .where((q) => q.where("account_id", accountId).orWhereNull("account_id"))
      .orderBy("id");
  }

  /** A new bot with its signing secret and its own api_access_token. */
  static async createWithToken(attributes: Partial<AgentBot>, trx?: Knex): Promise<{ bot: AgentBot; token: string }> {
    const create = async (t: Knex) => {
      const bot = await AgentBot.query(t)
        .insert({ ...attributes, secret: secureToken() })
        .returning("*");
      const accessToken = await AccessToken.issue("AgentBot", bot.id, t);
      return { bot, token: accessToken.token };
    };
    return trx ? create(trx) : AgentBot.transaction(create);
  }

  async resetSecret(): Promise<AgentBot> {
    return AgentBot.query().patchAndFetchById(this.id, { secret: secureToken() });
  }

  /** Removes the bot and its token together (inside the caller's transaction when given one). */
  async destroy(trx?: Knex): Promise<void> {
    const remove = async (t: Knex) => {
      await AccessToken.query(t).delete().where({ owner_type: "AgentBot", owner_id: this.id });
      await t("platform_app_permissibles").delete().where({ permissible_type: "AgentBot", permissible_id: this.id });
      await AgentBot.query(t).deleteById(this.id);
    };
    await (trx ? remove(trx) : AgentBot.transaction(remove));
  }
}
