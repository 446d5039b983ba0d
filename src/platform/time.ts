import { badRequest } from './errors.js';

/** UTC calendar arithmetic for history periods: days, ISO weeks (Monday to Sunday) and months. */

import type { Interval } from '../shared/vocabulary.js';

export const DAY_MS = 86_400_000;

export interface Period {
  start: Date;
  /** Exclusive: the start of the next period. */
  end: Date;
}

/** The instants the API accepts: years 0001–9999, which ISO 8601 writes without a sign and PostgreSQL stores. */
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');
export const isSupportedInstant = (time: number) => time >= EARLIEST && time <= LATEST;

/** Midnight UTC of a calendar day; unlike `Date.UTC`, which reads the years 0–99 as 1900–1999. */
function utcDate(year: number, monthIndex: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date;
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-](\d{2}):(\d{2})))?$/;

const invalidInstant = (field: string) =>
  badRequest(`${field} is not a valid ISO 8601 date or date-time`, {
    fields: [{ field, message: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with a zone' }],
  });

const outOfRange = (field: string) =>
  badRequest(`${field} is outside the years 0001 to 9999`, {
    fields: [{ field, message: 'must lie within the years 0001 to 9999 (UTC)' }],
  });

/**
 * Parses `YYYY-MM-DD` (00:00 UTC that day) or an RFC 3339 date-time. Rejects dates that do not exist
 * (2026-02-30) instead of rolling them over as `Date.parse` does, and instants outside the years 0001–9999.
 */
export function parseInstant(value: string, field: string): Date {
  const match = INSTANT.exec(value);
  if (!match) throw invalidInstant(field);
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  const date = utcDate(year, month - 1, day);
  const calendarOk =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  const clockOk = hour < 24 && minute < 60 && second < 60 && offsetHour < 24 && offsetMinute < 60;
  if (!calendarOk || !clockOk) throw invalidInstant(field);
  const instant = match[4] === undefined ? date.getTime() : Date.parse(value);
  if (Number.isNaN(instant)) throw invalidInstant(field);
  if (!isSupportedInstant(instant)) throw outOfRange(field);
  return new Date(instant);
}

export const startOfUtcDay = (instant: Date) =>
  utcDate(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate());

export function periodStart(instant: Date, interval: Interval): Date {
  const day = startOfUtcDay(instant);
  if (interval === 'daily') return day;
  if (interval === 'weekly') return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
  return utcDate(day.getUTCFullYear(), day.getUTCMonth(), 1);
}

export function nextPeriodStart(start: Date, interval: Interval): Date {
  if (interval === 'daily') return new Date(start.getTime() + DAY_MS);
  if (interval === 'weekly') return new Date(start.getTime() + 7 * DAY_MS);
  return utcDate(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
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

/**
 * A date-time of a request body, checked as `parseInstant` checks query parameters (years 0001–9999, real
 * dates) and written back in the API's form (`…T…Z`, milliseconds); null and undefined pass as they are.
 */
export function bodyInstant<T extends string | null | undefined>(value: T, field: string): T {
  return (typeof value === 'string' ? parseInstant(value, field).toISOString() : value) as T;
}
