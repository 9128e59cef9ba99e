import { storageSettings } from "../config";
import { LocalStorage } from "./local";
import { S3Storage } from "./s3";
import type { FileStorage } from "./types";

export type { FileSource, FileStorage, StoredObject } from "./types";

/** The storage the environment names (see storageSettings in src/config.ts). */
export function storageFromEnv(env: NodeJS.ProcessEnv = process.env): FileStorage {
  const settings = storageSettings(env);
  if (settings.service === "local") return new LocalStorage(settings.root);
  const { service: _service, ...options } = settings;
  return new S3Storage(options);
}

let current: FileStorage | undefined;

/** The process's storage, made from the environment on first use. */
export function fileStorage(): FileStorage {
  return (current ??= storageFromEnv());
}
