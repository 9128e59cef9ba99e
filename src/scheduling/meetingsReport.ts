/**
 * The meetings report: the bookings that start in a range, grouped by resource, service or local
 * day (or not at all), with their counts by status, booked minutes and money. One aggregate
 * query; docs/scheduling.md "Meetings report" says what each figure counts.
 */
import type { Knex } from "knex";
import { APPOINTMENT_STATUSES, type AppointmentStatus } from "./constants";

export const MEETINGS_GROUPS = ["resource", "service", "day"] as const;
export type MeetingsGroup = (typeof MEETINGS_GROUPS)[number];

export interface MeetingsQuery {
  accountId: number;
  /** [start, end), instants. */
  start: Date;
  end: Date;
  /** The zone whose calendar days `day` groups by. */
  timeZone: string;
  resourceIds?: number[];
  serviceIds?: number[];
  groupBy?: MeetingsGroup;
}

export interface MeetingsFigures {
  counts: Record<AppointmentStatus, number> & { total: number };
  /** Minutes of the bookings that were not cancelled. */
  booked_minutes: number;
  /** The price (service_amount) of the bookings that were not cancelled. */
  charged: number;
  /** Money received (prepaid and settled), cancelled bookings included. */
  paid: number;
  refunded: number;
}

export type MeetingsRow = MeetingsFigures & Record<string, unknown>;

const LIVE = "a.status <> 'cancelled'";

/** The figures' SQL, one aggregate per figure. */
const FIGURES = [
  ...APPOINTMENT_STATUSES.map((status) => `count(*) filter (where a.status = '${status}') as "${status}"`),
  "count(*) as total",
  `coalesce(sum(a.duration_min) filter (where ${LIVE}), 0) as booked_minutes`,
  `coalesce(sum(a.service_amount) filter (where ${LIVE}), 0) as charged`,
  "coalesce(sum(a.prepaid_amount + a.settlement_amount), 0) as paid",
  "coalesce(sum(a.refunded_amount), 0) as refunded",
];

function figuresOf(row: Record<string, unknown>): MeetingsFigures {
  const n = (key: string) => Number(row[key]);
  return {
    counts: { ...(Object.fromEntries(APPOINTMENT_STATUSES.map((status) => [status, n(status)])) as Record<AppointmentStatus, number>), total: n("total") },
    booked_minutes: n("booked_minutes"),
    charged: n("charged"),
    paid: n("paid"),
    refunded: n("refunded"),
  };
}

/** Each group's key columns, how it is joined and ordered. */
function grouped(db: Knex, query: Knex.QueryBuilder, groupBy: MeetingsGroup, timeZone: string): Knex.QueryBuilder {
  switch (groupBy) {
    case "resource":
      return query
        .join("scheduling_resources as r", "r.id", "a.resource_id")
        .select("a.resource_id", "r.name as resource_name")
        .groupBy("a.resource_id", "r.name")
        .orderBy([{ column: "r.name" }, { column: "a.resource_id" }]);
    case "service":
      return query
        .leftJoin("scheduling_services as s", "s.id", "a.service_id")
        .select("a.service_id", "s.name as service_name")
        .groupBy("a.service_id", "s.name")
        .orderByRaw("s.name nulls last, a.service_id");
    case "day":
      return query
        .select(db.raw("to_char(a.starts_at at time zone ?, 'YYYY-MM-DD') as date", [timeZone]))
        .groupByRaw("1")
        .orderByRaw("1");
  }
}

export interface MeetingsReport {
  groups: MeetingsRow[];
  totals: MeetingsFigures;
}

export async function meetingsReport(db: Knex, query: MeetingsQuery): Promise<MeetingsReport> {
  const base = () => {
    const q = db("scheduling_appointments as a")
      .where("a.account_id", query.accountId)
      .where("a.starts_at", ">=", query.start)
      .where("a.starts_at", "<", query.end);
    if (query.resourceIds?.length) q.whereIn("a.resource_id", query.resourceIds);
    if (query.serviceIds?.length) q.whereIn("a.service_id", query.serviceIds);
    return q;
  };
  const [totalsRow] = await base().select(db.raw(FIGURES.join(", ")));
  const groups = query.groupBy ? await grouped(db, base(), query.groupBy, query.timeZone).select(db.raw(FIGURES.join(", "))) : [];
  return {
    groups: groups.map((row: Record<string, unknown>) => {
      const key = Object.fromEntries(
        Object.entries(row).filter(([column]) => ["resource_id", "resource_name", "service_id", "service_name", "date"].includes(column)),
      );
      return { ...key, ...figuresOf(row) };
    }),
    totals: figuresOf(totalsRow as Record<string, unknown>),
  };
}
