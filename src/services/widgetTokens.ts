import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
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

/** Tokens are HS256 JWTs keyed with the secret's UTF-8 bytes, as Chatwoot's BaseTokenService signs them. */
const ALGORITHM = "HS256";
const keyOf = (secret: string) => new TextEncoder().encode(secret);
/** jose is an ES module, which this CommonJS build reaches through import(). */
const jose = () => import("jose");

export async function issueWidgetToken(db: Knex, claims: WidgetTokenClaims): Promise<string> {
  const { SignJWT } = await jose();
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime(`${EXPIRY_DAYS}d`)
    .sign(keyOf(await widgetTokenSecret(db)));
}

/**
 * The claims of a valid token; undefined for no token or any invalid one (malformed, another
 * algorithm, a bad signature, past its `exp`), which callers treat alike, as Chatwoot's decode_token
 * does when it answers `{}`.
 */
export async function decodeWidgetToken(db: Knex, token: string | undefined): Promise<WidgetTokenClaims | undefined> {
  if (!token) return undefined;
  const [{ jwtVerify }, secret] = await Promise.all([jose(), widgetTokenSecret(db)]);
  const claims = await jwtVerify(token, keyOf(secret), { algorithms: [ALGORITHM] }).then(
    ({ payload }) => payload,
    () => undefined,
  );
  if (typeof claims?.source_id !== "string" || typeof claims.inbox_id !== "number") return undefined;
  return { source_id: claims.source_id, inbox_id: claims.inbox_id };
}
