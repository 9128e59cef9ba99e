import { ActivityFailure, setCurrentDetails, TemporalFailure } from "@temporalio/workflow";
import type { ItemResult } from "../src/temporal/contracts";

/** How many items a run works on at once: the items are independent, and a run of hundreds then ends in moments. */
export const ITEMS_AT_ONCE = 8;

/**
 * Runs `work` on every item, a few at a time, and keeps each item's result in the items' order; the
 * details in the Temporal UI show the progress. An item whose work fails for good is recorded as
 * failed and the others go on (Chatwoot's jobs skip a failing record too).
 */
export async function forEachItem(ids: number[], what: string, work: (id: number) => Promise<ItemResult>): Promise<ItemResult[]> {
  const results: ItemResult[] = new Array(ids.length);
  let next = 0;
  let finished = 0;
  const lane = async () => {
    while (next < ids.length) {
      const index = next++;
      try {
        results[index] = await work(ids[index]!);
      } catch (err) {
        if (!(err instanceof ActivityFailure)) throw err;
        const cause = err.cause instanceof TemporalFailure ? err.cause : err;
        results[index] = { id: ids[index]!, status: "failed", detail: cause.message };
      }
      finished += 1;
      setCurrentDetails(`${finished}/${ids.length} ${what} done`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(ITEMS_AT_ONCE, ids.length) }, lane));
  return results;
}

/** A line per outcome for the run's details: "done 198, skipped 2". */
export function tally(results: ItemResult[]): string {
  const counts = new Map<string, number>();
  for (const result of results) counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${status} ${count}`).join(", ") || "nothing to do";
}
