import type { Client } from "@temporalio/client";
import type { Database } from "./db";

/** What the API and the activities need from the outside world, handed in rather than imported. */
export interface AppDeps {
  knex: Database;
  temporal: {
    client: Client;
    taskQueue: string;
  };
}
