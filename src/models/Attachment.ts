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

  declare account_id: number;
  declare message_id: number;
  declare file_type: number;
  declare extension: string | null;
  declare content_type: string;
  declare filename: string;
  /** bigint: pg hands it over as a string. */
  declare file_size: number | string;
  declare width: number | null;
  declare height: number | null;
  declare storage_key: string;
  declare thumb_key: string | null;
  declare analyzed_at: Date | null;

  get fileTypeName(): FileType {
    return FILE_TYPES[this.file_type] ?? "file";
  }
}
