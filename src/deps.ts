import type { Client } from "@temporalio/client";
import type { Settings } from "./config";
import type { Database } from "./db";
import type { AuthCache } from "./auth/authCache";

/** What the API and the activities need from the outside world, handed in rather than imported. */
export interface AppDeps {
  knex: Database;
  /** Read once at start (loadSettings); the harness merges a test's overrides over them. */
  settings: Settings;
  /** Principals and account scopes kept between requests (API processes); without it every request reads them. */
  authCache?: AuthCache;
  temporal: {
    client: Client;
    /** This installation's queue (see taskQueueFor). */
    taskQueue: string;
    /** The database's identity; every workflow id carries it (src/temporal/contracts.ts). */
    installationId: string;
  };
}
