import { badRequest } from '../errors.js';

/** UTC calendar arithmetic for history periods: days, ISO weeks (Monday to Sunday) and months. */

export const INTERVALS = ['daily', 'weekly', 'monthly'] as const;
export type Interval = (typeof INTERVALS)[number];

export const DAY_MS = 86_400_000;

export interface Period {
  start: Date;
  /** Exclusive: the start of the next period. */
  end: Date;
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-](\d{2}):(\d{2})))?$/;

const invalidInstant = (field: string) =>
  badRequest(`${field} is not a valid ISO 8601 date or date-time`, {
    fields: [{ field, message: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with a zone' }],
  });

/**
 * Parses `YYYY-MM-DD` (00:00 UTC that day) or an RFC 3339 date-time. Rejects dates that do not exist
 * (2026-02-30) instead of rolling them over as `Date.parse` does.
 */
export function parseInstant(value: string, field: string): Date {
  const match = INSTANT.exec(value);
  if (!match) throw invalidInstant(field);
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const calendarOk =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  const clockOk = hour < 24 && minute < 60 && second < 60 && offsetHour < 24 && offsetMinute < 60;
  if (!calendarOk || !clockOk) throw invalidInstant(field);
  if (match[4] === undefined) return date;
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) throw invalidInstant(field);
  return new Date(parsed);
}

export const startOfUtcDay = (instant: Date) =>
  new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate()));

export function periodStart(instant: Date, interval: Interval): Date {
  const day = startOfUtcDay(instant);
  if (interval === 'daily') return day;
  if (interval === 'weekly') return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
}

export function nextPeriodStart(start: Date, interval: Interval): Date {
  if (interval === 'daily') return new Date(start.getTime() + DAY_MS);
  if (interval === 'weekly') return new Date(start.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/**
 * The periods that contain any instant of [from, to], oldest first; `null` when there would be more than
 * `maxPeriods` of them.
 */
export function periodsBetween(
  from: Date,
  to: Date,
  interval: Interval,
  maxPeriods: number,
): Period[] | null {
  const periods: Period[] = [];
  for (let start = periodStart(from, interval); start <= to; ) {
    if (periods.length === maxPeriods) return null;
    const end = nextPeriodStart(start, interval);
    periods.push({ start, end });
    start = end;
  }
  return periods;
}

/** `YYYY-MM-DD` of the UTC day containing `instant`: the key of a daily roll-up. */
export const utcDay = (instant: Date) => instant.toISOString().slice(0, 10);
