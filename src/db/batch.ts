import type { Knex } from "knex";
import type { Model, QueryBuilder } from "objection";
import { type InList, isIn, Sql, sql, sqlText } from "./sql";

type Row = Record<string, unknown>;

/**
 * Statements sent together on one connection: the database's connections are pg clients in
 * pipeline mode (src/db/index.ts), so pg writes each statement as soon as it is given and the batch
 * costs one round trip, not one per statement. On a transaction the statements go to its connection,
 * in the order given; outside one, the batch takes a connection of the pool for its statements and
 * gives it back when run() has their answers.
 * Everything goes through knex (its query events see every statement), and a text a batch has sent
 * before is one of pg's named statements, which pg prepares once per connection.
 */
export class Batch {
  private connection?: Promise<unknown>;
  private readonly sent: Promise<unknown>[] = [];

  constructor(private readonly db: Knex) {}

  /** The rows of one statement, in a batch of its own. */
  static async rowsOf<T = Row>(db: Knex, query: Knex.QueryBuilder | Sql): Promise<T[]> {
    const batch = new Batch(db);
    const rows = batch.rows<T>(query);
    await batch.run();
    return rows;
  }

  /** Sends a statement (a knex query or an Sql); its rows. */
  rows<T = Row>(query: Knex.QueryBuilder | Sql): Promise<T[]> {
    const { text, values } = query instanceof Sql ? query : fromKnex(query);
    const raw = () => this.db.raw(text, values as Knex.RawBinding[]);
    const name = statementName(text);
    const result = this.send(name ? raw().options({ name }) : raw())
      .catch((error: unknown) => {
        // A table changed under a named statement (a migration added a column to a `select *`), or
        // the connection lost its statements: PostgreSQL refuses it; every text gets a new name,
        // and outside a transaction (which the refusal has aborted) the statement runs again.
        if (!name || !isStale(error)) throw error;
        forgetNames();
        if (this.db.isTransaction) throw error;
        return this.send(raw());
      })
      .then((answer) => (answer as { rows: T[] }).rows);
    // A caller that never awaits a statement after run() has failed must not crash the process.
    result.catch(() => undefined);
    this.sent.push(result);
    return result;
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

  /** Waits for every statement sent so far (failing with the first that failed) and gives the connection back. */
  async run(): Promise<void> {
    const outcomes: PromiseSettledResult<unknown>[] = [];
    while (this.sent.length) outcomes.push(...(await Promise.allSettled(this.sent.splice(0))));
    const connection = this.connection;
    this.connection = undefined;
    if (connection) await this.db.client.releaseConnection(await connection);
    const failed = outcomes.find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;
  }

  private send(raw: Knex.Raw): Promise<unknown> {
    // A transaction's statements already share its connection.
    if (this.db.isTransaction) return Promise.resolve(raw);
    this.connection ??= this.db.client.acquireConnection() as Promise<unknown>;
    return this.connection.then((connection) => raw.connection(connection));
  }
}

/** A knex query's text with `?` placeholders and its values (knex's raw numbers them as it does the query's). */
function fromKnex(query: Knex.QueryBuilder): Sql {
  const { sql: text, bindings } = query.toSQL();
  return new Sql(text, bindings);
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
