import { randomUUID } from "node:crypto";

/** Every file of an account lives under this prefix; deleting the account removes the prefix. */
export function accountPrefix(accountId: number): string {
  return `accounts/${accountId}/`;
}

/** A key's account, read from its prefix (undefined for a key outside every account). */
export function accountOfKey(key: string): number | undefined {
  const match = key.match(/^accounts\/(\d+)\//);
  return match ? Number(match[1]) : undefined;
}

/** Keys are made here only, of safe characters: a key never walks out of its directory or bucket prefix. */
export function isSafeKey(key: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9/_.-]*$/.test(key) && !key.split("/").some((part) => part === "" || part === "." || part === "..");
}

const safeExtension = (extension: string | null) => (extension && /^[A-Za-z0-9]{1,16}$/.test(extension) ? `.${extension.toLowerCase()}` : "");

/** A new, unguessable key for a message attachment's file. */
export function attachmentKey(accountId: number, extension: string | null): string {
  return `${accountPrefix(accountId)}attachments/${randomUUID()}${safeExtension(extension)}`;
}

/** The thumbnail of the file stored under `key`. */
export function thumbnailKey(key: string): string {
  return `${key}.thumb.png`;
}

/** A new, unguessable key for an avatar of a contact, agent bot or inbox (account-less platform bots share one prefix). */
export function avatarKey(accountId: number | null, owner: string, extension: string | null): string {
  return `${accountId === null ? "shared/" : accountPrefix(accountId)}avatars/${owner}/${randomUUID()}${safeExtension(extension)}`;
}

/** Avatars are public (as Chatwoot's are): only keys of this shape are served without a signature. */
export function isAvatarKey(key: string): boolean {
  return isSafeKey(key) && /^(accounts\/\d+|shared)\/avatars\/[a-z_]+\/[0-9a-f-]{36}\.(png|jpg|gif|webp)$/.test(key);
}
