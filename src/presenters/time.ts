/** Integer timestamps in responses are Unix seconds, as Chatwoot renders them. */
export function unixSeconds(date: Date): number;
export function unixSeconds(date: Date | null | undefined): number | null;
export function unixSeconds(date: Date | null | undefined): number | null {
  return date ? Math.floor(date.getTime() / 1000) : null;
}

export function iso(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}
