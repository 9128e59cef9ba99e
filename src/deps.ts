import type { Client } from "@temporalio/client";
import type { Database } from "./db";
import type { AuthCache } from "./services/authCache";

/** What the API and the activities need from the outside world, handed in rather than imported. */
export interface AppDeps {
  knex: Database;
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
