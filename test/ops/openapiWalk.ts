/** Reading the service's OpenAPI document as the fuzz tests walk it. */

export type Schema = Record<string, any>;

let doc: any;
/** The document the helpers below read ($refs are resolved in it). */
export function useDocument(document: any): void {
  doc = document;
}

export function resolve(schema: Schema | undefined): Schema | undefined {
  const ref: string | undefined = schema?.$ref;
  return ref ? resolve(doc.components.schemas[ref.replace("#/components/schemas/", "")]) : schema;
}

/** The object properties a body or query schema declares (allOf merged, the first object of anyOf/oneOf). */
export function propertiesOf(input: Schema | undefined): Record<string, Schema> {
  const schema = resolve(input);
  if (!schema) return {};
  if (schema.properties) return Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolve(v as Schema)!]));
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map(propertiesOf));
  for (const union of [schema.anyOf, schema.oneOf]) {
    const object = union?.map(resolve).find((s: Schema) => s?.properties);
    if (object) return propertiesOf(object);
  }
  return {};
}

/** The declared JSON type of a property, null aside; undefined for free-form values (anything goes). */
export function typeOf(input: Schema): string | undefined {
  const schema = resolve(input)!;
  const types = ([] as string[]).concat(schema.type ?? []).filter((t) => t !== "null");
  if (types.length === 1) return types[0];
  if (schema.enum) return "string";
  const variants = (schema.anyOf ?? schema.oneOf)?.map(resolve).filter((s: Schema) => s && s.type !== "null");
  return variants?.length === 1 ? typeOf(variants[0]) : undefined;
}

export const isDate = (name: string, schema: Schema) => ["date", "date-time"].includes(resolve(schema)?.format) || /(^|_)(date|at|until)$/.test(name);

/** A string somewhere in a body: the keys to it (0 for an array's item) and its declared maximum. */
export interface StringField {
  path: (string | 0)[];
  maxLength?: number;
}

/** Every string a body schema declares, however deep, enums and files aside. */
export function stringFields(input: Schema | undefined, path: (string | 0)[] = [], seen = new Set<Schema>()): StringField[] {
  const schema = resolve(input);
  if (!schema || seen.has(schema)) return [];
  const inside = new Set(seen).add(schema);
  const types: string[] = [].concat(schema.type ?? []);
  const found: StringField[] = [];
  if (types.includes("string") && !schema.enum && schema.const === undefined && schema.format !== "binary") found.push({ path, maxLength: schema.maxLength });
  for (const [key, value] of Object.entries<Schema>(schema.properties ?? {})) found.push(...stringFields(value, [...path, key], inside));
  if (schema.items) found.push(...stringFields(schema.items, [...path, 0], inside));
  for (const key of ["anyOf", "oneOf", "allOf"]) for (const variant of schema[key] ?? []) found.push(...stringFields(variant, path, inside));
  const unique = new Map(found.map((field) => [field.path.join("."), field]));
  return [...unique.values()];
}

/** A body holding `value` at the field's place and nothing else. */
export function bodyWith(path: (string | 0)[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => (key === 0 ? [inner] : { [key]: inner }), value);
}
