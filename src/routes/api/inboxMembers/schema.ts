import { z } from "zod";
import { id, idList } from "../../../http/schemas";

export const inboxMembersParams = z.object({ account_id: id(), inbox_id: id() });

/** inbox_id comes as a number or, as Chatwoot documents it, a numeric string. */
export const inboxMembersBody = z.object({ inbox_id: id(), user_ids: idList() }).openapi("InboxMembersRequest");
