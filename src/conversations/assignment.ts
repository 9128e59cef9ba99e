/* Who a conversation is with: its assignee (an agent or an agent bot) and its team. */
import type { Knex } from "knex";
import { ValidationError } from "../errors";
import { AccountUser } from "../models/AccountUser";
import { AgentBot } from "../models/AgentBot";
import type { Conversation } from "../models/Conversation";
import type { Member } from "../models/InboxMember";
import type { Team } from "../models/Team";
import { User } from "../models/User";
import type { Actor } from "./activityMessages";
import { changeConversation, type ConversationPatch } from "./changes";
import { inUnit } from "./unit";

export type Assignee = { kind: "user"; member: Member } | { kind: "agent_bot"; bot: AgentBot } | null;

/**
 * Conversations::AssignmentService: a user of the account (null unassigns), or an agent bot the
 * account may use; assigning one clears the other.
 */
export async function assignConversation(
  db: Knex,
  conversation: Conversation,
  target: { type: "User" | "AgentBot"; id: number | null },
  actor: Actor,
): Promise<Assignee> {
  let assignee: Assignee = null;
  if (target.id !== null && target.type === "User") {
    const accountUser = await AccountUser.membership(conversation.account_id, target.id);
    const user = accountUser && (await User.query(db).findById(target.id));
    if (!accountUser || !user) throw ValidationError.of("assignee", "must exist");
    assignee = { kind: "user", member: { user, accountUser } };
  } else if (target.id !== null) {
    const bot = await AgentBot.accessibleTo(conversation.account_id).findById(target.id);
    if (!bot) throw ValidationError.of("assignee", "must exist");
    assignee = { kind: "agent_bot", bot };
  }
  const patch: ConversationPatch = {
    assignee_id: assignee?.kind === "user" ? assignee.member.user.id : null,
    assignee_agent_bot_id: assignee?.kind === "agent_bot" ? assignee.bot.id : null,
  };
  await inUnit(db, (unit) => changeConversation(unit, conversation.id, patch, { actor }));
  return assignee;
}

/**
 * The assignments endpoint's and automation's team change (Conversation#update!(team:)): null
 * removes the team; the assigned agent stays only if they are a member of the new team.
 */
export async function setTeam(db: Knex, conversation: Conversation, team: Team | null, actor: Actor): Promise<Conversation> {
  return inUnit(db, (unit) => changeConversation(unit, conversation.id, { team_id: team?.id ?? null }, { actor }));
}
