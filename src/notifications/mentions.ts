/** A member who may be mentioned: their id and the names an `@` may use. */
export interface Mentionable {
  id: number;
  names: string[];
}

/**
 * The users a private note mentions: Chatwoot's editor writes `[@Name](mention://user/<id>/<name>)`;
 * a note typed by hand (API clients) may say `@Name` with a member's name or display name.
 */
export function mentionedUserIds(content: string, members: Mentionable[]): number[] {
  const ids = new Set<number>();
  for (const match of content.matchAll(/mention:\/\/user\/(\d+)\//g)) ids.add(Number(match[1]));
  const text = content.toLowerCase();
  for (const member of members) {
    if (member.names.some((name) => name && mentionsName(text, name.toLowerCase()))) ids.add(member.id);
  }
  return [...ids].filter((id) => members.some((member) => member.id === id));
}

/** `@name` followed by the end or by something that cannot continue a name. */
function mentionsName(text: string, name: string): boolean {
  let from = text.indexOf(`@${name}`);
  while (from !== -1) {
    const next = text.charAt(from + name.length + 1);
    if (!next || !/[\p{L}\p{N}_]/u.test(next)) return true;
    from = text.indexOf(`@${name}`, from + 1);
  }
  return false;
}

/** Mentions as the reader sees them: `[@Name](mention://...)` becomes `@Name`. */
export function plainMentions(content: string): string {
  return content.replace(/\[(@[^\]]*)\]\(mention:\/\/[^)]*\)/g, "$1");
}

/** Rails' truncate_words(10): the first ten words, with "..." when there were more. */
export function firstWords(text: string, count = 10): string {
  const words = text.trim().split(/\s+/);
  return words.length > count ? `${words.slice(0, count).join(" ")}...` : text.trim();
}
