import { createHmac, timingSafeEqual } from "node:crypto";
import type { Knex } from "knex";
import { appSettings, publicBaseUrl, type Settings } from "../config";
import { widgetTokenSecret } from "../services/widgetTokens";
import { accountOfKey, isSafeKey } from "./keys";

/** Expiries are rounded up to this, so one file's URL stays the same for a while (and caches hold). */
const EXPIRY_STEP_SECONDS = 3600;

export const FILES_PATH = "/files";

export interface FileClaims {
  accountId: number;
  key: string;
  /** What the download is served as: the stored type and the name the file came with. */
  contentType: string;
  filename: string;
}

const b64 = (input: Buffer | string) => Buffer.from(input).toString("base64url");

/**
 * Signs and checks download URLs of stored files. A URL names one key of one account, until its
 * expiry, under an HMAC of the service's secret: changing the key, the account or the expiry
 * breaks the signature, and a key outside the named account's prefix is refused even when signed.
 */
export class FileUrlSigner {
  constructor(
    private readonly key: Buffer,
    private readonly ttlSeconds: number,
    private readonly baseUrl: string,
  ) {}

  token(claims: FileClaims, now = Date.now()): string {
    const expires = Math.ceil((now / 1000 + this.ttlSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
    const payload = b64(JSON.stringify({ a: claims.accountId, k: claims.key, t: claims.contentType, n: claims.filename, e: expires }));
    return `${payload}.${this.sign(payload)}`;
  }

  /** The absolute download URL; the trailing file name is for people reading it and is not trusted. */
  url(claims: FileClaims, now = Date.now()): string {
    return `${this.baseUrl}${FILES_PATH}/${this.token(claims, now)}/${encodeURIComponent(claims.filename)}`;
  }

  /** The claims of a genuine, unexpired token for a key of its own account; undefined otherwise. */
  verify(token: string, now = Date.now()): FileClaims | undefined {
    const [payload, signature, extra] = token.split(".");
    if (!payload || !signature || extra !== undefined) return undefined;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    let claims: { a?: unknown; k?: unknown; t?: unknown; n?: unknown; e?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    } catch {
      return undefined;
    }
    if (typeof claims.a !== "number" || typeof claims.k !== "string" || typeof claims.e !== "number") return undefined;
    if (typeof claims.t !== "string" || typeof claims.n !== "string") return undefined;
    if (claims.e * 1000 <= now) return undefined;
    if (!isSafeKey(claims.k) || accountOfKey(claims.k) !== claims.a) return undefined;
    return { accountId: claims.a, key: claims.k, contentType: claims.t, filename: claims.n };
  }

  private sign(payload: string): string {
    return createHmac("sha256", this.key).update(payload).digest("base64url");
  }
}

const signers = new WeakMap<Settings, Map<string, FileUrlSigner>>();

/** The signer of the service secret (SECRET_KEY_BASE, or the one generated once per database). */
export async function fileUrlSigner(db: Knex): Promise<FileUrlSigner> {
  const secret = await widgetTokenSecret(db);
  const settings = appSettings();
  let bySecret = signers.get(settings);
  if (!bySecret) signers.set(settings, (bySecret = new Map()));
  let signer = bySecret.get(secret);
  if (!signer) {
    signer = new FileUrlSigner(createHmac("sha256", secret).update("convo-sched file urls").digest(), settings.fileUrlTtlSeconds, publicBaseUrl(settings));
    bySecret.set(secret, signer);
  }
  return signer;
}
