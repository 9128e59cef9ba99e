import type { Knex } from "knex";
import type { Model, QueryBuilder } from "objection";

type Row = Record<string, unknown>;

/**
 * Independent SELECTs sent to PostgreSQL as one multi-statement text and answered in one round
 * trip, one result set each, rows parsed by the same type parsers as any query. On a busy machine
 * every statement's round trip (and the wake-up of its backend) costs more than its execution, so
 * a read that needs six lookups is much cheaper as one trip than as six queries, parallel or not.
 * The simple query protocol takes no parameters, so values are written into the text by knex's
 * own escaping; only numbers, booleans and nulls are accepted, which cannot carry SQL.
 */
export class Trip {
  private readonly statements: { sql: string; resolve: (rows: Row[]) => void }[] = [];

  constructor(private readonly db: Knex) {}

  /**
   * Queues a SELECT, a knex query or text whose values are written in already (by idList); its rows
   * once run() has answered.
   */
  rows<T = Row>(query: Knex.QueryBuilder | string): Promise<T[]> {
    const sql = typeof query === "string" ? query : inlined(query);
    return new Promise<Row[]>((resolve) => this.statements.push({ sql, resolve })) as Promise<T[]>;
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
    const result = (await this.db.raw(statements.map((s) => s.sql).join(";\n"))) as { rows: Row[] } | { rows: Row[] }[];
    const sets = Array.isArray(result) ? result : [result];
    if (sets.length !== statements.length) throw new Error(`A trip of ${statements.length} statements got ${sets.length} result sets`);
    statements.forEach((statement, i) => statement.resolve(sets[i]!.rows));
  }
}

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
  let index = 0;
  return sql.replace(/\\?\?/g, (match) => {
    if (match === "\\?") return "?";
    const value: unknown = bindings[index++];
    if (value === null) return "NULL";
    if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean") return String(value);
    throw new Error(`A trip only inlines numbers, booleans and nulls, not ${typeof value}`);
  });
}
