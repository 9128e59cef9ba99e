import { createContact, createInbox } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import type { Harness } from "../support/harness";
import { schedulingApi } from "./support";

export type SchedulingApi = ReturnType<typeof schedulingApi>;

/** A Monday far enough ahead that no reminder or hold of a booking made for it comes due during a run. */
export const MONDAY = "2030-03-04";
/** Wall-clock time of MONDAY in Almaty (+05:00). */
export const at = (time: string, date = MONDAY) => `${date}T${time}:00+05:00`;

export interface Clinic {
  account: TestAccount;
  api: SchedulingApi;
  resource: { id: number; name: string };
  service: { id: number };
  contact: { id: number };
}

/**
 * An account with one Almaty resource working Mon–Fri 09:00–18:00 with a 13:00–14:00 break, paid
 * 40% of a 10 000 consultation (30 min), and one scheduling contact with an IIN.
 */
export async function clinic(h: Harness, name = "Clinic"): Promise<Clinic> {
  const account = await createAccount(h, name);
  const api = schedulingApi(h, account);
  const resource = await api.create("/resources", { name: "Dr. Booking", compensation_type: "percent", compensation_value: 40 });
  const weekdays = [1, 2, 3, 4, 5];
  await api.patch(`/resources/${resource.id}/work_rules`, { rules: weekdays.map((weekday) => ({ weekday, start_minute: 540, end_minute: 1080 })) });
  await api.patch(`/resources/${resource.id}/break_rules`, { rules: weekdays.map((weekday) => ({ weekday, start_minute: 780, end_minute: 840 })) });
  // A service is booked with a resource only through a price of it for that resource.
  const service = await api.create("/services", {
    name: "Consultation",
    base_price: 10_000,
    duration_min: 30,
    prices: [{ resource_id: resource.id, price: 10_000, compensation_type: "percent", compensation_value: 40 }],
  });
  const contact = await api.create("/contacts", { full_name: "Aidos Seitkali", phone: "87012345678", iin: "940720300129" });
  return { account, api, resource, service, contact };
}

/** Books and returns the appointment, failing loudly if the API refuses. */
export async function book(api: SchedulingApi, body: Record<string, unknown>) {
  return api.create("/appointments", body);
}

/**
 * An IANA zone whose wall clock is near midday right now (Etc/GMT-k is UTC+k), so that bookings a
 * minute or an hour ahead stay on one local day whatever time the suite runs.
 */
export function middayZone(now = new Date()): string {
  const offset = 12 - now.getUTCHours();
  if (offset === 0) return "UTC";
  return `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
}

export interface LiveClinic extends Clinic {
  resource: { id: number; name: string; timezone: string };
  inbox: { id: number };
}

/**
 * A clinic whose resource works around the clock every day in a zone where it is midday now, so
 * that bookings seconds or minutes ahead are bookable, with an API inbox to hold the conversations.
 */
export async function liveClinic(h: Harness): Promise<LiveClinic> {
  const account = await createAccount(h, "Live clinic");
  const api = schedulingApi(h, account);
  const resource = await api.create("/resources", { name: "Dr. Now", timezone: middayZone(), compensation_type: "fixed", compensation_value: 3000 });
  await api.patch(`/resources/${resource.id}/work_rules`, { rules: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_minute: 0, end_minute: 1440 })) });
  const service = await api.create("/services", {
    name: "Check-up",
    base_price: 10_000,
    duration_min: 5,
    prices: [{ resource_id: resource.id, price: 10_000, compensation_type: "fixed", compensation_value: 3000 }],
  });
  const inbox = await createInbox(h, account);
  const { contact } = await createContact(h, account, { inbox_id: inbox.id, name: "Dana Client", phone_number: "+77011112233" });
  return { account, api, resource, service, contact, inbox };
}

/** The messages of a conversation (by display id) in order. */
export async function conversationMessages(h: Harness, account: TestAccount, displayId: number): Promise<{ content: string; message_type: number }[]> {
  const conversation = await h.knex("conversations").where({ account_id: account.id, display_id: displayId }).first("id");
  return h.knex("messages").where("conversation_id", conversation.id).orderBy("id").select("content", "message_type");
}

export { sleep } from "../autoResolve/support";
