import { randomBytes, randomUUID, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** A 24-character base58 token, the same alphabet and length as Rails' has_secure_token. */
export function secureToken(length = 24): string {
  const bytes = randomBytes(length);
  let token = "";
  for (const byte of bytes) token += BASE58[byte % BASE58.length];
  return token;
}

export function uuid(): string {
  return randomUUID();
}

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** Whether the password matches a hash made by hashPassword; a missing or foreign hash never does. */
export async function verifyPassword(password: string, encrypted: string | null): Promise<boolean> {
  const [scheme, salt, key] = encrypted?.split("$") ?? [];
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await scryptAsync(password, Buffer.from(salt, "base64"), expected.length);
  return timingSafeEqual(actual, expected);
}
