/** The parts of knex's PostgreSQL dialect that src/db/pgClient.ts extends (CommonJS classes without typings). */
declare module "knex/lib/dialects/postgres" {
  import type { Knex } from "knex";
  import type { Client } from "pg";
  export default class ClientPg extends Knex.Client {
    _query(connection: Client, obj: unknown): Promise<unknown>;
    _stream(connection: Client, obj: unknown, stream: unknown, options: unknown): Promise<unknown>;
  }
}

declare module "knex/lib/dialects/postgres/execution/pg-transaction" {
  import type { Client } from "pg";
  export default class TransactionPg {
    constructor(client: unknown, container: unknown, config?: unknown, outerTx?: unknown);
    isolationLevel?: string;
    readOnly?: boolean;
    begin(connection: Client): Promise<unknown>;
    commit(connection: Client, value: unknown): Promise<unknown>;
    /** Settles the transaction's promise with the handler's value (knex's commit does, once PostgreSQL has answered). */
    _resolver(value: unknown): void;
    _completed: boolean;
  }
}
