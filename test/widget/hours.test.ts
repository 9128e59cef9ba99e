import test from "ava";
import { isOpenNow } from "../../web/widget/hours";

const closedAt = (day: number) => ({
  day_of_week: day,
  closed_all_day: true,
  open_all_day: false,
  open_hour: null,
  open_minutes: null,
  close_hour: null,
  close_minutes: null,
});
const nineToFive = (day: number) => ({
  day_of_week: day,
  closed_all_day: false,
  open_all_day: false,
  open_hour: 9,
  open_minutes: 0,
  close_hour: 17,
  close_minutes: 30,
});
const week = [closedAt(0), ...[1, 2, 3, 4, 5].map(nineToFive), closedAt(6)];

test("the widget is open by the inbox's working hours, in the inbox's time zone", (t) => {
  // Monday 2026-11-23, 08:30 UTC is 09:30 in Berlin (UTC+1 in November).
  const monday0830Utc = new Date("2026-11-23T08:30:00Z");
  t.false(isOpenNow(true, week, "UTC", monday0830Utc));
  t.true(isOpenNow(true, week, "Europe/Berlin", monday0830Utc));
  t.true(isOpenNow(true, week, "UTC", new Date("2026-11-23T17:29:00Z")));
  t.false(isOpenNow(true, week, "UTC", new Date("2026-11-23T17:30:00Z")), "closing time is closed");
  t.false(isOpenNow(true, week, "UTC", new Date("2026-11-22T12:00:00Z")), "Sunday is closed all day");
  t.true(isOpenNow(false, week, "UTC", new Date("2026-11-22T12:00:00Z")), "without working hours the inbox is always open");
  t.true(isOpenNow(true, [{ ...closedAt(0), closed_all_day: false, open_all_day: true }], "UTC", new Date("2026-11-22T03:00:00Z")));
  t.false(isOpenNow(true, week, "Not/AZone", monday0830Utc), "an unknown zone reads as UTC");
});
