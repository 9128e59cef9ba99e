import type { RouterContext } from "@koa/router";
import type { Account } from "../models/Account";
import type { AccountUser } from "../models/AccountUser";
import type { AgentBot } from "../models/AgentBot";
import type { PlatformApp } from "../models/PlatformApp";
import type { User } from "../models/User";
import type { AppDeps } from "../deps";

/** Who is calling, by the owner of the api_access_token. */
export type Principal = { kind: "user"; user: User } | { kind: "agent_bot"; bot: AgentBot } | { kind: "platform_app"; app: PlatformApp };

export interface AppState {
  principal?: Principal;
  /** The account named in the path, once the caller is known to belong to it. */
  account?: Account;
  /** The calling user's membership of that account (absent for bots). */
  membership?: AccountUser;
}

/** The failed-authentication throttle, as the authentication middleware sees it (absent without rate limits). */
export interface TokenGuard {
  /** Throws Throttled when the caller's address has failed authentication too often. */
  before(ctx: AppContext): Promise<void>;
  /** Counts a token that matched no one. */
  failed(ctx: AppContext): Promise<void>;
}

/** Counts a widget visitor's write; throws Throttled over the per-visitor limit (absent without rate limits). */
export type VisitorThrottle = (ctx: AppContext, contactId: number) => Promise<void>;

export interface AppCustomContext {
  deps: AppDeps;
  tokenGuard?: TokenGuard;
  visitorThrottle?: VisitorThrottle;
}

export type AppContext = RouterContext<AppState, AppCustomContext>;
