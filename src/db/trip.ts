import type { Knex } from "knex";
import type { Model, QueryBuilder } from "objection";
import pg, { type Client, type Connection, type FieldDef, type Submittable } from "pg";
import { prepareValue } from "pg/lib/utils";

type Row = Record<string, unknown>;

interface Statement {
  sql: string;
  /** Values for the text's `?` placeholders, converted as pg converts any query's values. */
  values: (string | Buffer | null)[];
  resolve: (rows: Row[]) => void;
}

/** What a trip needs of knex's client (a transaction's client answers with the transaction's connection). */
interface KnexClient {
  acquireConnection(): Promise<Client>;
  releaseConnection(connection: Client): Promise<void>;
  emit(event: "query", query: { method: "raw"; sql: string; bindings: unknown[] }): boolean;
}

/**
 * Independent SELECTs sent to PostgreSQL at once and answered in one round trip, one result set
 * each, rows parsed by the same type parsers as any query. On a busy machine every statement's round
 * trip (and the wake-up of its backend) costs more than its execution, so a read that needs six
 * lookups is much cheaper as one trip than as six queries, parallel or not. The trip goes to the pg
 * connection itself, not through knex's query runner and pg's result builder: on the hot reads those
 * cost more than reading the rows (pg sets up every result set's columns through a dictionary-mode
 * object). Statements without values go as one multi-statement text (values written in by knex's own
 * escaping, numbers, booleans and nulls only, which cannot carry SQL); once one has values (text with
 * `?` placeholders), every statement is parsed, bound and executed before a single sync.
 */
export class Trip {
  private readonly statements: Statement[] = [];

  constructor(private readonly db: Knex) {}

  /**
   * Queues a SELECT: a knex query, text whose values are written in already (by idList), or text
   * with `?` placeholders and their values; its rows once run() has answered.
   */
  rows<T = Row>(query: Knex.QueryBuilder | string, values: readonly unknown[] = []): Promise<T[]> {
    const sql = typeof query === "string" ? query : inlined(query);
    // Converted now, so a value pg cannot send fails before anything is.
    const prepared = values.map((value) => prepareValue(value));
    return new Promise<Row[]>((resolve) => this.statements.push({ sql, values: prepared, resolve })) as Promise<T[]>;
  }

  /**
   * Models of the table's rows whose `column` is one of `ids` (and whose columns in `also` have those
   * values); none without ids, without a statement. The text is written here, not built by knex and
   * Objection: on the hot reads their building cost more than PostgreSQL's answer.
   */
  modelsWhere<M extends Model>(modelClass: typeof Model & (new () => M), column: string, ids: InList, also: Record<string, number> = {}): Promise<M[]> {
    if (!("subquery" in ids) && !ids.length) return Promise.resolve([]);
    const conditions = Object.entries(also).map(([name, value]) => ` and "${name}" = ${sqlId(value)}`);
    return this.rows(`select * from "${modelClass.tableName}" where "${column}" in ${inList(ids)}${conditions.join("")}`).then((rows) =>
      rows.map((row) => modelClass.fromDatabaseJson(row) as M),
    );
  }

  /** Queues an Objection query; its models (as the query itself would build them) once run() has answered. */
  models<M extends Model>(query: QueryBuilder<M, M[]>): Promise<M[]> {
    const modelClass = query.modelClass();
    return this.rows(query.toKnexQuery()).then((rows) => rows.map((row) => modelClass.fromDatabaseJson(row) as M));
  }

  /** Sends every queued statement at once. */
  async run(): Promise<void> {
    const statements = this.statements.splice(0);
    if (!statements.length) return;
    // A transaction's connection goes back to the pool when it ends: a trip must not run on it after.
    if (this.db.isTransaction && (this.db as Knex.Transaction).isCompleted()) throw new Error("A trip on a transaction that has ended");
    const client = this.db.client as KnexClient;
    // Listeners of knex's query event (statement counts) see the trip as the one query it is.
    client.emit("query", { method: "raw", sql: statements.map((s) => s.sql).join(";\n"), bindings: statements.flatMap((s) => s.values) });
    const connection = await client.acquireConnection();
    let sets: Row[][];
    try {
      sets = await new Promise<Row[][]>((resolve, reject) => connection.query(new TripAnswer(statements, resolve, reject)));
    } finally {
      await client.releaseConnection(connection);
    }
    if (sets.length !== statements.length) throw new Error(`A trip of ${statements.length} statements got ${sets.length} result sets`);
    statements.forEach((statement, i) => statement.resolve(sets[i]!));
  }
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

  constructor(
    private readonly statements: Statement[],
    private readonly resolve: (sets: Row[][]) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  submit(connection: Connection): void {
    if (!this.statements.some((s) => s.values.length)) return connection.query(this.statements.map((s) => s.sql).join(";\n"));
    // Corked, the messages leave in one write.
    connection.stream.cork();
    try {
      for (const { sql, values } of this.statements) {
        connection.parse({ text: values.length ? numbered(sql) : sql, name: "", types: [] }, false);
        connection.bind({ values }, false);
        connection.describe({ type: "P" }, false);
        connection.execute({}, false);
      }
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
  }

  handleRowDescription({ fields }: { fields: FieldDef[] }): void {
    this.shape = rowShape(fields);
  }

  handleDataRow({ fields }: { fields: (string | null)[] }): void {
    if (this.failure) return;
    try {
      this.rows.push(this.shape!.build(fields));
    } catch (error) {
      // A value its parser refuses fails the trip once the backend is done with it.
      this.failure = error;
    }
  }

  handleCommandComplete(): void {
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
    if (error) this.reject(error);
    else this.resolve(this.sets);
  }
}

/** Each of the text's knex `?` placeholders replaced by what `put` writes for it (by its index); an escaped `\?` is a literal question mark. */
function placeholders(sql: string, put: (index: number) => string): string {
  let index = 0;
  return sql.replace(/\\?\?/g, (match) => (match === "\\?" ? "?" : put(index++)));
}

/** Text with knex's `?` placeholders in PostgreSQL's `$1` form. */
const numbered = (sql: string) => placeholders(sql, (index) => `$${index + 1}`);

/**
 * What a statement's `in` takes: ids, or a subquery (its text written from ids and constants only)
 * when the ids come from a row the same trip reads.
 */
export type InList = readonly number[] | { subquery: string };

/** `(1, 2, 3)` or `(select ...)` for a statement's text. */
export function inList(list: InList): string {
  return "subquery" in list ? `(${list.subquery})` : idList(list);
}

/** An id for a statement's text: integers only, which cannot carry SQL. */
export function sqlId(id: number): string {
  if (!Number.isSafeInteger(id)) throw new Error(`Not an id to write into SQL: ${String(id)}`);
  return String(id);
}

/** `(1, 2, 3)` for a statement's text. */
export function idList(ids: readonly number[]): string {
  return `(${ids.map(sqlId).join(", ")})`;
}

/**
 * The query's text with its bindings written in: compiled once (knex's toString would compile it
 * again), placeholders replaced as knex's formatQuery does (an escaped `\?` is a literal question mark).
 */
function inlined(query: Knex.QueryBuilder): string {
  const { sql, bindings } = query.toSQL();
  return placeholders(sql, (index) => {
    const value: unknown = bindings[index];
    if (value === null) return "NULL";
    if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean") return String(value);
    throw new Error(`A trip only inlines numbers, booleans and nulls, not ${typeof value}`);
  });
}
