import { createHash, randomBytes } from "node:crypto";
import type { Knex } from "knex";
import type { User } from "../models/User";

/** How long an SSO link works, as Chatwoot's SsoAuthenticatable keeps its token. */
const SSO_TOKEN_TTL_MS = 5 * 60 * 1000;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Chatwoot's generate_sso_link: FRONTEND_URL/app/login with the email and a fresh one-time token
 * (64 hex characters, valid five minutes).
 */
export async function generateSsoLink(db: Knex, user: User, baseUrl: string): Promise<string> {
  const token = randomBytes(32).toString("hex");
  // Expired tokens of the user go as new ones come, so the table never grows without bound.
  await db("user_sso_tokens").where("user_id", user.id).where("expires_at", "<", new Date()).delete();
  await db("user_sso_tokens").insert({ user_id: user.id, token_digest: digest(token), expires_at: new Date(Date.now() + SSO_TOKEN_TTL_MS) });
  return `${baseUrl}/app/login?email=${encodeURIComponent(user.email)}&sso_auth_token=${token}`;
}

/** Uses up the user's token: true once for a valid, unexpired token, false ever after (one statement, so no race). */
export async function redeemSsoToken(db: Knex, userId: number, token: string): Promise<boolean> {
  const deleted = await db("user_sso_tokens")
    .where({ user_id: userId, token_digest: digest(token) })
    .where("expires_at", ">", new Date())
    .delete()
    .returning("id");
  return deleted.length > 0;
}
