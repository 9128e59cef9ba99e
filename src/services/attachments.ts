import path from "node:path";
import type { Knex } from "knex";
import { CouldNotProcess } from "../errors";
import type { UploadedFile } from "../http/multipart";
import { Attachment, FILE_TYPES, type FileType } from "../models/Attachment";
import type { Message } from "../models/Message";
import { fileStorage } from "../storage";
import { attachmentKey } from "../storage/keys";
import { type FileUrlSigner, fileUrlSigner } from "../storage/urls";
import type { Batch } from "../db/batch";
import type { InList } from "../db/sql";
import type { Settings } from "../config";
import { currentLogger } from "../lib/logger";
import { imageMatchesBytes } from "./fileSignatures";

/** Thumbnails are PNGs of at most THUMBNAIL_SIZE pixels a side (Chatwoot's 250x250 representation). */
export const THUMBNAIL_TYPE = "image/png";
export const THUMBNAIL_SIZE = 250;

/** Files one message may carry. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

/** Attachment::ACCEPTABLE_FILE_TYPES: what a web widget visitor may send besides images, audio and video. */
const ACCEPTABLE_DOCUMENT_TYPES = new Set([
  "text/csv",
  "text/plain",
  "text/rtf",
  "application/json",
  "application/pdf",
  "application/zip",
  "application/x-7z-compressed",
  "application/vnd.rar",
  "application/x-tar",
  "application/msword",
  "application/vnd.ms-excel",
  "application/vnd.ms-powerpoint",
  "application/rtf",
  "application/vnd.oasis.opendocument.text",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
]);

/** Types by extension, for parts a client sent as application/octet-stream (as Active Storage reads the name). */
const TYPES_BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  svg: "image/svg+xml",
  heic: "image/heic",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/opus",
  wav: "audio/wav",
  m4a: "audio/mp4",
  aac: "audio/aac",
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
  "3gp": "video/3gpp",
  pdf: "application/pdf",
  txt: "text/plain",
  csv: "text/csv",
  json: "application/json",
  zip: "application/zip",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

export function extensionOf(filename: string): string | null {
  return path.extname(filename).replace(/^\./, "").toLowerCase() || null;
}

/** The declared type, unless it says nothing (then the file name's). */
export function contentTypeOf(file: Pick<UploadedFile, "mimeType" | "filename">): string {
  const declared = file.mimeType.split(";")[0]!.trim().toLowerCase();
  if (declared && declared !== "application/octet-stream") return declared;
  return TYPES_BY_EXTENSION[extensionOf(file.filename) ?? ""] ?? "application/octet-stream";
}

/** MessageBuilder#file_type: image, video and audio by their type family, anything else a file. */
export function fileTypeOf(contentType: string): FileType {
  if (contentType.startsWith("image/")) return "image";
  if (contentType.startsWith("video/")) return "video";
  if (contentType.startsWith("audio/")) return "audio";
  return "file";
}

/** An uploaded file already in storage, waiting for its message's row. */
export interface StagedAttachment {
  key: string;
  filename: string;
  contentType: string;
  extension: string | null;
  size: number;
  fileType: FileType;
}

/**
 * Attachment#acceptable_file, answered as the message controller answers a failed save. Every
 * inbox has the size limit (the server must bound what it keeps); as in Chatwoot only web widget
 * inboxes limit the types.
 */
async function attachmentProblems(files: UploadedFile[], channelType: string, limit: number): Promise<string[]> {
  const problems = new Set<string>();
  if (files.length > MAX_ATTACHMENTS_PER_MESSAGE) problems.add(`Attachments are too many (maximum is ${MAX_ATTACHMENTS_PER_MESSAGE})`);
  for (const file of files) {
    if (file.truncated || file.size > limit) problems.add("Attachments file size is too big");
    if (file.size === 0) problems.add("Attachments file is empty");
    const type = contentTypeOf(file);
    if (channelType === "Channel::WebWidget" && fileTypeOf(type) === "file" && !ACCEPTABLE_DOCUMENT_TYPES.has(type))
      problems.add("Attachments file type not supported");
    else if (!file.truncated && !(await imageMatchesBytes(file.path, type))) problems.add("Attachments file content does not match its type");
  }
  return [...problems];
}

/**
 * Checks the uploads and puts them in storage before the message's transaction (which then only
 * writes rows), runs `work` with them, and removes them from storage again if `work` fails.
 */
export async function withStagedAttachments<T>(
  { maxUploadBytes }: Pick<Settings, "maxUploadBytes">,
  accountId: number,
  /** Read only when there are files: most messages have none. */
  channelTypeOf: () => string | Promise<string>,
  files: UploadedFile[],
  work: (staged: StagedAttachment[]) => Promise<T>,
): Promise<T> {
  if (!files.length) return work([]);
  const problems = await attachmentProblems(files, await channelTypeOf(), maxUploadBytes);
  if (problems.length) throw CouldNotProcess(`Validation failed: ${problems.join(", ")}`);
  const storage = fileStorage();
  const staged = files.map((file): StagedAttachment => {
    const contentType = contentTypeOf(file);
    const extension = extensionOf(file.filename);
    return { key: attachmentKey(accountId, extension), filename: file.filename, contentType, extension, size: file.size, fileType: fileTypeOf(contentType) };
  });
  const stored = await Promise.allSettled(staged.map((item, i) => storage.put(item.key, { path: files[i]!.path }, item.contentType)));
  const failure = stored.find((result): result is PromiseRejectedResult => result.status === "rejected");
  try {
    if (failure) throw failure.reason;
    return await work(staged);
  } catch (err) {
    await storage
      .delete(staged.map((item) => item.key))
      .catch((cleanupError) => currentLogger().error({ err: cleanupError }, "Could not remove the files of a message that was not created"));
    throw err;
  }
}

/** The attachment rows of a new message, in its transaction. */
export async function insertAttachments(trx: Knex.Transaction, message: Pick<Message, "id" | "account_id">, staged: StagedAttachment[]): Promise<void> {
  if (!staged.length) return;
  await trx("attachments").insert(
    staged.map((item) => ({
      account_id: message.account_id,
      message_id: message.id,
      file_type: FILE_TYPES.indexOf(item.fileType),
      extension: item.extension,
      content_type: item.contentType,
      filename: item.filename,
      file_size: item.size,
      storage_key: item.key,
    })),
  );
}

/** Attachment#push_event_data for a stored file: data_url and thumb_url are signed download URLs. */
export function attachmentPushEventData(attachment: Attachment, signer: FileUrlSigner) {
  const { account_id: accountId } = attachment;
  return {
    id: attachment.id,
    message_id: attachment.message_id,
    file_type: attachment.fileTypeName,
    account_id: attachment.account_id,
    extension: attachment.extension,
    content_type: attachment.content_type,
    data_url: signer.url({ accountId, key: attachment.storage_key, contentType: attachment.content_type, filename: attachment.filename }),
    thumb_url: attachment.thumb_key
      ? signer.url({ accountId, key: attachment.thumb_key, contentType: THUMBNAIL_TYPE, filename: `${path.parse(attachment.filename).name}-thumb.png` })
      : "",
    file_size: Number(attachment.file_size),
    width: attachment.width,
    height: attachment.height,
  };
}

export type AttachmentData = ReturnType<typeof attachmentPushEventData>;

/**
 * Queues the attachments of messages on a batch; once it has run, the returned function puts each
 * message's attachments, as its payloads show them, on `message.attachments`.
 */
export async function queueAttachments(batch: Batch, db: Knex, messageIds: InList): Promise<(messages: Message[]) => Promise<void>> {
  const rows = await batch.modelsWhere(Attachment, "message_id", messageIds, {}, "id");
  return async (messages) => {
    const signer = rows.length ? await fileUrlSigner(db) : undefined;
    const byMessage = new Map<number, AttachmentData[]>();
    for (const row of rows) {
      const list = byMessage.get(row.message_id) ?? [];
      list.push(attachmentPushEventData(row, signer!));
      byMessage.set(row.message_id, list);
    }
    for (const message of messages) message.attachments = byMessage.get(message.id) ?? [];
  };
}

/**
 * Removes stored files whose rows are gone (queued by the database on every attachment delete),
 * after their deletion committed. A failure leaves them queued for the next run.
 */
export async function purgeDeletedFiles(db: Knex, { accountId, limit = 1000 }: { accountId?: number; limit?: number } = {}): Promise<number> {
  return db.transaction(async (trx) => {
    const query = trx("file_deletions").select("id", "storage_key").orderBy("id").limit(limit).forUpdate().skipLocked();
    if (accountId !== undefined) query.where("account_id", accountId);
    const rows: { id: number; storage_key: string }[] = await query;
    if (!rows.length) return 0;
    await fileStorage().delete([...new Set(rows.map((row) => row.storage_key))]);
    await trx("file_deletions")
      .whereIn(
        "id",
        rows.map((row) => row.id),
      )
      .delete();
    return rows.length;
  });
}

/** Every queued removal, of every account (the worker runs it at start); a storage failure is logged and left queued. */
export async function purgeAllDeletedFiles(db: Knex): Promise<number> {
  let total = 0;
  try {
    for (let batch = await purgeDeletedFiles(db); batch > 0; batch = await purgeDeletedFiles(db)) total += batch;
  } catch (err) {
    currentLogger().error({ err }, "Could not remove the stored files of deleted rows (they stay queued)");
  }
  return total;
}

/** purgeDeletedFiles after a request's deletion: a storage failure is logged, never the request's failure. */
export async function purgeDeletedFilesQuietly(db: Knex, accountId: number): Promise<void> {
  try {
    while ((await purgeDeletedFiles(db, { accountId })) > 0);
  } catch (err) {
    currentLogger().error({ err }, `Could not remove deleted files of account ${accountId} (they stay queued)`);
  }
}
