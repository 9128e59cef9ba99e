import type { Knex } from "knex";
import { sql } from "../db/sql";
import { Batch } from "../db/batch";

/**
 * RoomChannel, the one channel Chatwoot's clients subscribe to (docs/realtime.md):
 * an agent names their user's pubsub_token, account_id and user_id; a widget visitor names their
 * contact inbox's pubsub_token alone. Anything else is rejected.
 */
export const ROOM_CHANNEL = "RoomChannel";

export type Subscriber =
  | { kind: "user"; token: string; accountId: number; userId: number }
  | { kind: "contact"; token: string; accountId: number; contactId: number; inboxId: number };

/** Rails' lenient id: an integer or its digits in a string. */
function idOf(value: unknown): number | null {
  const id = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 ? id : null;
}

const isBlank = (value: unknown) => value === undefined || value === null || value === "";

/** Who the identifier's parameters name, or null when they name nobody (a wrong, foreign or missing token). */
export async function authorizeRoom(db: Knex, params: Record<string, unknown>): Promise<Subscriber | null> {
  if (params.channel !== ROOM_CHANNEL) return null;
  const token = params.pubsub_token;
  if (typeof token !== "string" || !token) return null;
  if (isBlank(params.user_id)) {
    const [row] = await Batch.rowsOf<{ account_id: number; contact_id: number; inbox_id: number }>(
      db,
      sql`select account_id, contact_id, inbox_id from contact_inboxes where pubsub_token = ${token}`,
    );
    return row ? { kind: "contact", token, accountId: row.account_id, contactId: row.contact_id, inboxId: row.inbox_id } : null;
  }
  const userId = idOf(params.user_id);
  const accountId = idOf(params.account_id);
  if (!userId || !accountId) return null;
  // The user must own the token and belong to the account.
  const [row] = await Batch.rowsOf<{ user_id: number }>(
    db,
    sql`select au.user_id from users u join account_users au on au.user_id = u.id
        where u.pubsub_token = ${token} and u.id = ${userId} and au.account_id = ${accountId}`,
  );
  return row ? { kind: "user", token, accountId, userId } : null;
}
