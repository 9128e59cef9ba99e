/**
 * A workflow's timer fires on the server's clock but its activity judges "due" by the worker's: a
 * worker whose clock is behind answers "not yet" for a deadline the workflow sees as past, and
 * without a floor the re-plan would sleep 1 ms and ask again in a loop until the clocks agree.
 * After `notYet` such answers in a row, the next wait is at least a second, doubling while the
 * answers repeat, up to half a minute.
 */
export function notYetFloorMs(notYet: number): number {
  if (notYet === 0) return 0;
  return Math.min(NOT_YET_FLOOR_MS * 2 ** (notYet - 1), NOT_YET_FLOOR_MAX_MS);
}

const NOT_YET_FLOOR_MS = 1000;
const NOT_YET_FLOOR_MAX_MS = 30_000;
