import type { Knex } from "knex";
import { NOTIFICATION_TYPES } from "../models/Notification";
import { NotificationSetting } from "../models/NotificationSetting";

export const ALL_EMAIL_FLAGS = NOTIFICATION_TYPES.map((type) => `email_${type}`);
export const ALL_PUSH_FLAGS = NOTIFICATION_TYPES.map((type) => `push_${type}`);

/** The member's settings, made with Chatwoot's defaults (assignments e-mailed and pushed) on first read. */
export async function settingsOf(db: Knex, accountId: number, userId: number): Promise<NotificationSetting> {
  await db("notification_settings").insert({ account_id: accountId, user_id: userId }).onConflict(["account_id", "user_id"]).ignore();
  return NotificationSetting.query(db).findOne({ account_id: accountId, user_id: userId }).throwIfNotFound();
}

/** Flags it does not know are dropped, as a bit Chatwoot has no name for is never set. */
export async function updateSettings(db: Knex, accountId: number, userId: number, change: { selected_email_flags?: string[]; selected_push_flags?: string[] }) {
  const current = await settingsOf(db, accountId, userId);
  const known = (flags: string[] | undefined, all: string[]) => (flags ? JSON.stringify([...new Set(flags.filter((flag) => all.includes(flag)))]) : undefined);
  const patch = {
    selected_email_flags: known(change.selected_email_flags, ALL_EMAIL_FLAGS),
    selected_push_flags: known(change.selected_push_flags, ALL_PUSH_FLAGS),
  };
  return NotificationSetting.query(db).patchAndFetchById(current.id, Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as object);
}

/** notification_settings/show: the flags by name. */
export function presentSettings(setting: NotificationSetting) {
  return {
    id: setting.id,
    user_id: setting.user_id,
    account_id: setting.account_id,
    all_email_flags: ALL_EMAIL_FLAGS,
    selected_email_flags: setting.selected_email_flags,
    all_push_flags: ALL_PUSH_FLAGS,
    selected_push_flags: setting.selected_push_flags,
  };
}
