/*
 * Several statements in one round trip: each is bound and executed (and parsed, unless the
 * connection has its named statement already) before a single Sync, and answered as one.
 *
 * Why not pg's own pipelining (`new Client({ pipeline: true })`, one client.query per statement):
 * pg ends every statement with a Sync of its own, so PostgreSQL flushes an answer per statement and
 * the API writes and reads the socket once per statement, builds a Query and a Result for each, and
 * settles a promise for each. Side by side on GET one conversation (five statements) that doubled
 * the API's CPU per request and halved its throughput (bench/HISTORY.md, 2026-11-27), past the 0.85
 * issue 32 allows. What stays hand-written is only this: the messages of one Sync, through pg's
 * Submittable hook (the one pg-cursor uses) on pg's Connection, values parsed by pg's type parsers.
 */
import pg, { type Connection, type FieldDef, type Submittable } from "pg";

type Row = Record<string, unknown>;

export interface Statement {
  /** Text with PostgreSQL's `$1` placeholders. */
  text: string;
  values: unknown[];
  /** Its name once it recurs (a statement of the connection, parsed once), else undefined. */
  name?: string;
}

/** The columns of a statement's rows, their parsers (pg's type parsers) and an empty row to copy. */
interface Shape {
  names: string[];
  parsers: ((text: string) => unknown)[];
  empty: Row;
}

/**
 * The named statements a connection has parsed, with their rows' columns (so they are not described
 * again), under a generation that a failed round trip moves on.
 */
interface Named {
  generation: number;
  parsed: Map<string, Shape | undefined>;
}

const namedOf = new WeakMap<Connection, Named>();

function namedOn(connection: Connection): Named {
  let named = namedOf.get(connection);
  if (!named) namedOf.set(connection, (named = { generation: 0, parsed: new Map() }));
  return named;
}

/**
 * A value as PostgreSQL's text input reads it, as pg converts a query's values: dates as ISO
 * instants, arrays as array literals, objects as JSON.
 */
export function pgText(value: unknown): string | Buffer | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return arrayLiteral(value);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function arrayLiteral(values: readonly unknown[]): string {
  const items = values.map((item) => {
    if (item === null || item === undefined) return "NULL";
    if (Array.isArray(item)) return arrayLiteral(item);
    const text = pgText(item);
    return `"${String(Buffer.isBuffer(text) ? `\\\\x${text.toString("hex")}` : text)
      .replace(/\\/g, "\\\\")
      .replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(",")}}`;
}

/**
 * The statements' answer, one result set each, read as pg hands a query the backend's messages;
 * ReadyForQuery ends it. After an error the backend skips to ReadyForQuery.
 */
export class OneRoundTrip implements Submittable {
  private readonly sets: Row[][] = [];
  private rows: Row[] = [];
  /** Each statement's name on the connection ("" for none) and its rows' columns when known before its answer. */
  private readonly sent: { statement: string; shape?: Shape }[] = [];
  private described?: Shape;
  private failure: unknown;
  private settled = false;
  private named?: Named;
  private readonly newlyParsed = new Map<string, Shape | undefined>();

  constructor(
    readonly statements: readonly Statement[],
    private readonly resolve: (sets: Row[][]) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  submit(connection: Connection): void {
    const named = (this.named = namedOn(connection));
    // Corked, the messages leave in one write.
    connection.stream.cork();
    try {
      for (const { text, values, name } of this.statements) {
        const statement = name ? `${name}_${named.generation}` : "";
        if (!statement || !(named.parsed.has(statement) || this.newlyParsed.has(statement))) {
          connection.parse({ text, name: statement, types: [] }, false);
          if (statement) this.newlyParsed.set(statement, undefined);
        }
        connection.bind({ statement, values: values.map(pgText) }, false);
        const shape = named.parsed.get(statement);
        // A statement whose rows are described already is not described again.
        if (!shape) connection.describe({ type: "P" }, false);
        connection.execute({}, false);
        this.sent.push({ statement, shape });
      }
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
  }

  handleRowDescription({ fields }: { fields: FieldDef[] }): void {
    const names = fields.map((field) => field.name);
    const shape = {
      names,
      parsers: fields.map((field) => pg.types.getTypeParser(field.dataTypeID, "text") as (text: string) => unknown),
      // Every row is a copy of one object that has all the columns already (null), made in one step;
      // JSON.parse makes it with a "__proto__" column as a column like any other, not a prototype.
      empty: JSON.parse(JSON.stringify(Object.fromEntries(names.map((name) => [name, null])))) as Row,
    };
    this.described = shape;
    const { statement } = this.sent[this.sets.length]!;
    if (statement) this.newlyParsed.set(statement, shape);
  }

  handleDataRow({ fields }: { fields: (string | null)[] }): void {
    if (this.failure) return;
    try {
      const { names, parsers, empty } = (this.sent[this.sets.length]!.shape ?? this.described)!;
      // Own columns only are set: a "__proto__" column is the copy's own property, not its prototype.
      const row: Row = { ...empty };
      for (let i = 0; i < fields.length; i++) {
        const text = fields[i]!;
        if (text !== null) row[names[i]!] = parsers[i]!(text);
      }
      this.rows.push(row);
    } catch (error) {
      // A value its parser refuses fails the round trip once the backend is done with it.
      this.failure = error;
    }
  }

  handleCommandComplete(): void {
    this.sets.push(this.rows);
    this.rows = [];
    this.described = undefined;
  }

  handleEmptyQuery(): void {
    this.sets.push([]);
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: Connection & { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail("A batch copies nothing");
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
    const named = this.named!;
    if (error) {
      // PostgreSQL may have parsed some of the new names before the error: they are not reused.
      if (this.newlyParsed.size) {
        named.generation++;
        named.parsed.clear();
      }
      this.reject(error);
      return;
    }
    // A name described in an earlier round trip but parsed in this one keeps what this one learnt.
    for (const [name, shape] of this.newlyParsed) named.parsed.set(name, shape);
    if (this.sets.length !== this.statements.length) this.reject(new Error(`${this.statements.length} statements got ${this.sets.length} answers`));
    else this.resolve(this.sets);
  }
}
