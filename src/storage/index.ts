import path from "node:path";
import { DATA_DIR } from "../config";
import { LocalStorage } from "./local";
import { S3Storage } from "./s3";
import type { FileStorage } from "./types";

export type { FileSource, FileStorage, StoredObject } from "./types";

/**
 * The storage the environment names, with Chatwoot's variable names so a Chatwoot .env carries
 * over: ACTIVE_STORAGE_SERVICE=local (default, under STORAGE_DIR or <data dir>/storage), amazon
 * (S3_BUCKET_NAME, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) or s3_compatible
 * (STORAGE_BUCKET_NAME, STORAGE_ENDPOINT, STORAGE_REGION, STORAGE_ACCESS_KEY_ID,
 * STORAGE_SECRET_ACCESS_KEY, STORAGE_FORCE_PATH_STYLE).
 */
export function storageFromEnv(env: NodeJS.ProcessEnv = process.env): FileStorage {
  const service = (env.ACTIVE_STORAGE_SERVICE || "local").toLowerCase();
  switch (service) {
    case "local":
      return new LocalStorage(env.STORAGE_DIR || path.join(DATA_DIR, "storage"));
    case "amazon":
    case "s3":
      return new S3Storage({
        bucket: required(env, "S3_BUCKET_NAME"),
        region: env.AWS_REGION || "us-east-1",
        accessKeyId: env.AWS_ACCESS_KEY_ID,
        secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
        prefix: env.STORAGE_PREFIX,
      });
    case "s3_compatible":
      return new S3Storage({
        bucket: required(env, "STORAGE_BUCKET_NAME"),
        region: env.STORAGE_REGION || "us-east-1",
        endpoint: required(env, "STORAGE_ENDPOINT"),
        forcePathStyle: env.STORAGE_FORCE_PATH_STYLE ? env.STORAGE_FORCE_PATH_STYLE === "true" : true,
        accessKeyId: env.STORAGE_ACCESS_KEY_ID,
        secretAccessKey: env.STORAGE_SECRET_ACCESS_KEY,
        prefix: env.STORAGE_PREFIX,
      });
    default:
      throw new Error(`ACTIVE_STORAGE_SERVICE=${service} is not one of local, amazon, s3_compatible`);
  }
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is required for ACTIVE_STORAGE_SERVICE=${env.ACTIVE_STORAGE_SERVICE}`);
  return value;
}

let current: FileStorage | undefined;

/** The process's storage, made from the environment on first use. */
export function fileStorage(): FileStorage {
  return (current ??= storageFromEnv());
}
