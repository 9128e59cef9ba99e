import type { Knex } from "knex";
import type { Model, QueryBuilder } from "objection";
import type { Client } from "pg";
import { OneRoundTrip, type Statement } from "./oneRoundTrip";
import { type InList, isIn, Sql, sql, sqlText } from "./sql";

type Row = Record<string, unknown>;

/**
 * Independent statements answered in one round trip (src/db/oneRoundTrip.ts), on one connection:
 * the transaction's, or one of the pool's for the time of the round trip. A text a batch has sent
 * before is a named statement of the connection, parsed once there. The statements go to pg, not
 * through knex: knex's query events do not see them, so a batch never writes the tables the auth
 * cache watches (it is for reads, and for the few writes of the hot paths that return rows).
 */
export class Batch {
  private readonly queued: (Statement & { resolve: (rows: Row[]) => void })[] = [];

  constructor(private readonly db: Knex) {}

  /** The rows of one statement, in a batch of its own. */
  static async rowsOf<T = Row>(db: Knex, query: Knex.QueryBuilder | Sql): Promise<T[]> {
    const batch = new Batch(db);
    const rows = batch.rows<T>(query);
    await batch.run();
    return rows;
  }

  /**
   * Queues a statement (a knex query or an Sql); its rows once run() has answered. When the batch
   * fails, run() throws and the statements never settle: callers chain `.then` on them before run(),
   * and a rejection of each of those chains would go unhandled (and end the process).
   */
  rows<T = Row>(query: Knex.QueryBuilder | Sql): Promise<T[]> {
    const { text, values } = query instanceof Sql ? query.numbered() : fromKnex(query);
    return new Promise<Row[]>((resolve) => this.queued.push({ text, values, name: statementName(text), resolve })) as Promise<T[]>;
  }

  /**
   * Models of the table's rows whose `column` is one of `ids` (and whose columns in `also` have those
   * values, an Sql being a scalar subquery), in `orderBy`'s order; none without ids, without a
   * statement. Written here rather than built by Objection: the text is the same for every request.
   */
  modelsWhere<M extends Model>(
    modelClass: typeof Model & (new () => M),
    column: string,
    ids: InList,
    also: Record<string, number | Sql> = {},
    orderBy?: string,
  ): Promise<M[]> {
    if (!("subquery" in ids) && !ids.length) return Promise.resolve([]);
    const conditions = Object.entries(also).map(([name, value]) =>
      value instanceof Sql ? sql` and ${sqlText(`"${name}"`)} = (${value})` : sql` and ${sqlText(`"${name}"`)} = ${value}`,
    );
    const where = sql`select * from ${sqlText(`"${modelClass.tableName}"`)} where ${isIn(`"${column}"`, ids)}`;
    const order = sqlText(orderBy ? ` order by ${orderBy}` : "");
    return this.rows(sql`${conditions.reduce((text, condition) => sql`${text}${condition}`, where)}${order}`).then((rows) =>
      rows.map((row) => modelClass.fromDatabaseJson(row) as M),
    );
  }

  /** An Objection query's models, as the query itself would build them. */
  models<M extends Model>(query: QueryBuilder<M, M[]>): Promise<M[]> {
    const modelClass = query.modelClass();
    return this.rows(query.toKnexQuery()).then((rows) => rows.map((row) => modelClass.fromDatabaseJson(row) as M));
  }

  /** Sends every queued statement, in one round trip; fails with the first that failed. */
  async run(): Promise<void> {
    const statements = this.queued.splice(0);
    if (!statements.length) return;
    if (this.db.isTransaction && (this.db as Knex.Transaction).isCompleted()) throw new Error("A batch on a transaction that has ended");
    // A transaction's knex client answers with the transaction's connection, and takes nothing back.
    const client = (await this.db.client.acquireConnection()) as Client;
    let sets: Row[][];
    try {
      const send = (named: boolean) =>
        new Promise<Row[][]>((resolve, reject) =>
          client.query(new OneRoundTrip(named ? statements : statements.map((s) => ({ ...s, name: undefined })), resolve, reject)),
        );
      sets = await send(true).catch((error: unknown) => {
        // A table changed under a named statement (a migration added a column to a `select *`), or
        // the connection lost its statements: PostgreSQL refuses them; every text gets a new name,
        // and outside a transaction (which the refusal has aborted) the batch runs again.
        if (!isStale(error)) throw error;
        forgetNames();
        if (this.db.isTransaction) throw error;
        return send(false);
      });
    } finally {
      await this.db.client.releaseConnection(client);
    }
    statements.forEach((statement, i) => statement.resolve(sets[i]!));
  }
}

/** A knex query's text, as knex would send it to pg, and its values. */
function fromKnex(query: Knex.QueryBuilder): { text: string; values: unknown[] } {
  const { sql: text, bindings } = query.toSQL().toNative();
  return { text, values: [...bindings] };
}

/** "cached plan must not change result type", or "prepared statement ... does not exist". */
function isStale(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === "26000" || (code === "0A000" && /cached plan/.test(String(message)));
}

/** Statement texts seen once, and the names of those seen again (capped, as PostgreSQL keeps each per connection). */
const seen = new Set<string>();
const names = new Map<string, string>();
const MAX_SEEN = 10_000;
const MAX_NAMES = 1000;
let naming = true;
let named = 0;

function forgetNames(): void {
  seen.clear();
  names.clear();
}

/** DATABASE_PREPARED_STATEMENTS=off: no statement is named, for a pooler that moves sessions between connections. */
export function nameStatements(enabled: boolean): void {
  naming = enabled;
}

/**
 * The name a recurring text goes by: PostgreSQL then parses and plans it once per connection rather
 * than on every request. A text sent once (values written in, a one-off report) stays unnamed, so
 * that it does not fill the server's memory with plans never used again.
 */
function statementName(text: string): string | undefined {
  if (!naming) return undefined;
  const known = names.get(text);
  if (known || names.size >= MAX_NAMES) return known;
  if (!seen.delete(text)) {
    if (seen.size >= MAX_SEEN) seen.clear();
    seen.add(text);
    return undefined;
  }
  const name = `batch_${++named}`;
  names.set(text, name);
  return name;
}
