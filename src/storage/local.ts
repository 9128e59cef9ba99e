import { createReadStream } from "node:fs";
import { copyFile, mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { isSafeKey } from "./keys";
import type { FileSource, FileStorage, StoredObject } from "./types";

/** Files on this machine's disk, one file per key under `root`. */
export class LocalStorage implements FileStorage {
  readonly kind = "local";

  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(this.root, ...key.split("/"));
  }

  async put(key: string, source: FileSource, _contentType: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    if ("path" in source) await copyFile(source.path, target);
    else await writeFile(target, source.bytes);
  }

  async get(key: string, { start = 0 }: { start?: number } = {}): Promise<StoredObject | undefined> {
    const file = this.pathOf(key);
    try {
      const { size } = await stat(file);
      return { body: createReadStream(file, { start }), size: Math.max(0, size - start) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.pathOf(key), { force: true })));
  }

  async deletePrefix(prefix: string, limit: number): Promise<number> {
    const dir = this.pathOf(prefix.replace(/\/$/, ""));
    let entries: string[];
    try {
      entries = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
      throw err;
    }
    const batch = entries.slice(0, limit);
    await Promise.all(batch.map((file) => rm(file, { force: true })));
    // With the files gone, the empty directories go in one sweep.
    if (entries.length <= limit) await rm(dir, { recursive: true, force: true });
    return batch.length;
  }
}
