/** Half-open instant intervals [start, end) in epoch milliseconds, and the set algebra the engine needs. */
export interface Interval {
  start: number;
  end: number;
}

/** Half-open overlap: back-to-back intervals do not overlap. */
export const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;

export const contains = (outer: Interval, inner: Interval) => outer.start <= inner.start && inner.end <= outer.end;

/** `from` minus every interval of `cuts`; the pieces keep their order. */
export function subtract(from: Interval, cuts: readonly Interval[]): Interval[] {
  let pieces: Interval[] = [from];
  for (const cut of cuts) {
    pieces = pieces.flatMap((piece) => {
      if (!overlaps(piece, cut)) return [piece];
      const left = { start: piece.start, end: cut.start };
      const right = { start: cut.end, end: piece.end };
      return [left, right].filter((p) => p.end > p.start);
    });
  }
  return pieces;
}
