import { performance } from "node:perf_hooks";
import { createAccount } from "../../test/support/factories";
import { startHarness, type Harness } from "../../test/support/harness";
import { schedulingApi } from "../../test/scheduling/support";
import { formatMs, percentile } from "../stats";

const RESOURCES = 20;
const SLOT_MS = 15 * 60_000;
const FIRST_SLOT = Date.parse("2030-03-04T00:00:00+05:00");

async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await call();
  return { result, ms: performance.now() - start };
}

/** A resource bookable around the clock, so every quarter hour is a slot. */
async function roundTheClock(api: ReturnType<typeof schedulingApi>, name: string): Promise<number> {
  const resource = await api.create("/resources", { name });
  await api.patch(`/resources/${resource.id}/work_rules`, { rules: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_minute: 0, end_minute: 1440 })) });
  return resource.id;
}

const booking = (resourceId: number, slot: number) => ({
  resource_id: resourceId,
  starts_at: new Date(FIRST_SLOT + slot * SLOT_MS).toISOString(),
  ends_at: new Date(FIRST_SLOT + (slot + 1) * SLOT_MS).toISOString(),
  client_name: `Client ${slot}`,
  service_amount: 10_000,
});

/** 50 requests for one slot at once: exactly one booking, 49 SLOT_CONFLICTs. */
async function oneSlot(h: Harness) {
  const account = await createAccount(h);
  const api = schedulingApi(h, account);
  const resourceId = await roundTheClock(api, "Contested");
  const n = Number(process.env.BENCH_BOOKING_CONTENDERS ?? 50);
  const results = await Promise.all(Array.from({ length: n }, () => timed(() => api.post("/appointments", booking(resourceId, 0)))));
  const created = results.filter((r) => r.result.status === 201).length;
  const conflicts = results.filter((r) => r.result.status === 409 && r.result.body.code === "SLOT_CONFLICT").length;
  const other = n - created - conflicts;
  const samples = results.map((r) => r.ms);
  console.log(
    `${n} concurrent POSTs for one slot: created ${created} (must be 1), 409 SLOT_CONFLICT ${conflicts}, other ${other}; p50 ${formatMs(percentile(samples, 50))}, p99 ${formatMs(percentile(samples, 99))}`,
  );
  if (created !== 1 || other !== 0) throw new Error("double booking or unexpected answers");
}

/** Bookings across 20 resources, as many in flight as resources, each on a free slot. */
async function sustained(h: Harness) {
  const account = await createAccount(h);
  const api = schedulingApi(h, account);
  const resources: number[] = [];
  for (let i = 0; i < RESOURCES; i++) resources.push(await roundTheClock(api, `Resource ${i + 1}`));
  const perResource = Math.ceil(Number(process.env.BENCH_BOOKINGS ?? 1000) / RESOURCES);
  const samples: number[] = [];
  let failed = 0;
  const start = performance.now();
  await Promise.all(
    resources.map(async (resourceId) => {
      for (let slot = 0; slot < perResource; slot++) {
        const { result, ms } = await timed(() => api.post("/appointments", booking(resourceId, slot)));
        samples.push(ms);
        if (result.status !== 201) failed++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `sustained booking, ${RESOURCES} resources, ${samples.length} bookings (${RESOURCES} in flight): ${(samples.length / seconds).toFixed(1)} appointments/s, p50 ${formatMs(percentile(samples, 50))}, p99 ${formatMs(percentile(samples, 99))}, failed ${failed}`,
  );
}

/**
 * Booking through the API against the real database (the appointment workflows start afterwards,
 * through the relay, which this case does not run): the contested slot, then sustained load.
 */
export async function run() {
  const h = await startHarness();
  try {
    await oneSlot(h);
    await sustained(h);
  } finally {
    await h.close();
  }
}
