import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * HS256 JSON Web Tokens, the only kind this service issues (Chatwoot's BaseTokenService uses the
 * same algorithm). A dependency would bring every algorithm and its pitfalls for two functions.
 */

const HEADER = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString("base64url");
}

function signature(signingInput: string, secret: string): Buffer {
  return createHmac("sha256", secret).update(signingInput).digest();
}

export function signJwt(payload: Record<string, unknown>, secret: string): string {
  const signingInput = `${HEADER}.${base64url(JSON.stringify(payload))}`;
  return `${signingInput}.${signature(signingInput, secret).toString("base64url")}`;
}

function decodePart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The payload of a token this secret signed, or undefined for anything else (malformed, another
 * algorithm, a bad signature, past its `exp`): callers treat every failure alike, as Chatwoot's
 * decode_token does when it answers `{}`.
 */
export function verifyJwt(token: string, secret: string, now = Date.now()): Record<string, unknown> | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [header, payload, given] = parts as [string, string, string];
  // Checking the header's own algorithm, not trusting it, is what keeps "alg: none" out.
  if (decodePart(header)?.alg !== "HS256") return undefined;
  const expected = signature(`${header}.${payload}`, secret);
  const actual = Buffer.from(given, "base64url");
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  const claims = decodePart(payload);
  if (!claims) return undefined;
  if (typeof claims.exp === "number" && claims.exp * 1000 <= now) return undefined;
  return claims;
}
