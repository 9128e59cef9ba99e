import { performance } from "node:perf_hooks";
import { createAccount, type TestAccount } from "../../test/support/factories";
import { type Harness, startHarness } from "../../test/support/harness";
import { schedulingApi } from "../../test/scheduling/support";
import { asInService } from "../inService";
import { type RunningServer, startServer } from "../load";
import { formatMs, percentile } from "../stats";

const RESOURCES = 20;
const WEEKDAYS = [1, 2, 3, 4, 5, 6];
/** A month ahead of any run (the calendar offers no slot before now); its days fall as in March 2026. */
export const BENCH_MONTH = "2037-03";
const MONTH = `from=${BENCH_MONTH}-01&to=2037-04-01`;
/** Local starts of each working day's bookings (Asia/Almaty, +05:00), 45 minutes each. */
const BOOKED_AT = ["09:30", "11:00", "14:15", "16:00"];

/** 20 resources working Mon–Sat 09:00–18:00 with a 13:00–14:00 break, a holiday and an account-wide vacation. */
export async function setUpClinic(h: Harness, account: TestAccount): Promise<number[]> {
  const api = schedulingApi(h, account);
  const resources: number[] = [];
  for (let i = 0; i < RESOURCES; i++) {
    const resource = await api.create("/resources", { name: `Resource ${i + 1}`, slot_duration_min: 30 });
    await api.patch(`/resources/${resource.id}/work_rules`, { rules: WEEKDAYS.map((weekday) => ({ weekday, start_minute: 540, end_minute: 1080 })) });
    await api.patch(`/resources/${resource.id}/break_rules`, { rules: WEEKDAYS.map((weekday) => ({ weekday, start_minute: 780, end_minute: 840 })) });
    resources.push(resource.id);
  }
  await api.create("/holidays", { date: `${BENCH_MONTH}-08`, title: "Women's Day", recurring_yearly: true });
  await api.create("/time_offs", { kind: "vacation", starts_at: `${BENCH_MONTH}-21`, ends_at: `${BENCH_MONTH}-24` });
  return resources;
}

/** Four bookings a working day for every resource (one in eight cancelled), written straight to the table. */
export async function book(h: Harness, account: TestAccount, resources: number[]): Promise<number> {
  const rows = [];
  for (let day = 1; day <= 31; day++) {
    const date = `${BENCH_MONTH}-${String(day).padStart(2, "0")}`;
    if (!WEEKDAYS.includes(new Date(`${date}T00:00:00Z`).getUTCDay())) continue;
    for (const resourceId of resources) {
      for (const time of BOOKED_AT) {
        const startsAt = Date.parse(`${date}T${time}:00+05:00`);
        rows.push({
          account_id: account.id,
          resource_id: resourceId,
          starts_at: new Date(startsAt),
          ends_at: new Date(startsAt + 45 * 60_000),
          duration_min: 45,
          status: rows.length % 8 === 0 ? "cancelled" : "scheduled",
          client_name: `Client ${rows.length}`,
          service_amount: 10_000,
        });
      }
    }
  }
  await h.knex.batchInsert("scheduling_appointments", rows, 500);
  return rows.length;
}

async function measure(server: RunningServer, account: TestAccount, label: string) {
  const n = Number(process.env.BENCH_CALENDAR_REQUESTS ?? 50);
  const samples: number[] = [];
  const url = `${server.url}/api/v1/accounts/${account.id}/scheduling/calendar?view=month&${MONTH}&include_slots=true`;
  let bytes = new ArrayBuffer(0);
  const cpuBefore = server.cpuMs();
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const response = await fetch(url, { headers: { api_access_token: account.admin.token } });
    bytes = await response.arrayBuffer();
    samples.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`GET calendar answered ${response.status}`);
  }
  const cpuPerRequest = (server.cpuMs() - cpuBefore) / n;
  // The client's decoding and parsing of one body, timed apart and after the requests: the garbage of
  // tens of thousands of parsed slots would otherwise be collected while the next response is read.
  const parseStart = performance.now();
  const body = JSON.parse(Buffer.from(bytes).toString("utf8")) as { payload: { slots: unknown[]; appointments: unknown[] } };
  const parseMs = performance.now() - parseStart;
  console.log(
    `GET scheduling/calendar month, ${RESOURCES} resources, ${label}: ${body.payload.appointments.length} appointments, ${body.payload.slots.length} slots x${n}: ` +
      `p50 ${formatMs(percentile(samples, 50))}, p99 ${formatMs(percentile(samples, 99))}, server CPU ${cpuPerRequest.toFixed(1)} ms/req ` +
      `(then the client's decoding and JSON.parse of the ${(bytes.byteLength / 1e6).toFixed(1)} MB body: ${formatMs(parseMs)})`,
  );
}

/**
 * Month view with slots for 20 resources with weekly rules and breaks, the heaviest calendar read:
 * first with no bookings, then with four a working day per resource. One request at a time against
 * the API in a process of its own, timed by the client to the body's last byte (as load generators
 * time a response); the client's own decoding and JSON.parse of the body are timed apart. The server's CPU per
 * request is the figure that holds still on a busy machine.
 */
export async function run() {
  const h = await startHarness();
  const server = await startServer("api");
  try {
    const account = await createAccount(h);
    const resources = await setUpClinic(h, account);
    await asInService(h.knex);
    await measure(server, account, "empty");
    await book(h, account, resources);
    await asInService(h.knex);
    await measure(server, account, "booked");
  } finally {
    await server.stop();
    await h.close();
  }
}
