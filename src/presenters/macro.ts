import type { Member } from "../models/InboxMember";
import type { Macro } from "../models/Macro";
import { presentInboxMember as presentAgent } from "./inbox";

/** app/views/api/v1/models/_macro.json.jbuilder; no `files`, as this service keeps no macro attachments. */
export function presentMacro(macro: Macro, createdBy: Member | undefined, updatedBy: Member | undefined) {
  return {
    id: macro.id,
    name: macro.name,
    visibility: macro.visibility,
    ...(createdBy ? { created_by: presentAgent(createdBy) } : {}),
    ...(updatedBy ? { updated_by: presentAgent(updatedBy) } : {}),
    account_id: Number(macro.account_id),
    actions: macro.actions,
  };
}
