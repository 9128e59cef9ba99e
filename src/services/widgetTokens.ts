import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { signJwt, verifyJwt } from "../lib/jwt";
import { appSettings } from "../config";

/** What a widget session token carries, as Chatwoot's Widget::TokenService payload. */
export interface WidgetTokenClaims {
  source_id: string;
  inbox_id: number;
}

/** Chatwoot's Widget::TokenService::DEFAULT_EXPIRY_DAYS. */
const EXPIRY_DAYS = 180;
const SECRET_NAME = "secret_key_base";

const generated = new WeakMap<Knex, Promise<string>>();

/**
 * The key widget tokens are signed with: SECRET_KEY_BASE when set (the same key Chatwoot signs with,
 * so sessions carry over from a Chatwoot with that key), else one generated once per database. The
 * first process to insert it wins; every other reads the same row, so all API processes agree.
 */
export function widgetTokenSecret(db: Knex): Promise<string> {
  const configured = appSettings().secretKeyBase;
  if (configured) return Promise.resolve(configured);
  let secret = generated.get(db);
  if (!secret) {
    secret = (async () => {
      await db("service_secrets")
        .insert({ name: SECRET_NAME, value: randomBytes(64).toString("hex") })
        .onConflict("name")
        .ignore();
      return (await db("service_secrets").where("name", SECRET_NAME).first<{ value: string }>("value"))!.value;
    })();
    // A failed read (database down) must not be remembered as the answer.
    secret.catch(() => generated.delete(db));
    generated.set(db, secret);
  }
  return secret;
}

export async function issueWidgetToken(db: Knex, claims: WidgetTokenClaims): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return signJwt({ ...claims, iat, exp: iat + EXPIRY_DAYS * 86_400 }, await widgetTokenSecret(db));
}

/** The claims of a valid token; undefined for no token or any invalid one, which callers treat alike. */
export async function decodeWidgetToken(db: Knex, token: string | undefined): Promise<WidgetTokenClaims | undefined> {
  if (!token) return undefined;
  const claims = verifyJwt(token, await widgetTokenSecret(db));
  if (typeof claims?.source_id !== "string" || typeof claims.inbox_id !== "number") return undefined;
  return { source_id: claims.source_id, inbox_id: claims.inbox_id };
}
