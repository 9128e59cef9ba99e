import type { Next } from "koa";
import { BotEndpointDenied, InvalidAccessToken, InvalidPlatformToken, MissingAccessToken } from "../errors";
import type { AppContext, Principal } from "../http/context";
import { AccessToken } from "../models/AccessToken";
import { AgentBot } from "../models/AgentBot";
import { PlatformApp } from "../models/PlatformApp";
import { User } from "../models/User";
import { requestCopy } from "../auth/authCache";

/** Chatwoot reads `api_access_token`; HTTP clients often send it as `Api-Access-Token`. */
function tokenFrom(ctx: AppContext): string | undefined {
  const raw = ctx.get("api_access_token") || ctx.get("api-access-token");
  return raw ? raw.trim() : undefined;
}

/**
 * The token's owner, behind the failed-authentication throttle of whichever route took the request:
 * an address over its limit is refused before its token is looked at; a token matching no one counts.
 */
async function principalFor(ctx: AppContext, token: string): Promise<Principal | undefined> {
  await ctx.tokenGuard?.before(ctx);
  const principal = await cachedPrincipal(ctx, token);
  if (!principal) await ctx.tokenGuard?.failed(ctx);
  return principal;
}

/** From the auth cache when there is one; each request gets its own copy of the cached models, so nothing a handler does to them leaks. */
async function cachedPrincipal(ctx: AppContext, token: string): Promise<Principal | undefined> {
  const cache = ctx.deps.authCache;
  const principal = cache ? await cache.get(`token:${token}`, () => loadPrincipal(token)) : await loadPrincipal(token);
  return principal && copyOf(principal);
}

function copyOf(principal: Principal): Principal {
  switch (principal.kind) {
    case "user":
      return { kind: "user", user: requestCopy(principal.user) };
    case "agent_bot":
      return { kind: "agent_bot", bot: requestCopy(principal.bot) };
    case "platform_app":
      return { kind: "platform_app", app: requestCopy(principal.app) };
  }
}

async function loadPrincipal(token: string): Promise<Principal | undefined> {
  const accessToken = await AccessToken.query().findOne({ token });
  if (!accessToken) return undefined;
  switch (accessToken.owner_type) {
    case "User": {
      const user = await User.query().findById(accessToken.owner_id);
      return user && { kind: "user", user };
    }
    case "AgentBot": {
      const bot = await AgentBot.query().findById(accessToken.owner_id);
      return bot && { kind: "agent_bot", bot };
    }
    case "PlatformApp": {
      const app = await PlatformApp.query().findById(accessToken.owner_id);
      return app && { kind: "platform_app", app };
    }
  }
}

export type ApplicationAuth = "user" | "user_or_bot";

/** Guards /api/v1: users always, agent bots only on the endpoints Chatwoot opens to them. */
export function authenticateApplication(auth: ApplicationAuth) {
  return async (ctx: AppContext, next: Next) => {
    const token = tokenFrom(ctx);
    if (!token) throw MissingAccessToken();
    const principal = await principalFor(ctx, token);
    if (!principal) throw InvalidAccessToken();
    if (principal.kind === "platform_app") throw BotEndpointDenied();
    if (principal.kind === "agent_bot" && auth !== "user_or_bot") throw BotEndpointDenied();
    ctx.state.principal = principal;
    await next();
  };
}

/** Guards /platform/api/v1: only platform app tokens. */
export async function authenticatePlatform(ctx: AppContext, next: Next) {
  const token = tokenFrom(ctx);
  const principal = token ? await principalFor(ctx, token) : undefined;
  if (token && !principal) throw InvalidPlatformToken();
  if (principal?.kind !== "platform_app") throw InvalidPlatformToken();
  ctx.state.principal = principal;
  await next();
}
