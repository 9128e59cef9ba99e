import { BaseModel } from "./BaseModel";

/** Chatwoot's attachment file_type enum; the integer code is the index. */
export const FILE_TYPES = [
  "image",
  "audio",
  "video",
  "file",
  "location",
  "fallback",
  "share",
  "story_mention",
  "contact",
  "ig_reel",
  "ig_post",
  "ig_story",
  "embed",
] as const;
export type FileType = (typeof FILE_TYPES)[number];

export class Attachment extends BaseModel {
  static tableName = "attachments";

  account_id!: number;
  message_id!: number;
  file_type!: number;
  extension!: string | null;
  content_type!: string;
  filename!: string;
  /** bigint: pg hands it over as a string. */
  file_size!: number | string;
  width!: number | null;
  height!: number | null;
  storage_key!: string;
  thumb_key!: string | null;
  analyzed_at!: Date | null;

  get fileTypeName(): FileType {
    return FILE_TYPES[this.file_type] ?? "file";
  }
}
