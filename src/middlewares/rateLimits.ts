import { createHash } from "node:crypto";
import type { Middleware, Next } from "koa";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { Limit, RateLimits } from "../config";
import type { Database } from "../db";
import type { BlockedAddresses } from "../auth/blockedAddresses";
import { Throttled } from "../errors";
import type { AppContext, TokenGuard } from "../http/context";
import { rateLimited } from "../lib/metrics";

/** What Rack::Attack answers a throttled request with (Chatwoot keeps its default responder). */
export const THROTTLED_BODY = "Retry later\n";

/** The failed-authentication counters' prefix in rate_limits. */
export const AUTH_FAILURES = "auth_failures/address";

const PUBLIC_INBOX_PATH = /^\/public\/api\/v1\/inboxes\/([^/]+)/i;

/**
 * The path as the router compares it: without case and without trailing slashes (the router takes
 * `/API/V1/...` and `/x/` for `/x`). Every rule reads this one form, so no spelling of a path the
 * router routes escapes the rule written for it.
 */
function routedPath(ctx: AppContext): string {
  return ctx.path.toLowerCase().replace(/\/+$/, "") || "/";
}

/** Keys may be whatever a client sent (a website token of a megabyte, NUL bytes): stored as a digest. */
function digest(value: string): string {
  return createHash("sha256").update(value).digest("base64url").slice(0, 32);
}

function param(ctx: AppContext, name: string): string | undefined {
  const fromBody = (ctx.request as { body?: Record<string, unknown> }).body?.[name];
  const value = typeof fromBody === "string" ? fromBody : ctx.query[name];
  return typeof value === "string" ? value : undefined;
}

function isWidget(ctx: AppContext): boolean {
  const path = routedPath(ctx);
  return path === "/api/v1/widget" || path.startsWith("/api/v1/widget/");
}

/** The inbox a public request names: the web widget's website_token, or the client API's inbox identifier. */
function publicInbox(ctx: AppContext): string | undefined {
  if (isWidget(ctx)) {
    const token = param(ctx, "website_token");
    return token ? `widget:${digest(token)}` : undefined;
  }
  const identifier = PUBLIC_INBOX_PATH.exec(ctx.path)?.[1];
  return identifier ? `api:${digest(identifier)}` : undefined;
}

function isPublic(ctx: AppContext): boolean {
  return isWidget(ctx) || routedPath(ctx).startsWith("/public/api/");
}

function isSignIn(ctx: AppContext): boolean {
  return ctx.method === "POST" && routedPath(ctx) === "/auth/sign_in";
}

/** Rack::Attack's login/email key: the email lower-cased with all whitespace removed. */
function signInEmail(ctx: AppContext): string | undefined {
  const email = param(ctx, "email")?.toLowerCase().replace(/\s+/g, "");
  return email ? digest(email) : undefined;
}

/** A throttle: which requests it counts, under which key (undefined: not counted). */
interface Rule {
  name: string;
  limit: Limit;
  key(ctx: AppContext): string | undefined;
}

function rules(limits: RateLimits): Rule[] {
  return [
    // Chatwoot's throttle on widget page loads without a conversation: each one starts a new contact.
    {
      name: "widget_sessions/address",
      limit: limits.widgetSessionsPerAddress,
      key: (ctx) => (ctx.method === "POST" && routedPath(ctx) === "/api/v1/widget/config" && !ctx.get("x-auth-token") ? ctx.ip : undefined),
    },
    { name: "public/address", limit: limits.publicPerAddress, key: (ctx) => (isPublic(ctx) ? ctx.ip : undefined) },
    { name: "public/inbox", limit: limits.publicPerInbox, key: (ctx) => (isPublic(ctx) ? publicInbox(ctx) : undefined) },
    {
      name: "platform_user_creates/address",
      limit: limits.platformUserCreatesPerAddress,
      key: (ctx) => (ctx.method === "POST" && routedPath(ctx) === "/platform/api/v1/users" ? ctx.ip : undefined),
    },
    // Chatwoot's login/ip and login/email: every sign-in attempt counts, right or wrong.
    { name: "sign_in/address", limit: limits.signInPerAddress, key: (ctx) => (isSignIn(ctx) ? ctx.ip : undefined) },
    { name: "sign_in/email", limit: limits.signInPerEmail, key: (ctx) => (isSignIn(ctx) ? signInEmail(ctx) : undefined) },
  ];
}

function limiter(knex: Database, name: string, limit: Limit): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: knex,
    storeType: "knex",
    tableName: "rate_limits",
    tableCreated: true,
    keyPrefix: name,
    points: limit.points,
    duration: limit.seconds,
  });
}

function throttle(ctx: AppContext, rule: string, msBeforeNext: number): void {
  rateLimited.inc({ rule });
  const throttled = new Throttled(msBeforeNext);
  ctx.status = throttled.status;
  ctx.set("Retry-After", String(throttled.retryAfter));
  ctx.type = "text/plain";
  ctx.body = THROTTLED_BODY;
}

/** A counter the database cannot reach must not take the API down with it: the request goes on. */
function storeFailed(ctx: AppContext, rule: string, err: unknown): void {
  ctx.log.warn({ err, rule }, "rate limit not counted: its store failed");
}

/**
 * Chatwoot's Rack::Attack throttles, counted in PostgreSQL so every API instance shares them. A
 * throttled request gets 429 with Retry-After and Rack::Attack's body. Failed authentication is
 * guarded where tokens are looked up (ctx.tokenGuard, called by the authentication middleware of
 * whichever route the router chose): an address that has guessed too often is refused before its
 * token is looked at, so it learns nothing more, even from a right guess. With `blocked` (the API
 * process's mirror of blocked addresses) that check reads no counter while the mirror knows.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mounted before the app's own state and context types apply
export function rateLimits(knex: Database, limits: RateLimits, blocked?: BlockedAddresses): Middleware<any, any> {
  const counted = rules(limits).map((rule) => ({ rule, limiter: limiter(knex, rule.name, rule.limit) }));
  const authFailures = limiter(knex, AUTH_FAILURES, limits.authFailuresPerAddress);

  /** How long the address stays blocked for failed authentication (0: it is not). */
  const blockedFor = async (ctx: AppContext): Promise<number> => {
    const mirrored = blocked?.blockedFor(ctx.ip);
    if (mirrored !== undefined) return mirrored;
    const failures = await authFailures.get(ctx.ip);
    return failures && failures.consumedPoints >= limits.authFailuresPerAddress.points ? Math.max(failures.msBeforeNext, 1) : 0;
  };

  const tokenGuard: TokenGuard = {
    async before(ctx) {
      let msBeforeNext = 0;
      try {
        msBeforeNext = await blockedFor(ctx);
      } catch (err) {
        storeFailed(ctx, AUTH_FAILURES, err);
      }
      if (msBeforeNext > 0) {
        rateLimited.inc({ rule: AUTH_FAILURES });
        throw new Throttled(msBeforeNext);
      }
    },
    async failed(ctx) {
      try {
        const failures = await authFailures.penalty(ctx.ip);
        if (failures.consumedPoints >= limits.authFailuresPerAddress.points) await blocked?.announce(ctx.ip, failures.msBeforeNext);
      } catch (err) {
        storeFailed(ctx, AUTH_FAILURES, err);
      }
    },
  };

  return async (ctx: AppContext, next: Next) => {
    ctx.tokenGuard = tokenGuard;
    for (const { rule, limiter } of counted) {
      const key = rule.key(ctx);
      if (key === undefined) continue;
      try {
        await limiter.consume(key);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return throttle(ctx, rule.name, rejection.msBeforeNext);
        storeFailed(ctx, rule.name, rejection);
      }
    }
    await next();
  };
}
