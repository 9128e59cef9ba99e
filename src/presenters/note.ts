import type { Member } from "../models/InboxMember";
import type { Note } from "../models/Note";
import { presentInboxMember as presentAgent } from "./inbox";
import { unixSeconds } from "./time";

/**
 * app/views/api/v1/models/_note.json.jbuilder. Chatwoot renders account_id and contact_id as null
 * (a typo in the partial that clients live with), so they do here too; the author is the agent
 * partial while they are still a member of the account.
 */
export function presentNote(note: Note, author: Member | undefined) {
  return {
    id: note.id,
    content: note.content,
    account_id: null,
    contact_id: null,
    ...(author ? { user: presentAgent(author) } : {}),
    created_at: unixSeconds(note.created_at),
    updated_at: unixSeconds(note.updated_at),
  };
}
