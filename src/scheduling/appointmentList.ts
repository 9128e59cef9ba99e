/** Listing the account's appointments: filters, order and pages. */
import type { Knex } from "knex";
import { Appointment } from "../models/scheduling/Appointment";
import { type AppointmentView, loadViews } from "./appointmentRecords";

export interface AppointmentFilters {
  resource_ids?: number[];
  status?: string[];
  payment_status?: string[];
  contact_id?: number;
  from?: Date;
  to?: Date;
}

export interface Page {
  page: number;
  per_page: number;
}

/** The account's appointments starting in [from, to) that match the filters, by start then id, one page of them, and how many match. */
export async function listAppointments(
  db: Knex,
  accountId: number,
  filters: AppointmentFilters,
  page: Page,
): Promise<{ views: AppointmentView[]; count: number }> {
  const matching = Appointment.ofAccount(accountId, db);
  if (filters.resource_ids) matching.whereIn("resource_id", filters.resource_ids);
  if (filters.status) matching.whereIn("status", filters.status);
  if (filters.payment_status) matching.whereIn("payment_status", filters.payment_status);
  if (filters.contact_id) matching.where("contact_id", filters.contact_id);
  if (filters.from) matching.where("starts_at", ">=", filters.from);
  if (filters.to) matching.where("starts_at", "<", filters.to);
  const [count, rows] = await Promise.all([
    matching.clone().clearSelect().resultSize(),
    matching
      .orderBy([{ column: "starts_at" }, { column: "id" }])
      .offset((page.page - 1) * page.per_page)
      .limit(page.per_page),
  ]);
  return { views: await loadViews(db, rows), count };
}
