/** One day of the inbox's working hours, as the inbox payload has it (DOM-free, so tests import this module). */
export interface WorkingHour {
  day_of_week: number;
  closed_all_day: boolean;
  open_all_day: boolean;
  open_hour: number | null;
  open_minutes: number | null;
  close_hour: number | null;
  close_minutes: number | null;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The inbox's weekday and minute of the day now, in its own time zone. */
function nowIn(timeZone: string, at: Date): { day: number; minute: number } {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "0";
  return { day: WEEKDAYS.indexOf(part("weekday")), minute: Number(part("hour")) * 60 + Number(part("minute")) };
}

/** Whether the inbox is open now by its working hours (always, when it keeps none). */
export function isOpenNow(enabled: boolean, hours: WorkingHour[], timeZone: string, at = new Date()): boolean {
  if (!enabled) return true;
  let now: { day: number; minute: number };
  try {
    now = nowIn(timeZone, at);
  } catch {
    now = nowIn("UTC", at);
  }
  const today = hours.find((hour) => hour.day_of_week === now.day);
  if (!today || today.closed_all_day) return false;
  if (today.open_all_day) return true;
  const opens = (today.open_hour ?? 0) * 60 + (today.open_minutes ?? 0);
  const closes = (today.close_hour ?? 0) * 60 + (today.close_minutes ?? 0);
  return now.minute >= opens && now.minute < closes;
}
