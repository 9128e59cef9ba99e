import { performance } from "node:perf_hooks";
import { createAccount } from "../../test/support/factories";
import { startHarness } from "../../test/support/harness";
import { formatMs, percentile } from "../stats";

/** Baseline: latency of an authenticated, account-scoped read (auth, membership, presenter). */
export async function run() {
  const h = await startHarness();
  try {
    const account = await createAccount(h);
    const samples: number[] = [];
    const n = Number(process.env.BENCH_API_REQUESTS ?? 500);
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      const response = await h.request("GET", `/api/v1/accounts/${account.id}`, { token: account.admin.token });
      samples.push(performance.now() - start);
      if (response.status !== 200) throw new Error(`GET account answered ${response.status}`);
    }
    console.log(`GET /api/v1/accounts/:id x${n}: p50 ${formatMs(percentile(samples, 50))}, p99 ${formatMs(percentile(samples, 99))}`);
  } finally {
    await h.close();
  }
}
