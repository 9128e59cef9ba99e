import { ValidationError } from "../errors";
import type { UploadedFile } from "../http/multipart";
import { fileStorage } from "../storage";
import { avatarKey, isAvatarKey } from "../storage/keys";
import { appSettings, publicBaseUrl } from "../config";
import { FILES_PATH } from "../storage/urls";
import { contentTypeOf } from "./attachments";
import { currentLogger } from "../lib/logger";
import { imageMatchesBytes } from "./fileSignatures";

/** Avatarable#acceptable_avatar: 15 MB, and the image types a browser shows. */
export const AVATAR_MAX_BYTES = 15 * 1024 * 1024;
export const AVATAR_TYPES: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp" };
export const AVATAR_CONTENT_TYPES: Record<string, string> = Object.fromEntries(Object.entries(AVATAR_TYPES).map(([type, ext]) => [ext, type]));

export type AvatarOwner = "contact" | "agent_bot" | "inbox" | "user";

/** The avatar columns a write sets: a new stored image, or nulls that remove the avatar. */
export interface AvatarAttributes {
  avatar_key?: string | null;
  avatar_url?: null;
}

/** Where a stored avatar is served: a stable public URL (its key is unguessable), as Active Storage serves avatars. */
export function avatarPublicUrl(key: string): string {
  return `${publicBaseUrl(appSettings())}${FILES_PATH}/avatars/${key}`;
}

/** What thumbnail/avatar_url show: the stored image once there is one, else the URL the client gave. */
export function avatarUrlOf(record: { avatar_key?: string | null; avatar_url?: string | null }): string {
  return record.avatar_key ? avatarPublicUrl(record.avatar_key) : (record.avatar_url ?? "");
}

export function avatarContentType(key: string): string | undefined {
  if (!isAvatarKey(key)) return undefined;
  return AVATAR_CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)];
}

/** Stores image bytes (fetched or uploaded, already checked) as a new avatar; answers its key. */
export async function storeAvatar(
  accountId: number | null,
  owner: AvatarOwner,
  source: { path: string } | { bytes: Buffer },
  contentType: string,
): Promise<string> {
  const key = avatarKey(accountId, owner, AVATAR_TYPES[contentType]!);
  await fileStorage().put(key, source, contentType);
  return key;
}

/**
 * An uploaded `avatar` file: checked as Avatarable checks it (422 in the record-invalid shape),
 * stored before `work` writes the row, and removed again when `work` fails. `work` gets the
 * attributes to write (none without a file; a null file removes the avatar, the stored image and
 * the URL it came from alike).
 */
export async function withUploadedAvatar<T>(
  accountId: number | null,
  owner: AvatarOwner,
  file: UploadedFile | null | undefined,
  work: (attributes: AvatarAttributes) => Promise<T>,
): Promise<T> {
  if (file === undefined) return work({});
  if (file === null) return work({ ...NO_AVATAR });
  const contentType = contentTypeOf(file);
  if (file.truncated || file.size > AVATAR_MAX_BYTES) throw ValidationError.of("avatar", "filesize is too big");
  if (!AVATAR_TYPES[contentType]) throw ValidationError.of("avatar", "filetype not supported");
  if (!(await imageMatchesBytes(file.path, contentType))) throw ValidationError.of("avatar", "content does not match its filetype");
  const key = await storeAvatar(accountId, owner, { path: file.path }, contentType);
  try {
    return await work({ avatar_key: key });
  } catch (err) {
    await fileStorage()
      .delete([key])
      .catch((cleanupError) => currentLogger().error({ err: cleanupError }, "Could not remove the avatar of a failed write"));
    throw err;
  }
}

/** The avatar columns that remove an avatar: the stored image (its file goes once the row no longer names it) and the URL it came from. */
export const NO_AVATAR = { avatar_key: null, avatar_url: null } as const satisfies AvatarAttributes;
