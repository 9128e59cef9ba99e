import type { Knex } from "knex";
import type { EventRow } from "../events/outbox";
import { exportDownloadUrl } from "../contactTransfers/presenters";
import type { PlannedNotification } from "./recipients";

/**
 * contact_export_completed: the user who asked for the export, if still a member, is told where
 * the CSV is (Chatwoot e-mails the link). The link is signed when the notification is made and
 * works for FILE_URL_EXPIRES_IN; GET data_exports/:id signs a fresh one.
 */
export async function exportNotifications(db: Knex, event: EventRow): Promise<PlannedNotification[]> {
  const userId = Number(event.payload.user_id);
  const exportId = Number(event.payload.data_export_id);
  const member = await db("account_users").where({ account_id: event.account_id, user_id: userId }).first();
  const row = await db("data_exports").where({ id: exportId, account_id: event.account_id }).first();
  if (!member || !row?.file_key) return [];
  const downloadUrl = await exportDownloadUrl(db, event.account_id, row.file_key);
  return [
    {
      eventId: event.id,
      accountId: event.account_id,
      userId,
      type: "contact_export_completed",
      primaryActorType: "DataExport",
      conversationId: exportId,
      primaryActorData: { id: exportId, total_records: row.total_records, download_url: downloadUrl },
      secondary: null,
      title: `Your contact export is ready (${String(row.total_records)} contacts)`,
    },
  ];
}
