import type { Knex } from "knex";

/**
 * A fragment of SQL with its bindings. Report queries are assembled from fragments (a scope, a
 * range, a period expression), and the template keeps every value a binding, never spliced text.
 */
export class Sql {
  constructor(
    readonly text: string,
    readonly bindings: readonly unknown[],
  ) {}
}

/** `sql\`... ${value} ...\``: values become bindings, nested fragments are inlined with theirs. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  let text = strings[0]!;
  const bindings: unknown[] = [];
  values.forEach((value, i) => {
    if (value instanceof Sql) {
      text += value.text;
      bindings.push(...value.bindings);
    } else {
      text += "?";
      bindings.push(value);
    }
    text += strings[i + 1]!;
  });
  return new Sql(text, bindings);
}

/** Fragments joined with a separator (" AND ", " UNION ALL ", ", "). */
export function join(fragments: readonly Sql[], separator: string): Sql {
  return new Sql(
    fragments.map((fragment) => fragment.text).join(separator),
    fragments.flatMap((fragment) => fragment.bindings),
  );
}

/** Constant SQL text (column names, keywords) written in this module's code, never user input. */
export const raw = (text: string) => new Sql(text, []);

export async function rows<T>(knex: Knex, query: Sql): Promise<T[]> {
  const result = await knex.raw(query.text, query.bindings as Knex.RawBinding[]);
  return result.rows as T[];
}
