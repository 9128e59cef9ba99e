/** Rails' String#parameterize: lowercase ASCII words joined by dashes (accents dropped). */
export function parameterize(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-|-$/g, "");
}

/**
 * A prefix search over the given words as pg_search's tsearch `prefix: true` makes one: every word
 * must start a word of the text. Only letters and digits reach to_tsquery, so no input can break it.
 */
export function prefixTsQuery(query: string): string | undefined {
  const words = query.match(/[\p{L}\p{N}]+/gu);
  return words?.length ? words.map((word) => `${word}:*`).join(" & ") : undefined;
}
