/*
 * knex's PostgreSQL client, with a transaction's BEGIN sent with its first statement rather than in a
 * round trip of its own, and its COMMIT with its last one when a trip says it is the last. On this
 * machine a round trip costs both processes more than most statements do (the socket write and the
 * wake-up of the other side), and a message's transaction took six.
 */
import ClientPg from "knex/lib/dialects/postgres";
import TransactionPg from "knex/lib/dialects/postgres/execution/pg-transaction";
import type { Knex } from "knex";
import type { Client } from "pg";

/** Connections whose transaction has begun for knex but whose BEGIN is still to be sent. */
const beginPending = new WeakSet<Client>();

/**
 * True once for a connection whose BEGIN is still to be sent: the caller sends it ahead of its own
 * statements (a trip puts it in the same write).
 */
export function takePendingBegin(connection: Client): boolean {
  return beginPending.delete(connection);
}

/** Connections whose transaction a trip has committed (Trip.run with commit), for knex's commit to skip its own. */
const committedByTrip = new WeakSet<Client>();

export function noteCommittedByTrip(connection: Client): void {
  committedByTrip.add(connection);
}

/**
 * Its BEGIN waits for the first statement. PostgreSQL takes a transaction's snapshot at its first
 * statement, not at BEGIN, so nothing a statement sees changes; now() is the BEGIN's time, still
 * before every statement of the transaction.
 */
class PipelinedBeginTransaction extends TransactionPg {
  override begin(connection: Client): Promise<unknown> {
    // An isolation level or READ ONLY goes in a BEGIN of knex's own.
    if (this.isolationLevel || this.readOnly) return super.begin(connection);
    beginPending.add(connection);
    return Promise.resolve();
  }

  override commit(connection: Client, value: unknown): Promise<unknown> {
    if (!committedByTrip.delete(connection)) return super.commit(connection, value);
    // What knex's commit does once PostgreSQL has answered its COMMIT (test/service/trip.test.ts holds knex to it).
    this._completed = true;
    this._resolver(value);
    return Promise.resolve();
  }
}

export class PgClient extends ClientPg {
  override transaction(container: unknown, config: unknown, outerTx: unknown): Knex.Transaction {
    return new PipelinedBeginTransaction(this, container, config, outerTx) as unknown as Knex.Transaction;
  }

  override async _query(connection: Client, obj: unknown): Promise<unknown> {
    await sendPendingBegin(connection);
    return super._query(connection, obj);
  }

  override async _stream(connection: Client, obj: unknown, stream: unknown, options: unknown): Promise<unknown> {
    await sendPendingBegin(connection);
    return super._stream(connection, obj, stream, options);
  }
}

/** Ahead of a statement knex sends itself (not a trip): a pending BEGIN, in a round trip of its own. */
async function sendPendingBegin(connection: Client): Promise<void> {
  if (takePendingBegin(connection)) await connection.query("BEGIN");
}
