/**
 * A timestamptz parser for the text PostgreSQL sends in its ISO DateStyle, `2026-03-02 04:30:00.123456+00`
 * (offset `±HH`, `±HH:MM` or `±HH:MM:SS`). pg's default parser runs a regular expression and
 * several Date calls per value, which was the largest single cost of reading wide rows (the calendar's
 * appointments, a conversation with its messages). Anything else (BC dates, infinity, other
 * DateStyles) goes to the fallback, so no value parses differently from before.
 */
export function timestamptzParser(fallback: (text: string) => unknown): (text: string) => unknown {
  return (text) => parseIsoTimestamptz(text) ?? fallback(text);
}

const ZERO = 48;

function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The instant of an ISO-DateStyle timestamptz, or undefined for any other shape. */
export function parseIsoTimestamptz(text: string): Date | undefined {
  if (text.length < 22 || text[4] !== "-" || text[7] !== "-" || text[10] !== " " || text[13] !== ":" || text[16] !== ":") return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;

  let at = 19;
  let ms = 0;
  if (text[at] === ".") {
    let scale = 100;
    for (at++; at < text.length; at++) {
      const digit = text.charCodeAt(at) - ZERO;
      if (digit < 0 || digit > 9) break;
      // Date keeps milliseconds: further digits are truncated, as pg's parser does.
      ms += digit * scale;
      scale /= 10;
    }
    ms = Math.floor(ms);
  }

  const sign = text[at] === "+" ? -1 : text[at] === "-" ? 1 : 0;
  if (!sign) return undefined;
  const rest = text.length - at - 1;
  if (rest !== 2 && rest !== 5 && rest !== 8) return undefined;
  if ((rest >= 5 && text[at + 3] !== ":") || (rest === 8 && text[at + 6] !== ":")) return undefined;
  const offsetHours = digits(text, at + 1, 2);
  const offsetMinutes = rest >= 5 ? digits(text, at + 4, 2) : 0;
  const offsetSeconds = rest === 8 ? digits(text, at + 7, 2) : 0;
  if (offsetHours < 0 || offsetMinutes < 0 || offsetSeconds < 0) return undefined;

  // Years before 100 would be taken as 19xx by Date.UTC; leave them to the fallback.
  if (year < 100) return undefined;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms) + sign * (offsetHours * 3600 + offsetMinutes * 60 + offsetSeconds) * 1000;
  return new Date(utc);
}
