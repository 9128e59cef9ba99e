import { BaseModel } from "./BaseModel";
import type { Role } from "./AccountUser";

/** A pending invitation of an existing user to an account; accepted by the user, it becomes their membership. */
export class AgentInvitation extends BaseModel {
  static tableName = "agent_invitations";

  declare account_id: number;
  declare user_id: number;
  declare inviter_id: number | null;
  declare role: Role;
  declare availability: string | null;
  declare auto_offline: boolean | null;
}
