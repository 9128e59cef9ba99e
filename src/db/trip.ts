import type { Knex } from "knex";
import type { Model, QueryBuilder } from "objection";
import pg, { type Client, type Connection, type FieldDef, type Submittable } from "pg";
import { prepareValue } from "pg/lib/utils";
import { noteCommittedByTrip, takePendingBegin } from "./pgClient";
import { type InList, isIn, Sql, sql, sqlText } from "./sql";

type Row = Record<string, unknown>;

interface Statement {
  /** Text with PostgreSQL's `$1` placeholders. */
  text: string;
  /** Values for the placeholders, converted as pg converts any query's values. */
  values: (string | Buffer | null)[];
  resolve: (rows: Row[]) => void;
}

/** What the database's knex config says of trips (a transaction's client shares its config). */
export interface TripOptions {
  /** false: no statement is prepared (DATABASE_PREPARED_STATEMENTS=off). */
  tripPreparedStatements?: boolean;
}

/** What a trip needs of knex's client (a transaction's client answers with the transaction's connection). */
interface KnexClient {
  config: TripOptions;
  acquireConnection(): Promise<Client>;
  releaseConnection(connection: Client): Promise<void>;
  emit(event: "query", query: { method: "raw"; sql: string; bindings: unknown[]; __knexUid?: string; __knexTxId?: string }): boolean;
}

/** The ids knex gives a connection of its pool and the transaction holding it. */
type KnexConnection = Client & { __knexUid?: string; __knexTxId?: string };

/**
 * Independent SELECTs sent to PostgreSQL at once and answered in one round trip, one result set
 * each, rows parsed by the same type parsers as any query. On a busy machine every statement's round
 * trip (and the wake-up of its backend) costs more than its execution, so a read that needs six
 * lookups is much cheaper as one trip than as six queries, parallel or not. The trip goes to the pg
 * connection itself, not through knex's query runner and pg's result builder: on the hot reads those
 * cost more than reading the rows (pg sets up every result set's columns through a dictionary-mode
 * object). Values travel apart from the text, and a text that recurs is a prepared statement of the
 * connection (see preparedName).
 */
export class Trip {
  private readonly statements: Statement[] = [];

  constructor(private readonly db: Knex) {}

  /** The rows of one SELECT, in a trip of its own. */
  static async rowsOf<T = Row>(db: Knex, query: Knex.QueryBuilder | Sql): Promise<T[]> {
    const trip = new Trip(db);
    const rows = trip.rows<T>(query);
    await trip.run();
    return rows;
  }

  /** Queues a SELECT (a knex query or an Sql); its rows once run() has answered. */
  rows<T = Row>(query: Knex.QueryBuilder | Sql): Promise<T[]> {
    const { text, values } = query instanceof Sql ? query : fromKnex(query);
    // Converted now, so a value pg cannot send fails before anything is.
    const prepared = values.map((value) => prepareValue(value));
    return new Promise<Row[]>((resolve) => this.statements.push({ text: numbered(text), values: prepared, resolve })) as Promise<T[]>;
  }

  /**
   * Models of the table's rows whose `column` is one of `ids` (and whose columns in `also` have those
   * values, an Sql being a scalar subquery), in `orderBy`'s order; none without ids, without a
   * statement. The text is written here, not built by knex and Objection: on the hot reads their
   * building cost more than PostgreSQL's answer.
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

  /** Queues an Objection query; its models (as the query itself would build them) once run() has answered. */
  models<M extends Model>(query: QueryBuilder<M, M[]>): Promise<M[]> {
    const modelClass = query.modelClass();
    return this.rows(query.toKnexQuery()).then((rows) => rows.map((row) => modelClass.fromDatabaseJson(row) as M));
  }

  /**
   * Sends every queued statement at once. With `commit`, the trip's transaction (a top-level one)
   * commits with them, in the same round trip: the caller has nothing left to send in it, and knex's
   * commit then sends nothing.
   */
  async run({ commit = false }: { commit?: boolean } = {}): Promise<void> {
    const statements = this.statements.splice(0);
    if (!statements.length) return;
    // A transaction's connection goes back to the pool when it ends: a trip must not run on it after.
    if (this.db.isTransaction && (this.db as Knex.Transaction).isCompleted()) throw new Error("A trip on a transaction that has ended");
    if (commit && (!this.db.isTransaction || (this.db as { parentTransaction?: unknown }).parentTransaction)) {
      throw new Error("A trip commits only a top-level transaction");
    }
    const client = this.db.client as KnexClient;
    const connection = await client.acquireConnection();
    // Listeners of knex's query event (statement counts, the auth cache's watch on commits) see the
    // trip as the one query it is, and its COMMIT as knex's own, on the same connection and transaction.
    const { __knexUid, __knexTxId } = connection as KnexConnection;
    const announce = (sql: string, bindings: unknown[]) => client.emit("query", { method: "raw", sql, bindings, __knexUid, __knexTxId });
    announce(
      statements.map((s) => s.text).join(";\n"),
      statements.flatMap((s) => s.values),
    );
    if (commit) announce("COMMIT;", []);
    let sets: Row[][];
    try {
      const prepare = client.config.tripPreparedStatements !== false;
      const send = () =>
        new Promise<Row[][]>((resolve, reject) =>
          connection.query(new TripAnswer(statements, { prepare, begin: takePendingBegin(connection), commit }, resolve, reject)),
        );
      sets = await send().catch((error: unknown) => {
        // A table changed under a prepared statement (a migration added a column to a `select *`),
        // or the connection lost its statements (DEALLOCATE, a pooler): PostgreSQL refuses the trip;
        // the connection's statements are prepared afresh, and outside a transaction (which the
        // refusal has aborted) the trip runs again.
        if (!isStalePrepared(error)) throw error;
        forgetPrepared(connection.connection);
        if (this.db.isTransaction) throw error;
        return send();
      });
      if (commit) noteCommittedByTrip(connection);
    } finally {
      await client.releaseConnection(connection);
    }
    if (sets.length !== statements.length) throw new Error(`A trip of ${statements.length} statements got ${sets.length} result sets`);
    statements.forEach((statement, i) => statement.resolve(sets[i]!));
  }
}

/** A knex query's text (compiled once: knex's toString would compile it again) and its values. */
function fromKnex(query: Knex.QueryBuilder): Sql {
  const { sql: text, bindings } = query.toSQL();
  return new Sql(text, bindings);
}

/** "cached plan must not change result type", or "prepared statement ... does not exist". */
function isStalePrepared(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === "26000" || (code === "0A000" && /cached plan/.test(String((error as Error).message)));
}

/**
 * The prepared statements of a connection: the names it has parsed (once PostgreSQL has answered
 * their Parse) with the columns of their rows once a result has described them, under a generation
 * that a stale plan moves on, as the server may still hold the old ones.
 */
interface Prepared {
  generation: number;
  names: Map<string, RowShape | undefined>;
}

const preparedOf = new WeakMap<Connection, Prepared>();

function prepared(connection: Connection): Prepared {
  let known = preparedOf.get(connection);
  if (!known) preparedOf.set(connection, (known = { generation: 0, names: new Map() }));
  return known;
}

function forgetPrepared(connection: Connection): void {
  const known = prepared(connection);
  known.generation++;
  known.names.clear();
}

/** Statement texts by how often a trip has sent them, and the names of those that recur. */
const sightings = new Map<string, number>();
const names = new Map<string, string>();
const MAX_SIGHTINGS = 10_000;
const MAX_NAMES = 1000;

/**
 * The name under which a text is a prepared statement, once it has been sent before: text that
 * differs from one request to the next (values written in, a list's every length) would only fill
 * the server's memory with plans never used again. The hot statements, whose values are apart, each
 * get one, so PostgreSQL parses them once per connection rather than on every request (on GET one
 * conversation that was most of PostgreSQL's work).
 */
function preparedName(text: string): string | undefined {
  const name = names.get(text);
  if (name || names.size >= MAX_NAMES) return name;
  const seen = (sightings.get(text) ?? 0) + 1;
  if (seen < 2) {
    if (sightings.size >= MAX_SIGHTINGS) sightings.clear();
    sightings.set(text, seen);
    return undefined;
  }
  sightings.delete(text);
  const named = `trip_${names.size + 1}`;
  names.set(text, named);
  return named;
}

type TypeParser = (text: string) => unknown;

/** The columns of a result set, and a function that makes a row of them from their texts. */
interface RowShape {
  names: readonly string[];
  typeIds: readonly number[];
  build: (texts: readonly (string | null)[]) => Row;
}

/** Shapes already written, by column count and first column (a handful per table and statement). */
const rowShapes = new Map<string, RowShape[]>();
const MAX_SHAPES = 1000;
let shapeCount = 0;

/**
 * The row maker for these columns: an object literal with the column names written in, so every row
 * of a shape is made at once with its final layout, rather than grown a property at a time under
 * a name only known at run time (which cost more than reading the rows off the wire). Type parsers
 * are pg's, looked up once per shape (the service sets its parsers before any query).
 */
function rowShape(fields: readonly FieldDef[]): RowShape {
  const key = `${fields.length} ${fields[0]?.name ?? ""}`;
  const known = rowShapes.get(key);
  const same = known?.find((shape) => fields.every((field, i) => field.name === shape.names[i] && field.dataTypeID === shape.typeIds[i]));
  if (same) return same;
  const parsers = fields.map((field) => pg.types.getTypeParser(field.dataTypeID, "text") as TypeParser);
  // Names are written as JSON string literals, which JavaScript reads back as the same strings
  // (`__proto__` computed, so that it is a column like any other, not the row's prototype).
  const property = (name: string) => (name === "__proto__" ? `["__proto__"]` : JSON.stringify(name));
  const literal = fields.map((field, i) => `${property(field.name)}: t[${i}] === null ? null : p[${i}](t[${i}])`).join(", ");
  const make = new Function("t", "p", `return { ${literal} };`) as (texts: readonly (string | null)[], parsers: TypeParser[]) => Row;
  const shape = {
    names: fields.map((field) => field.name),
    typeIds: fields.map((field) => field.dataTypeID),
    build: (texts: readonly (string | null)[]) => make(texts, parsers),
  };
  if (shapeCount < MAX_SHAPES) {
    shapeCount++;
    rowShapes.set(key, [...(known ?? []), shape]);
  }
  return shape;
}

/**
 * A trip's statements on the wire and their answer read off it, as pg's client hands a query the
 * backend's messages: a result set per statement, finished by its CommandComplete; ReadyForQuery
 * ends the trip. After an error the backend skips to ReadyForQuery, which pg then keeps to itself.
 */
class TripAnswer implements Submittable {
  private readonly sets: Row[][] = [];
  private rows: Row[] = [];
  private shape?: RowShape;
  private failure: unknown;
  private settled = false;
  private done?: () => void;
  private prepared?: Prepared;
  /** Each statement's prepared name ("" for none) and its rows' columns when known before its answer. */
  private readonly described: { statement: string; shape?: RowShape }[] = [];

  /** The transaction's BEGIN (src/db/pgClient.ts) goes ahead of the statements, its answer still to come. */
  private awaitingBegin: boolean;

  /** `commit`: the transaction's COMMIT follows the statements. */
  constructor(
    private readonly statements: Statement[],
    private readonly options: { prepare: boolean; begin: boolean; commit: boolean },
    private readonly resolve: (sets: Row[][]) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.awaitingBegin = options.begin;
  }

  /** A statement of no values and no rows, unnamed (BEGIN, COMMIT). */
  private static sendPlain(connection: Connection, text: string, parsing: string[]): void {
    connection.parse({ text, name: "", types: [] }, false);
    parsing.push("");
    connection.bind({ statement: "", values: [] }, false);
    connection.execute({}, false);
  }

  submit(connection: Connection): void {
    const known = prepared(connection);
    this.prepared = known;
    const parsing: string[] = [];
    // Corked, the messages leave in one write.
    connection.stream.cork();
    try {
      if (this.options.begin) TripAnswer.sendPlain(connection, "BEGIN", parsing);
      for (const { text, values } of this.statements) {
        const name = this.options.prepare ? preparedName(text) : undefined;
        const statement = name ? `${name}_${known.generation}` : "";
        if (!statement || !(known.names.has(statement) || parsing.includes(statement))) {
          connection.parse({ text, name: statement, types: [] }, false);
          parsing.push(statement);
        }
        connection.bind({ statement, values }, false);
        // A statement whose rows are described already is not described again.
        const shape = known.names.get(statement);
        if (!shape) connection.describe({ type: "P" }, false);
        connection.execute({}, false);
        this.described.push({ statement, shape });
      }
      if (this.options.commit) TripAnswer.sendPlain(connection, "COMMIT", parsing);
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
    // A name is the connection's once PostgreSQL has parsed it (after an error it skips the rest);
    // the answers come in the order of the Parses, unnamed ones ("") among them.
    if (parsing.some(Boolean)) {
      const parsed = () => {
        const name = parsing.shift();
        if (name) known.names.set(name, undefined);
      };
      connection.on("parseComplete", parsed);
      this.done = () => connection.off("parseComplete", parsed);
    }
  }

  handleRowDescription({ fields }: { fields: FieldDef[] }): void {
    this.shape = rowShape(fields);
    const { statement } = this.described[this.sets.length]!;
    if (statement && this.prepared!.names.has(statement)) this.prepared!.names.set(statement, this.shape);
  }

  handleDataRow({ fields }: { fields: (string | null)[] }): void {
    if (this.failure) return;
    try {
      this.rows.push((this.described[this.sets.length]!.shape ?? this.shape)!.build(fields));
    } catch (error) {
      // A value its parser refuses fails the trip once the backend is done with it.
      this.failure = error;
    }
  }

  handleCommandComplete(): void {
    // BEGIN's and COMMIT's answers are no statement's.
    if (this.awaitingBegin) {
      this.awaitingBegin = false;
      return;
    }
    if (this.sets.length === this.statements.length) return;
    this.sets.push(this.rows);
    this.rows = [];
  }

  handleEmptyQuery(): void {
    this.sets.push([]);
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: Connection & { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail("A trip copies nothing");
  }

  handleCopyData(): void {}

  handleError(error: unknown): void {
    this.settle(this.failure ?? error);
  }

  handleReadyForQuery(): void {
    this.settle(this.failure);
  }

  private settle(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.done?.();
    if (error) this.reject(error);
    else this.resolve(this.sets);
  }
}

/** Text with knex's `?` placeholders in PostgreSQL's `$1` form; an escaped `\?` is a literal question mark. */
function numbered(text: string): string {
  let index = 0;
  return text.replace(/\\?\?/g, (match) => (match === "\\?" ? "?" : `$${++index}`));
}
