import test from "ava";
import pg from "pg";
import { parseIsoTimestamptz, timestamptzParser } from "../../src/db/timestamps";

// The parser pg ships with, taken before anything installs ours: the reference for every value.
const pgParser = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => Date;
const parse = timestamptzParser(pgParser) as (text: string) => Date;

test("gives the instant pg's own parser gives, whatever the fraction and offset", (t) => {
  for (const text of [
    "2026-03-02 04:30:00+00",
    "2026-03-02 04:30:00.123456+00",
    "2026-03-02 04:30:00.1+05",
    "2026-03-02 04:30:00.999999-03:30",
    "1900-01-01 00:00:00+01:02:03",
    "2028-02-29 23:59:59.5-12",
    "2026-03-02 04:30:00.12345678+00",
  ]) {
    t.truthy(parseIsoTimestamptz(text), text);
    t.is(parse(text).getTime(), pgParser(text).getTime(), text);
  }
});

test("random instants across four centuries round-trip through PostgreSQL's text form", (t) => {
  for (let i = 0; i < 2000; i++) {
    const ms = Math.floor((Math.random() - 0.5) * 2 * 200 * 365.25 * 86_400_000) + Date.UTC(2000, 0, 1);
    const offsetMinutes = (Math.floor(Math.random() * 57) - 28) * 30;
    const local = new Date(ms + offsetMinutes * 60_000).toISOString();
    const sign = offsetMinutes < 0 ? "-" : "+";
    const abs = Math.abs(offsetMinutes);
    const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${abs % 60 ? `:${String(abs % 60).padStart(2, "0")}` : ""}`;
    const text = `${local.slice(0, 10)} ${local.slice(11, 23)}${offset}`;
    t.is(parse(text).getTime(), ms, text);
  }
});

test("shapes it does not know go to pg's parser unchanged", (t) => {
  for (const text of ["infinity", "-infinity", "2026-03-02 04:30:00+00 BC", "0099-01-01 00:00:00+00", "2026-03-02 04:30:00+05x30", "2026-03-02T04:30:00Z"]) {
    t.is(parseIsoTimestamptz(text), undefined, text);
    t.deepEqual(parse(text), pgParser(text), text);
  }
});
