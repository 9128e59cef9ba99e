import { appSettings, type StorageSettings, storageSettings } from "../config";
import { LocalStorage } from "./local";
import { S3Storage } from "./s3";
import type { FileStorage } from "./types";

export type { FileSource, FileStorage, StoredObject } from "./types";

export function storageFrom(settings: StorageSettings): FileStorage {
  if (settings.service === "local") return new LocalStorage(settings.root);
  const { service: _service, ...options } = settings;
  return new S3Storage(options);
}

/** The storage the environment names (see storageSettings in src/config.ts). */
export function storageFromEnv(env: NodeJS.ProcessEnv = process.env): FileStorage {
  return storageFrom(storageSettings(env));
}

const storages = new WeakMap<StorageSettings, FileStorage>();

/** The process's storage (appSettings().storage), made on first use. */
export function fileStorage(): FileStorage {
  const settings = appSettings().storage;
  let storage = storages.get(settings);
  if (!storage) storages.set(settings, (storage = storageFrom(settings)));
  return storage;
}
