import { performance } from "node:perf_hooks";
import { createAccount, type TestAccount } from "../../test/support/factories";
import { type Harness, startHarness } from "../../test/support/harness";
import { schedulingApi } from "../../test/scheduling/support";
import { type RunningServer, startServer } from "../load";
import { formatMs, percentile } from "../stats";
import { BENCH_MONTH, book, setUpClinic } from "./calendar";

const MONTH = { from: `${BENCH_MONTH}-01`, to: "2037-04-01" };

/** One service offered by every resource at its own price. */
async function offerService(h: Harness, account: TestAccount, resources: number[]): Promise<number> {
  const prices = resources.map((resourceId, i) => ({ resource_id: resourceId, price: 10_000 + i * 100, compensation_type: "percent", compensation_value: 40 }));
  const service = await schedulingApi(h, account).create("/services", { name: "Consultation", base_price: 10_000, duration_min: 30, prices });
  return service.id;
}

async function measure(server: RunningServer, account: TestAccount, serviceId: number, label: string) {
  const n = Number(process.env.BENCH_AVAILABILITY_REQUESTS ?? 50);
  const samples: number[] = [];
  const url = `${server.url}/api/v1/accounts/${account.id}/scheduling/availability?service_id=${serviceId}&from=${MONTH.from}&to=${MONTH.to}&limit=100`;
  let count = 0;
  const cpuBefore = server.cpuMs();
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const response = await fetch(url, { headers: { api_access_token: account.admin.token } });
    const body = (await response.json()) as { payload: unknown[] };
    samples.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`GET availability answered ${response.status}`);
    count = body.payload.length;
  }
  const cpuPerRequest = (server.cpuMs() - cpuBefore) / n;
  console.log(
    `GET scheduling/availability, one service, 20 resources, 31 days, ${label}: ${count} slots x${n}: ` +
      `p50 ${formatMs(percentile(samples, 50))}, p99 ${formatMs(percentile(samples, 99))}, server CPU ${cpuPerRequest.toFixed(1)} ms/req`,
  );
}

/**
 * The availability search for one service over the calendar case's 20 resources and a whole month
 * (the longest range it takes): first with no bookings, then with four a day per resource. One
 * request at a time against the API in a process of its own (BENCH_AVAILABILITY_REQUESTS, default 50).
 */
export async function run() {
  const h = await startHarness();
  const server = await startServer("api");
  try {
    const account = await createAccount(h);
    const resources = await setUpClinic(h, account);
    const serviceId = await offerService(h, account, resources);
    await measure(server, account, serviceId, "empty");
    await book(h, account, resources);
    await measure(server, account, serviceId, "booked");
  } finally {
    await server.stop();
    await h.close();
  }
}
