/** Temporal calls in flight at once per consumer: enough to hide round trips, few enough for a dev server. */
export const DISPATCH_CONCURRENCY = 16;

/** Runs fn over items with at most `limit` calls in flight. */
export async function inParallel<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}
