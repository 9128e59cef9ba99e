/**
 * The calendar's appointments, payments and expenses, read as PostgreSQL's text and written as JSON
 * straight from it into the response's bytes: a month of a busy clinic is thousands of rows of some
 * forty columns, and parsing them into Dates, models and presented objects cost several times the query. The text is
 * exactly JSON.stringify of what the presenters in presenters/scheduling/appointments.ts give
 * (test/scheduling/calendarBody.test.ts holds the two together). Where the text could differ from
 * JavaScript's (an instant outside the years 0001–9999, a birth date before 1000) the row is read as
 * a model and presented by those presenters instead.
 */
import type { Knex } from "knex";
import { Appointment, Expense, Payment } from "../models/scheduling/Appointment";
import { appointmentFields, presentExpense, presentPayment } from "../presenters/scheduling/appointments";
import type { BookedInterval } from "./availability";
import type { Interval } from "./intervals";
import type { JsonBytes } from "./jsonBytes";
import type { ResourceIdsQuery } from "./schedules";

/** PostgreSQL's text of a row's columns, in the order of their statement's select list. */
type Row = readonly (string | null)[];

/** An appointment as the calendar shows it (see writeAppointment), and what the availability engine needs of it. */
export interface ShownAppointment extends BookedInterval {
  resource_id: number;
  /** The row, or for a row read as a model the presented appointment's JSON without its closing brace. */
  shown: Row | string;
}

/** A payment or an expense (see writeMoney); `json` is its presented text when it was read as a model. */
export interface ShownMoney {
  appointment_id: number;
  row: Row;
  json?: string;
  /** An expense's resource and kind, to tell the appointment's own (currentExpense) from the journal's other entries. */
  resource_id?: number;
  kind?: string;
}

/**
 * How a column's text becomes JSON: integers as PostgreSQL writes them; text and jsonb as JavaScript
 * writes the string or the parsed value; instants as Date#toISOString and dates as "YYYY-MM-DD",
 * both written by PostgreSQL.
 */
type Kind = "integer" | "text" | "jsonb" | "instant" | "date";

interface Field {
  key: string;
  kind: Kind;
  /** The column's expression when it is not the row's column of that name. */
  sql?: string;
}

const field = (key: string, kind: Kind = "integer", sql?: string): Field => ({ key, kind, sql });
const integers = (...keys: string[]) => keys.map((key) => field(key));
const texts = (...keys: string[]) => keys.map((key) => field(key, "text"));

function selectList(fields: readonly Field[]): string {
  return fields
    .map(({ key, kind, sql = `r.${key}` }) => {
      if (kind === "instant") return `to_char(${sql} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      if (kind === "date") return `to_char(${sql}, 'YYYY-MM-DD')`;
      return kind === "jsonb" ? `${sql}::text` : sql;
    })
    .join(", ");
}

/** Whether every instant and date of the row is one selectList writes as JavaScript would. */
function plainSql(fields: readonly Field[]): string {
  const checks = fields.flatMap(({ key, kind, sql = `r.${key}` }) => {
    if (kind === "instant") return [`(${sql} is null or ${sql} >= '0001-01-01T00:00:00Z' and ${sql} < '10000-01-01T00:00:00Z')`];
    if (kind === "date") return [`(${sql} is null or ${sql} between '1000-01-01' and '9999-12-31')`];
    return [];
  });
  return checks.length ? checks.join(" and ") : "true";
}

/** Text that is its own JSON string: printable ASCII without quotes and backslashes. */
const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7f]*$/;

/**
 * Writes objects of `keys` from rows of a statement that selected plainSql and then selectList of
 * `fields`; `open` leaves off the closing brace. Thousands of rows of dozens of values each: ASCII
 * is copied in place, and only text that JSON escapes goes through JSON.stringify.
 */
function objectWriter(fields: readonly Field[], keys: readonly string[], open = false): (into: JsonBytes, row: Row) => void {
  const prefixes = keys.map((key, i) => Buffer.from(`${i ? "," : "{"}${JSON.stringify(key)}:`, "latin1"));
  const nulls = prefixes.map((prefix) => Buffer.concat([prefix, Buffer.from("null")]));
  const columns = keys.map((key) => 1 + fields.findIndex((f) => f.key === key));
  const kinds = keys.map((key) => fields.find((f) => f.key === key)!.kind);
  // Every key with "null" or two quotes around its value's text, and the closing brace.
  const fixed = nulls.reduce((n, bytes) => n + bytes.length + 2, 1);
  return (into, row) => {
    let room = fixed;
    for (const column of columns) room += row[column]?.length ?? 0;
    into.room(room);
    let bytes = into.bytes;
    let at = into.at;
    for (let i = 0; i < kinds.length; i++) {
      const value = row[columns[i]!]!;
      const kind = kinds[i];
      const prefix = value === null ? nulls[i]! : prefixes[i]!;
      bytes.set(prefix, at);
      at += prefix.length;
      if (value === null) continue;
      if (kind === "integer") {
        at += bytes.write(value, at, "latin1");
        continue;
      }
      if (kind === "instant" || kind === "date" || (kind === "text" && PLAIN_TEXT.test(value))) {
        bytes[at++] = 0x22;
        at += bytes.write(value, at, "latin1");
        bytes[at++] = 0x22;
        continue;
      }
      into.at = at;
      into.text(kind === "jsonb" ? JSON.stringify(JSON.parse(value)) : JSON.stringify(value));
      into.room(room);
      bytes = into.bytes;
      at = into.at;
    }
    if (!open) bytes[at++] = 0x7d;
    into.at = at;
  };
}

/** Rows as arrays of PostgreSQL's text: no Dates, numbers or objects made only to be written back as text. */
const RAW = { rowMode: "array", types: { getTypeParser: () => (value: string) => value } };

async function rawRows(db: Knex, sql: string, bindings: readonly Knex.Value[]): Promise<(string | null)[][]> {
  const result = (await db.raw(sql, bindings).options(RAW)) as unknown as { rows: (string | null)[][] };
  return result.rows;
}

/** appointmentFields' keys in its order. */
const APPOINTMENT_FIELDS: readonly Field[] = [
  ...integers("id", "account_id", "resource_id", "contact_id", "service_id", "company_id"),
  field("conversation_id", "integer", "(select display_id from conversations where conversations.id = r.conversation_id)"),
  field("created_by_id"),
  field("starts_at", "instant"),
  field("ends_at", "instant"),
  field("duration_min"),
  ...texts("status", "appointment_type", "source", "client_name", "client_phone", "client_identifier"),
  field("client_birth_date", "date"),
  ...texts("client_gender", "payment_status"),
  ...integers("service_amount", "prepaid_amount", "settlement_amount", "refunded_amount"),
  ...texts("prepaid_payment_method", "settlement_payment_method", "compensation_type_snapshot"),
  field("compensation_value_snapshot"),
  ...texts("external_ref", "idempotency_key", "notes"),
  field("custom_attributes", "jsonb"),
  field("hold_expires_at", "instant"),
  field("cancelled_at", "instant"),
  field("cancellation_reason", "text"),
];
const writeAppointmentRow = objectWriter(
  APPOINTMENT_FIELDS,
  APPOINTMENT_FIELDS.map((f) => f.key),
  true,
);

/** The presented appointment up to its payments: `{"id":…,"cancellation_reason":…`, still open. */
export function writeAppointment(into: JsonBytes, appointment: ShownAppointment): void {
  if (typeof appointment.shown === "string") into.text(appointment.shown);
  else writeAppointmentRow(into, appointment.shown);
}
const at = (key: string) => APPOINTMENT_FIELDS.findIndex((f) => f.key === key) + 1;
const [ID, RESOURCE_ID, STATUS, STARTS_AT, ENDS_AT] = ["id", "resource_id", "status", "starts_at", "ends_at"].map(at) as [
  number,
  number,
  number,
  number,
  number,
];

const appointmentsSql = (resourceIdsSql: string) => `
  select ${plainSql(APPOINTMENT_FIELDS)}, ${selectList(APPOINTMENT_FIELDS)}
  from scheduling_appointments r
  where r.account_id = ? and r.resource_id in (${resourceIdsSql}) and r.starts_at < ? and r.ends_at > ?
  order by r.starts_at, r.id`;

/** The resources' appointments overlapping the range, cancelled ones included, by start then id (as Appointment.overlapping). */
export async function shownAppointments(db: Knex, accountId: number, resources: ResourceIdsQuery, range: Interval): Promise<ShownAppointment[]> {
  const selected = resources.toKnexQuery().toSQL();
  const rows = await rawRows(db, appointmentsSql(selected.sql), [accountId, ...selected.bindings, new Date(range.end), new Date(range.start)]);
  const oddIds = rows.filter((row) => row[0] !== "t").map((row) => Number(row[ID]));
  const odd = new Map<number, Appointment>();
  if (oddIds.length) for (const model of await Appointment.ofAccount(accountId, db).whereIn("scheduling_appointments.id", oddIds)) odd.set(model.id, model);
  return rows.flatMap((row): ShownAppointment[] => {
    if (row[0] === "t") {
      const [id, resourceId, status] = [Number(row[ID]), Number(row[RESOURCE_ID]), row[STATUS]!];
      return [{ id, resource_id: resourceId, status, start: Date.parse(row[STARTS_AT]!), end: Date.parse(row[ENDS_AT]!), shown: row }];
    }
    // Deleted between the two reads: as if read a moment later.
    const model = odd.get(Number(row[ID]));
    if (!model) return [];
    const shown = JSON.stringify(appointmentFields(model)).slice(0, -1);
    return [{ id: model.id, resource_id: model.resource_id, status: model.status, start: model.starts_at.getTime(), end: model.ends_at.getTime(), shown }];
  });
}

interface MoneyRows<M extends Payment | Expense> {
  /** presentPayment's or presentExpense's keys in its order. */
  fields: readonly Field[];
  /** The short form's keys (presentAppointment's), in its order. */
  brief: readonly string[];
  table: string;
  models: (db: Knex, ids: number[]) => PromiseLike<M[]>;
  present: (model: M) => object;
}

/** Writers of a payment or an expense in full, and in its short form. */
export interface MoneyWriter {
  (into: JsonBytes, money: ShownMoney, brief?: boolean): void;
}

function moneyWriter(of: MoneyRows<Payment> | MoneyRows<Expense>): MoneyWriter {
  const full = objectWriter(
    of.fields,
    of.fields.map((f) => f.key),
  );
  const short = objectWriter(of.fields, of.brief);
  return (into, money, brief = false) => {
    if (brief) short(into, money.row);
    else if (money.json !== undefined) into.text(money.json);
    else full(into, money.row);
  };
}

/** The appointments' payments or expenses, by appointment then id (as Payment/Expense.ofAppointments). */
async function shownMoney<M extends Payment | Expense>(db: Knex, of: MoneyRows<M>, appointmentIds: readonly number[]): Promise<ShownMoney[]> {
  const sql = `select ${plainSql(of.fields)}, ${selectList(of.fields)}
    from ${of.table} r where r.appointment_id = any(?::bigint[]) order by r.appointment_id, r.id`;
  const rows = await rawRows(db, sql, [[...appointmentIds]]);
  const [idAt, appointmentAt, resourceAt, kindAt] = ["id", "appointment_id", "resource_id", "kind"].map(
    (key) => of.fields.findIndex((f) => f.key === key) + 1,
  ) as [number, number, number, number];
  const oddIds = rows.filter((row) => row[0] !== "t").map((row) => Number(row[idAt]));
  const odd = new Map(oddIds.length ? (await of.models(db, oddIds)).map((model) => [model.id, model]) : []);
  return rows.map((row) => {
    const model = odd.get(Number(row[idAt]));
    return {
      appointment_id: Number(row[appointmentAt]),
      row,
      ...(model ? { json: JSON.stringify(of.present(model)) } : {}),
      ...(resourceAt && kindAt ? { resource_id: Number(row[resourceAt]), kind: row[kindAt]! } : {}),
    };
  });
}

const PAYMENTS: MoneyRows<Payment> = {
  fields: [
    ...integers("id", "appointment_id", "recorded_by_id", "amount"),
    ...texts("payment_method", "payment_kind", "reason"),
    field("created_at", "instant"),
  ],
  brief: ["id", "amount", "payment_method", "payment_kind"],
  table: "scheduling_payments",
  models: (db, ids) => Payment.query(db).whereIn("id", ids),
  present: presentPayment,
};

const EXPENSES: MoneyRows<Expense> = {
  fields: [
    ...integers("id", "appointment_id", "resource_id"),
    field("kind", "text"),
    field("amount"),
    field("status", "text"),
    field("paid_at", "instant"),
    field("paid_by_id"),
    field("payout_id", "text"),
  ],
  brief: ["id", "amount", "status"],
  table: "scheduling_expenses",
  models: (db, ids) => Expense.query(db).whereIn("id", ids),
  present: presentExpense,
};

export const writePayment = moneyWriter(PAYMENTS);
export const writeExpense = moneyWriter(EXPENSES);

/** The appointments' payments and expenses. */
export function shownPaymentsAndExpenses(db: Knex, appointmentIds: readonly number[]): Promise<[ShownMoney[], ShownMoney[]]> {
  return Promise.all([shownMoney(db, PAYMENTS, appointmentIds), shownMoney(db, EXPENSES, appointmentIds)]);
}
