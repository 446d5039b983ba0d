import { describe, expect, it } from 'vitest';
import { nextPeriodStart, parseInstant, periodStart, periodsBetween } from '../../src/platform/time.js';

const d = (iso: string) => new Date(iso);

describe('parseInstant', () => {
  it('reads a date as 00:00 UTC and a date-time with its zone', () => {
    expect(parseInstant('2026-03-01', 'from').toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(parseInstant('2026-03-01T10:30:00+02:00', 'from').toISOString()).toBe('2026-03-01T08:30:00.000Z');
    expect(parseInstant('2028-02-29T23:59:59.999Z', 'to').toISOString()).toBe('2028-02-29T23:59:59.999Z');
  });

  it.each([
    '2026-02-30',
    '2027-02-29',
    '2026-13-01',
    '2026-01-01T24:00:00Z',
    '2026-01-01T10:61Z',
    '2026-1-1',
    '',
  ])('rejects %j with 400 naming the field', (value) => {
    expect(() => parseInstant(value, 'querystring.from')).toThrow(
      expect.objectContaining({
        statusCode: 400,
        details: expect.objectContaining({
          fields: [expect.objectContaining({ field: 'querystring.from' })],
        }),
      }),
    );
  });

  it('accepts the years 0001 to 9999 and nothing beyond, whatever the zone', () => {
    expect(parseInstant('0001-01-01', 'from').toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(parseInstant('0050-06-15T12:00:00Z', 'from').toISOString()).toBe('0050-06-15T12:00:00.000Z');
    expect(parseInstant('9999-12-31T23:59:59.999Z', 'to').toISOString()).toBe('9999-12-31T23:59:59.999Z');
    for (const value of [
      '0000-01-01',
      '0000-12-31T23:59:59Z',
      '0001-01-01T00:30:00+01:00',
      '9999-12-31T23:00:00-05:00',
    ]) {
      expect(() => parseInstant(value, 'body.expiresAt'), value).toThrow(
        expect.objectContaining({
          statusCode: 400,
          details: { fields: [expect.objectContaining({ field: 'body.expiresAt' })] },
        }),
      );
    }
  });
});

describe('periods', () => {
  it('starts UTC days at midnight', () => {
    expect(periodStart(d('2026-03-02T23:59:59.999Z'), 'daily').toISOString()).toBe(
      '2026-03-02T00:00:00.000Z',
    );
  });

  it('starts ISO weeks on Monday, across a year boundary', () => {
    // 2026-01-01 is a Thursday: its ISO week (2026-W01) starts on Monday 2025-12-29.
    expect(periodStart(d('2026-01-01T12:00:00Z'), 'weekly').toISOString()).toBe('2025-12-29T00:00:00.000Z');
    expect(periodStart(d('2026-03-08T23:59:59.999Z'), 'weekly').toISOString()).toBe(
      '2026-03-02T00:00:00.000Z',
    );
    expect(periodStart(d('2026-03-09T00:00:00Z'), 'weekly').toISOString()).toBe('2026-03-09T00:00:00.000Z');
  });

  it('starts months on the first and steps over short months and leap days', () => {
    expect(periodStart(d('2028-02-29T08:00:00Z'), 'monthly').toISOString()).toBe('2028-02-01T00:00:00.000Z');
    expect(nextPeriodStart(d('2028-02-01T00:00:00Z'), 'monthly').toISOString()).toBe(
      '2028-03-01T00:00:00.000Z',
    );
    expect(nextPeriodStart(d('2026-12-01T00:00:00Z'), 'monthly').toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });

  it('keeps the years 0001 to 0099 as they are', () => {
    expect(periodStart(d('0050-03-02T10:00:00Z'), 'daily').toISOString()).toBe('0050-03-02T00:00:00.000Z');
    expect(periodStart(d('0050-03-02T10:00:00Z'), 'monthly').toISOString()).toBe('0050-03-01T00:00:00.000Z');
    expect(nextPeriodStart(d('0099-12-01T00:00:00Z'), 'monthly').toISOString()).toBe(
      '0100-01-01T00:00:00.000Z',
    );
  });

  it('lists every period touching the range, and refuses too many', () => {
    const weeks = periodsBetween(d('2026-03-04T00:00:00Z'), d('2026-03-20T00:00:00Z'), 'weekly', 10);
    expect(weeks?.map((p) => [p.start.toISOString().slice(0, 10), p.end.toISOString().slice(0, 10)])).toEqual(
      [
        ['2026-03-02', '2026-03-09'],
        ['2026-03-09', '2026-03-16'],
        ['2026-03-16', '2026-03-23'],
      ],
    );
    expect(periodsBetween(d('2024-01-01T00:00:00Z'), d('2024-12-31T00:00:00Z'), 'daily', 366)).toHaveLength(
      366,
    );
    expect(periodsBetween(d('2024-01-01T00:00:00Z'), d('2024-12-31T00:00:00Z'), 'daily', 365)).toBeNull();
  });
});
