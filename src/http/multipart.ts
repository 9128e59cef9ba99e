import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import qs from "qs";
import { z } from "zod";
import { ApiError, BadRequest } from "../errors";
import type { AppContext } from "./context";

/**
 * Form bodies (multipart/form-data, and the urlencoded forms the body parser already reads) as
 * Chatwoot takes them: fields in Rack's bracket notation decode to nested objects, files land in
 * temporary files that live exactly as long as the request, and string values are cast to the
 * booleans and numbers the route's schema expects, as ActiveRecord casts them on assignment.
 * Routes opt in through `multipart` in their spec (src/http/router.ts).
 */

/** A file part of a multipart body, written to a temporary file removed when the request ends. */
export class UploadedFile {
  constructor(
    /** The form field it came in, e.g. `attachments[]`. */
    readonly field: string,
    /** The name the client gave it (never a path on this machine). */
    readonly filename: string,
    /** The Content-Type the client declared for the part. */
    readonly mimeType: string,
    /** Where the bytes are, while the request lasts. */
    readonly path: string,
    readonly size: number,
    /** More bytes came than `maxFileBytes`; only that many were kept. */
    readonly truncated: boolean,
  ) {}
}

/** A body field that must be a file part of a multipart body. */
export const uploadedFile = () =>
  z.custom<UploadedFile>((value) => value instanceof UploadedFile, { message: "must be a file" }).openapi({ type: "string", format: "binary" });

export interface MultipartLimits {
  /** Bytes kept of one file; a larger file is marked `truncated` for the route to refuse. */
  maxFileBytes: number;
  maxFiles: number;
  /** Non-file fields. */
  maxFields: number;
  /** Bytes of one non-file field. */
  maxFieldBytes: number;
}

export const DEFAULT_MULTIPART_LIMITS: MultipartLimits = {
  maxFileBytes: 40 * 1024 * 1024,
  maxFiles: 10,
  maxFields: 200,
  maxFieldBytes: 1024 * 1024,
};

/** A request whose body came as a form: its values are strings and get cast by schema (see coerceFormValues). */
export function isFormRequest(ctx: AppContext): boolean {
  return Boolean(ctx.is("multipart/form-data", "application/x-www-form-urlencoded"));
}

export function isMultipartRequest(ctx: AppContext): boolean {
  return Boolean(ctx.is("multipart/form-data"));
}

const tooMany = (what: string) => new ApiError(413, { error: `Too many ${what} in the form` });

/**
 * Parses a multipart body into `ctx.request.body` (fields and files, nested by bracket notation),
 * runs `work`, and removes every temporary file afterwards, whether `work` or the parse failed.
 */
export async function withMultipartBody<T>(ctx: AppContext, limits: Partial<MultipartLimits>, work: () => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "convo-upload-"));
  try {
    const entries = await parseParts(ctx, dir, { ...DEFAULT_MULTIPART_LIMITS, ...limits });
    (ctx.request as { body?: unknown }).body = decodeFormFields(entries);
    return await work();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

type FormEntry = [name: string, value: string | UploadedFile];

function parseParts(ctx: AppContext, dir: string, limits: MultipartLimits): Promise<FormEntry[]> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: ctx.req.headers,
        // Browsers and fetch send file names as UTF-8 in filename="..."; busboy reads them as latin1 by default.
        defParamCharset: "utf8",
        limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: limits.maxFields, fieldSize: limits.maxFieldBytes, fieldNameSize: 200 },
      });
    } catch (err) {
      reject(BadRequest(`Malformed multipart body: ${(err as Error).message}`));
      return;
    }
    // One slot per part in the order sent; a file's slot fills once it is on disk.
    const slots: (FormEntry | undefined)[] = [];
    const writes: Promise<void>[] = [];
    let failed: unknown;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = err;
      ctx.req.unpipe(parser);
      // Drain what the client still sends, so it reads our answer instead of a reset connection.
      ctx.req.resume();
      // Parts already being written must settle before the caller removes their directory.
      void Promise.allSettled(writes).then(() => reject(err));
    };

    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) return fail(new ApiError(413, { error: `Form field ${name} is too large` }));
      slots.push([name, value]);
    });
    parser.on("file", (name, stream, info) => {
      const slot = slots.push(undefined) - 1;
      const target = path.join(dir, randomUUID());
      let size = 0;
      let truncated = false;
      stream.on("data", (chunk: Buffer) => (size += chunk.length));
      stream.on("limit", () => (truncated = true));
      const write = pipeline(stream, createWriteStream(target)).then(() => {
        const filename = path.basename(info.filename ?? "") || "file";
        slots[slot] = [name, new UploadedFile(name, filename, info.mimeType || "application/octet-stream", target, size, truncated)];
      });
      write.catch(fail);
      writes.push(write);
    });
    parser.on("filesLimit", () => fail(tooMany("files")));
    parser.on("fieldsLimit", () => fail(tooMany("fields")));
    parser.on("error", (err) => fail(BadRequest(`Malformed multipart body: ${(err as Error).message}`)));
    parser.on("close", () => {
      Promise.all(writes).then(() => {
        if (!failed) resolve(slots.filter((entry): entry is FormEntry => entry !== undefined));
      }, fail);
    });
    ctx.req.on("aborted", () => fail(BadRequest("The request was aborted")));
    ctx.req.pipe(parser);
  });
}

/**
 * Rack's rule for `items[][title]`, which qs (nesting by explicit index) lacks: a field fills the
 * array's last hash until that hash already has its key, then starts a new one. Rewrites each such
 * `[]` to the index it means, e.g. `items[][title]` → `items[1][title]` for the second title.
 */
function withRackIndices(names: string[]): string[] {
  const arrays = new Map<string, { index: number; keys: Set<string> }>();
  return names.map((name) => {
    for (let at = name.indexOf("[]["); at !== -1; at = name.indexOf("[][", at + 1)) {
      const prefix = name.slice(0, at);
      const rest = name.slice(at + 2);
      let array = arrays.get(prefix);
      if (!array) arrays.set(prefix, (array = { index: 0, keys: new Set() }));
      // Rack fills the last hash whenever the rest holds another `[]`.
      if (!rest.includes("[]")) {
        if (array.keys.has(rest)) array = { index: array.index + 1, keys: new Set() };
        array.keys.add(rest);
        arrays.set(prefix, array);
      }
      name = `${prefix}[${array.index}]${rest}`;
    }
    return name;
  });
}

/** Form fields in Rack's bracket notation as the nested object Rails' params would be. */
export function decodeFormFields(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const all = [...entries];
  const names = withRackIndices(all.map(([name]) => name));
  // A repeated plain name keeps its last value, as in Rails; `a[]` ones add up.
  const last = new Map(names.map((name, i) => [name, i]));
  const query = names.flatMap((name, i) => (name.includes("[]") || last.get(name) === i ? [`${encodeURIComponent(name)}=${i}`] : [])).join("&");
  return qs.parse(query, {
    depth: 32,
    arrayLimit: 1000,
    parameterLimit: Infinity,
    // Values go through by position, so files and non-strings stay as they are.
    decoder: (text, decode, charset, type) => (type === "value" ? all[Number(text)]![1] : decode(text, decode, charset)),
  });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof UploadedFile);

/** ActiveModel::Type::Boolean::FALSE_VALUES (as strings); any other non-blank string is true. */
const FALSE_STRINGS = new Set(["0", "f", "F", "false", "FALSE", "off", "OFF"]);
const NUMERIC = /^\s*[-+]?\d+(\.\d+)?\s*$/;

type Def = {
  type: string;
  innerType?: ZodLike;
  in?: ZodLike;
  out?: ZodLike;
  shape?: Record<string, ZodLike>;
  element?: ZodLike;
  valueType?: ZodLike;
  options?: ZodLike[];
  getter?: () => ZodLike;
  left?: ZodLike;
  right?: ZodLike;
};
type ZodLike = { _zod: { def: Def }; safeParse(value: unknown): { success: boolean } };

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "catch", "readonly", "nonoptional", "success"]);

/**
 * Casts the strings of a form body to what `schema` expects where it expects a boolean or a number,
 * as ActiveRecord casts a form's strings on assignment ("false" → false, "12" → 12, "" → nil).
 * Strings that cannot be read as the type are left for the schema to refuse.
 */
export function coerceFormValues(schema: z.ZodType, value: unknown): unknown {
  return coerce(schema as unknown as ZodLike, value);
}

function coerce(schema: ZodLike, value: unknown): unknown {
  if (value === undefined || value instanceof UploadedFile) return value;
  const def = schema._zod.def;
  if (WRAPPERS.has(def.type) && def.innerType) return coerce(def.innerType, value);
  switch (def.type) {
    case "pipe": {
      const first = def.in!._zod.def as Def & { transform?: (value: unknown, ctx: unknown) => unknown };
      if (first.type !== "transform") return coerce(def.in!, value);
      // A z.preprocess: the shape to cast by is after it (e.g. a body unwrapped from `{contact: {...}}`).
      // The preprocessors of request schemas are normalisations that may run twice.
      let prepared: unknown;
      try {
        prepared = first.transform!(value, { value, issues: [] });
      } catch {
        return value;
      }
      return prepared instanceof Promise ? value : coerce(def.out!, prepared);
    }
    case "lazy":
      return coerce(def.getter!(), value);
    case "boolean":
      if (typeof value !== "string") return value;
      if (value.trim() === "") return undefined;
      return !FALSE_STRINGS.has(value);
    case "number":
    case "int":
    case "bigint":
      if (typeof value !== "string") return value;
      if (value.trim() === "") return undefined;
      return NUMERIC.test(value) ? Number(value) : value;
    case "object": {
      if (!isPlainObject(value)) return value;
      const out: Record<string, unknown> = { ...value };
      for (const [key, child] of Object.entries(def.shape ?? {})) if (key in out) out[key] = coerce(child, out[key]);
      return out;
    }
    case "array":
      return Array.isArray(value) ? value.map((item) => coerce(def.element!, item)) : value;
    case "record":
      return isPlainObject(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, coerce(def.valueType!, item)])) : value;
    case "intersection":
      return coerce(def.right!, coerce(def.left!, value));
    case "union": {
      if (typeof value !== "string") return value;
      const options = def.options ?? [];
      // The value as sent wins when some option takes it; otherwise the first option its cast fits.
      if (options.some((option) => option.safeParse(value).success)) return value;
      for (const option of options) {
        const cast = coerce(option, value);
        if (cast !== value && option.safeParse(cast).success) return cast;
      }
      return value;
    }
    default:
      return value;
  }
}
