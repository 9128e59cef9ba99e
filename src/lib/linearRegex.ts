import { RE2 } from "re2-wasm";

/**
 * User-supplied regular expressions (custom attribute definitions' regex_pattern) run on RE2, whose
 * matching time is linear in the input: a pattern like ^(a+)+$ cannot stall the event loop the way
 * a backtracking engine does. RE2 has no lookaround or backreferences; such patterns are refused
 * when they are defined.
 */

/** Flags that change what a pattern matches; g and y only change how JS iterates and are dropped. */
const MEANINGFUL_FLAGS = new Set(["i", "m", "s"]);
const IGNORED_FLAGS = new Set(["g", "y", "u"]);

export type PatternResult = { ok: true; regex: RE2 } | { ok: false; reason: "invalid" | "unsupported"; detail: string };

/** Chatwoot's dashboard stores patterns as literals ("/^\\d+$/i"); plain sources are accepted too. */
function sourceAndFlags(pattern: string): { source: string; flags: string } | undefined {
  const end = pattern.lastIndexOf("/");
  if (!pattern.startsWith("/") || end <= 1) return { source: pattern, flags: "" };
  const flags = pattern.slice(end + 1);
  if (!/^[a-z]*$/.test(flags)) return { source: pattern, flags: "" };
  if ([...flags].some((flag) => !MEANINGFUL_FLAGS.has(flag) && !IGNORED_FLAGS.has(flag))) return undefined;
  return { source: pattern.slice(1, end), flags: [...new Set(flags)].filter((flag) => MEANINGFUL_FLAGS.has(flag)).join("") };
}

/** Whether JavaScript would accept the pattern: compiling never runs it, so this costs no matching time. */
function validForJs(source: string, flags: string): boolean {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}

export function compileLinear(pattern: string): PatternResult {
  const parts = sourceAndFlags(pattern);
  if (!parts) return { ok: false, reason: "invalid", detail: "unknown flag" };
  try {
    // RE2 wants the u flag: patterns are matched as Unicode text, as Ruby matches them.
    return { ok: true, regex: new RE2(parts.source, `${parts.flags}u`) };
  } catch (err) {
    const detail = String((err as Error).message).replace(/^.*\/[a-z]*: /s, "");
    return { ok: false, reason: validForJs(parts.source, parts.flags) ? "unsupported" : "invalid", detail };
  }
}

/** Compiled patterns by their text; a definition's pattern is matched against every value saved for it. */
const cache = new Map<string, PatternResult>();
const CACHE_SIZE = 500;

export function cachedPattern(pattern: string): PatternResult {
  let result = cache.get(pattern);
  if (!result) {
    result = compileLinear(pattern);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(pattern, result);
  }
  return result;
}
