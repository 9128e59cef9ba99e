import type { AppContext } from "../http/context";
import { AccessToken } from "../models/AccessToken";
import type { AgentBot } from "../models/AgentBot";
import { BOT_TYPES } from "../models/AgentBot";
import { avatarUrlOf } from "../services/avatars";

export interface AgentBotVisibility {
  /** The bot's token, given only to callers allowed to see it (its own account, or the platform app). */
  accessToken?: string;
  /** Administrators of the bot's account see the webhook signing secret. */
  showSecret?: boolean;
}

/** What every bot partial shows; a system bot's webhook stays hidden. */
function botIdentity(bot: AgentBot) {
  return {
    id: bot.id,
    name: bot.name,
    description: bot.description,
    thumbnail: avatarUrlOf(bot),
    ...(bot.systemBot ? {} : { outgoing_url: bot.outgoing_url }),
    bot_type: BOT_TYPES[bot.bot_type] ?? "webhook",
  };
}

/** app/views/api/v1/models/_agent_bot.json.jbuilder with AgentBotPresenter. */
export function presentAgentBot(bot: AgentBot, visibility: AgentBotVisibility = {}) {
  return {
    ...botIdentity(bot),
    bot_config: bot.bot_config,
    account_id: bot.account_id,
    ...(visibility.accessToken ? { access_token: visibility.accessToken } : {}),
    ...(visibility.showSecret && !bot.systemBot ? { secret: bot.secret } : {}),
    system_bot: bot.systemBot,
  };
}

/**
 * As AgentBotPresenter, for the account's own bots only, and beyond Chatwoot only for administrators:
 * the token acts as the bot in every inbox it serves, so an agent holding it could read and post in
 * inboxes they are not a member of. The secret is an administrator's only, as in Chatwoot.
 */
export async function presentAccountAgentBot(ctx: AppContext, bot: AgentBot) {
  const trusted = bot.account_id === ctx.state.account!.id && ctx.state.membership?.role === "administrator";
  return presentAgentBot(bot, {
    accessToken: trusted ? await AccessToken.tokenOf("AgentBot", bot.id) : undefined,
    showSecret: trusted,
  });
}

/** app/views/api/v1/models/_agent_bot_slim.json.jbuilder: a bot as a conversation's assignee. */
export function presentAgentBotSlim(bot: AgentBot) {
  return { ...botIdentity(bot), assignee_type: "AgentBot" };
}

/**
 * Platform API agent bot: the app that provisioned the bot always sees its token and its
 * outgoing_url, system bot or not, and never the account-facing secret.
 */
export function presentPlatformAgentBot(bot: AgentBot, accessToken: string | undefined) {
  return { ...presentAgentBot(bot, { accessToken }), outgoing_url: bot.outgoing_url };
}
