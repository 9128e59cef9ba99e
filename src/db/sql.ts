import type { Knex } from "knex";

/**
 * SQL text with knex's `?` placeholders and the values they take, assembled from fragments (a scope,
 * a range, a condition) that never splice a value into the text: the one tagged-SQL helper, beside
 * knex's builder and Objection. The hot reads and the reports write their statements this way; the
 * text of a hot read is then the same on every request, and a Batch sends it as a named statement,
 * which PostgreSQL parses once per connection instead of once per request.
 */
export class Sql {
  constructor(
    readonly text: string,
    readonly values: readonly unknown[] = [],
  ) {}

  /** As knex's raw SQL, for a statement or a value (`update({ column: ... })`) knex sends itself. */
  raw(knex: Knex): Knex.Raw {
    return knex.raw(this.text, this.values as Knex.RawBinding[]);
  }

  /** The text with PostgreSQL's `$1` placeholders, as pg takes it; an escaped `\?` is a literal question mark. */
  numbered(): { text: string; values: unknown[] } {
    let index = 0;
    const text = this.text.replace(/\\?\?/g, (match) => (match === "\\?" ? "?" : `$${++index}`));
    return { text, values: [...this.values] };
  }
}

/** sql`... ${value} ...`: each value becomes a `?` placeholder, an Sql is written in with its values. */
export function sql(strings: TemplateStringsArray, ...parts: unknown[]): Sql {
  let text = strings[0]!;
  const values: unknown[] = [];
  parts.forEach((part, i) => {
    if (part instanceof Sql) {
      text += part.text;
      values.push(...part.values);
    } else {
      text += "?";
      values.push(part);
    }
    text += strings[i + 1]!;
  });
  return new Sql(text, values);
}

/** Fragments joined with a separator (" and ", " union all ", ", "). */
export function joinSql(fragments: readonly Sql[], separator: string): Sql {
  return new Sql(
    fragments.map((fragment) => fragment.text).join(separator),
    fragments.flatMap((fragment) => fragment.values),
  );
}

/** Text of the code's own (a column or table name, a fixed condition) for a template, never a value a client sent. */
export const sqlText = (text: string): Sql => new Sql(text);

/** What a column is compared with: ids, or a subquery when the ids come from a row the same batch reads. */
export type InList = readonly number[] | { subquery: Sql };

/** The ids as rows of one column, for a `from`. */
export function idsOf(list: InList): Sql {
  return "subquery" in list ? list.subquery : sql`select unnest(${list}::bigint[])`;
}

/**
 * `column = any(?)` for ids, numbers or uuids (one text whatever their number), `column = ?` for one, `column in
 * (subquery)` for a subquery. One id has a text of its own because PostgreSQL costs a prepared
 * `= any($1)` as if the array held ten: against that, the plan for one id always looks cheaper, so
 * it planned every such call afresh instead of reusing the statement's plan (on GET one contact,
 * planning took PostgreSQL five times as long as running the statement).
 */
export function isIn(column: string, list: InList | readonly string[]): Sql {
  if ("subquery" in list) return sql`${sqlText(column)} in (${list.subquery})`;
  return list.length === 1 ? sql`${sqlText(column)} = ${list[0]}` : sql`${sqlText(column)} = any(${list})`;
}
