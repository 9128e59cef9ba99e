/**
 * Limits for client-chosen JSON (custom_attributes, bot_config, event_info, ...). Without them a few
 * kilobytes of nesting overflow the stack wherever the value is later cloned, serialised or walked
 * recursively (the models, jsonb encoding, webhook payloads), and one request stalls or fails.
 */

/** Levels of nesting a free-form field may hold; real attribute hashes use two or three. */
export const MAX_FIELD_DEPTH = 32;
/** Bytes of JSON a free-form field may hold. */
export const MAX_FIELD_BYTES = 64 * 1024;
/** Levels of nesting a whole request body may hold, whatever its fields are. */
export const MAX_BODY_DEPTH = 64;

/**
 * Whether the value nests deeper than `limit` arrays and objects. Iterative, so the check itself
 * cannot overflow however deep the input goes, and it stops at the first level past the limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(current)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Why a free-form value is refused, as the text after its attribute name; undefined when it fits. */
export function freeFormProblem(value: unknown): string | undefined {
  if (nestsDeeperThan(value, MAX_FIELD_DEPTH)) return `is nested too deeply (maximum is ${MAX_FIELD_DEPTH} levels)`;
  // Safe to serialise now that the depth is bounded.
  if (Buffer.byteLength(JSON.stringify(value) ?? "") > MAX_FIELD_BYTES) return `is too large (maximum is ${MAX_FIELD_BYTES} bytes)`;
  return undefined;
}
