import type { Readable } from "node:stream";

/** Where a stored file's bytes come from: a file on this machine (an upload) or bytes in memory (a thumbnail). */
export type FileSource = { path: string } | { bytes: Buffer };

export interface StoredObject {
  body: Readable;
  size: number | undefined;
}

/**
 * The bytes of stored files, by key. Keys are built by src/storage/keys.ts and always start with
 * the owning account's prefix, so an account's files can be listed and removed together.
 */
export interface FileStorage {
  readonly kind: string;
  put(key: string, source: FileSource, contentType: string): Promise<void>;
  /** The object (from byte `start` on, when given), or undefined when there is none under the key. */
  get(key: string, options?: { start?: number }): Promise<StoredObject | undefined>;
  /** Removes the objects; keys with no object are no error. */
  delete(keys: string[]): Promise<void>;
  /** Removes up to `limit` objects under the prefix; answers how many went (0 when none are left). */
  deletePrefix(prefix: string, limit: number): Promise<number>;
}
