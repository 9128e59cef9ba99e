import { performance } from "node:perf_hooks";
import { createAccount } from "../../test/support/factories";
import { startHarness } from "../../test/support/harness";
import { schedulingApi } from "../../test/scheduling/support";
import { formatMs, percentile } from "../stats";

const RESOURCES = 20;

/** Month view with slots for 20 resources with weekly rules and breaks: the heaviest calendar read. */
export async function run() {
  const h = await startHarness();
  try {
    const account = await createAccount(h);
    const api = schedulingApi(h, account);
    const weekdays = [1, 2, 3, 4, 5, 6];
    for (let i = 0; i < RESOURCES; i++) {
      const resource = await api.create("/resources", { name: `Resource ${i + 1}`, slot_duration_min: 30 });
      await api.patch(`/resources/${resource.id}/work_rules`, { rules: weekdays.map((weekday) => ({ weekday, start_minute: 540, end_minute: 1080 })) });
      await api.patch(`/resources/${resource.id}/break_rules`, { rules: weekdays.map((weekday) => ({ weekday, start_minute: 780, end_minute: 840 })) });
    }
    await api.create("/holidays", { date: "2026-03-08", title: "Women's Day", recurring_yearly: true });
    await api.create("/time_offs", { kind: "vacation", starts_at: "2026-03-21", ends_at: "2026-03-24" });

    const n = Number(process.env.BENCH_CALENDAR_REQUESTS ?? 50);
    const path = "/calendar?view=month&from=2026-03-01&to=2026-04-01&include_slots=true";
    const samples: number[] = [];
    let slots = 0;
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      const response = await api.get(path);
      samples.push(performance.now() - start);
      if (response.status !== 200) throw new Error(`GET calendar answered ${response.status}`);
      slots = response.body.payload.slots.length;
    }
    console.log(
      `GET scheduling/calendar month, ${RESOURCES} resources, ${slots} slots x${n}: p50 ${formatMs(percentile(samples, 50))}, p99 ${formatMs(percentile(samples, 99))}`,
    );
  } finally {
    await h.close();
  }
}
