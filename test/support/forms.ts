import { mkdtemp, readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { ApiResponse, Harness } from "./harness";

/** A file part: its bytes, the name the client gives it and the type it declares. */
export interface FilePart {
  filename: string;
  content: Buffer | string;
  type?: string;
}

export type FormFields = [name: string, value: string | FilePart][];

/** Sends `fields` as multipart/form-data (fetch writes the boundary), as a browser or an SDK would. */
export async function requestForm<T = any>(
  h: Harness,
  method: string,
  path: string,
  fields: FormFields,
  token?: string,
  headers: Record<string, string> = {},
): Promise<ApiResponse<T>> {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, new Blob([value.content], { type: value.type ?? "application/octet-stream" }), value.filename);
  }
  const response = await fetch(`${h.baseUrl}${path}`, { method, headers: { ...headers, ...(token ? { api_access_token: token } : {}) }, body: form });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: tests see the raw text.
  }
  return { status: response.status, body: body as T, headers: response.headers };
}

/**
 * Gives this test process a temporary directory of its own (uploads go under os.tmpdir()), so a
 * test can see that every upload's files are gone without other processes' uploads in the way.
 */
export async function ownTmpDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "convo-test-"));
  process.env.TMPDIR = dir;
  return dir;
}

/** What is left in the directory uploads go to. */
export async function leftoverUploads(dir: string): Promise<string[]> {
  return readdir(dir);
}

/** A real PNG of the given size. */
export function pngOf(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();
}
