/**
 * The PostgreSQL channel that tells every API process what to push: `b:<id>,<id>,...` names new
 * realtime_broadcasts rows (each process reads them), `p:<account_id>` says that someone of the
 * account came or went (each process sends its agents of that account a fresh presence.update).
 */
export const REALTIME_CHANNEL = "convo_sched_realtime";
export const BROADCAST_NOTICE_PREFIX = "b:";
export const PRESENCE_NOTICE_PREFIX = "p:";

export type Notice = { kind: "broadcasts"; ids: number[] } | { kind: "presence"; accountId: number };

export function parseNotice(payload: string | undefined): Notice | null {
  if (payload?.startsWith(BROADCAST_NOTICE_PREFIX)) {
    const ids = payload.slice(BROADCAST_NOTICE_PREFIX.length).split(",").map(Number).filter(Number.isSafeInteger);
    return ids.length ? { kind: "broadcasts", ids } : null;
  }
  if (payload?.startsWith(PRESENCE_NOTICE_PREFIX)) {
    const accountId = Number(payload.slice(PRESENCE_NOTICE_PREFIX.length));
    return Number.isSafeInteger(accountId) ? { kind: "presence", accountId } : null;
  }
  return null;
}
