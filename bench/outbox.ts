import type { Knex } from "knex";

/** Events committed and not yet handed to Temporal. */
export async function outboxBacklog(knex: Knex): Promise<number> {
  return Number((await knex("events").whereNull("dispatched_at").count({ n: "*" }).first())!.n);
}

/**
 * Waits until the outbox has been empty for a whole second (a load generator stops with requests in
 * flight, whose events commit a moment later), at most `timeoutMs`. Answers how long the drain took,
 * or undefined if events were still waiting at the end.
 */
export async function drainOutbox(knex: Knex, timeoutMs = 120_000): Promise<number | undefined> {
  const started = Date.now();
  let emptySince: number | undefined;
  while (Date.now() - started < timeoutMs) {
    if ((await outboxBacklog(knex)) > 0) emptySince = undefined;
    else if (Date.now() - (emptySince ??= Date.now()) >= 1000) return emptySince - started;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return undefined;
}
