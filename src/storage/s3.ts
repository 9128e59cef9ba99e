import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import type { S3Settings } from "../config";
import { isSafeKey } from "./keys";
import type { FileSource, FileStorage, StoredObject } from "./types";

export type S3StorageOptions = S3Settings;

/** The client config for the options: static keys when given, else the SDK's default chain (instance roles, env). */
export function s3ClientConfig(options: S3StorageOptions): S3ClientConfig {
  return {
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
    // Checksums only where S3 requires them: many S3-compatible services refuse the SDK's default
    // streamed (aws-chunked) uploads with trailing checksums.
    ...(options.endpoint ? { requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" } : {}),
    ...(options.accessKeyId && options.secretAccessKey ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } } : {}),
  };
}

/** S3 keys DeleteObjects takes at once. */
const DELETE_BATCH = 1000;

/** Files in an S3 bucket (AWS or any S3-compatible service), one object per key. */
export class S3Storage implements FileStorage {
  readonly kind = "s3";
  private readonly client: S3Client;

  constructor(
    readonly options: S3StorageOptions,
    client?: S3Client,
  ) {
    this.client = client ?? new S3Client(s3ClientConfig(options));
  }

  /** The object key in the bucket for a storage key. */
  objectKey(key: string): string {
    if (!isSafeKey(key.replace(/\/$/, ""))) throw new Error(`Unsafe storage key: ${key}`);
    const prefix = this.options.prefix?.replace(/^\/+|\/+$/g, "");
    return prefix ? `${prefix}/${key}` : key;
  }

  async put(key: string, source: FileSource, contentType: string): Promise<void> {
    const body = "path" in source ? createReadStream(source.path) : source.bytes;
    const length = "path" in source ? (await stat(source.path)).size : source.bytes.length;
    await this.client.send(
      new PutObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key), Body: body, ContentLength: length, ContentType: contentType }),
    );
  }

  async get(key: string, { start = 0 }: { start?: number } = {}): Promise<StoredObject | undefined> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key), ...(start ? { Range: `bytes=${start}-` } : {}) }),
      );
      return { body: object.Body as Readable, size: object.ContentLength };
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === "NoSuchKey") return undefined;
      throw err;
    }
  }

  async delete(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH).map((key) => ({ Key: this.objectKey(key) }));
      await this.client.send(new DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: batch, Quiet: true } }));
    }
  }

  async deletePrefix(prefix: string, limit: number): Promise<number> {
    const listed = await this.client.send(
      new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: this.objectKey(prefix), MaxKeys: Math.min(limit, DELETE_BATCH) }),
    );
    const keys = (listed.Contents ?? []).map((object) => object.Key!).filter(Boolean);
    if (!keys.length) return 0;
    await this.client.send(new DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
    return keys.length;
  }
}
