import type { AgentBot } from "../models/AgentBot";
import type { AuditLog } from "../models/AuditLog";
import type { Team } from "../models/Team";
import type { User } from "../models/User";
import { unixSeconds } from "./time";
import { avatarUrlOf } from "../services/avatars";

/** The audited record's push_event_data, for the record types that have one and still exist. */
export type Auditable = { kind: "User"; user: User } | { kind: "AgentBot"; bot: AgentBot } | { kind: "Team"; team: Team };

function pushEventData(auditable: Auditable | undefined) {
  if (!auditable) return null;
  if (auditable.kind === "Team") return auditable.team.pushEventData();
  if (auditable.kind === "AgentBot") {
    return { id: auditable.bot.id, name: auditable.bot.name, avatar_url: avatarUrlOf(auditable.bot), type: "agent_bot" };
  }
  const { user } = auditable;
  return { id: user.id, name: user.name, available_name: user.availableName, avatar_url: avatarUrlOf(user), type: "user", thumbnail: avatarUrlOf(user) };
}

/** enterprise/app/views/api/v1/accounts/audit_logs/show.json.jbuilder, one entry. */
export function presentAuditLog(entry: AuditLog, auditable?: Auditable) {
  return {
    id: entry.id,
    auditable_id: entry.auditable_id,
    auditable_type: entry.auditable_type,
    auditable: pushEventData(auditable),
    associated_id: entry.associated_id,
    associated_type: entry.associated_type,
    user_id: entry.user_id,
    user_type: entry.user_type,
    username: entry.username,
    action: entry.action,
    audited_changes: entry.audited_changes,
    version: entry.version,
    comment: entry.comment,
    request_uuid: entry.request_uuid,
    created_at: unixSeconds(entry.created_at),
    remote_address: entry.remote_address,
  };
}
