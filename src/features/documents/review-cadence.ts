/**
 * A document's review cadence: an ISO 8601 duration of whole years, months, weeks and days (`P1Y`, `P6M`,
 * `P90D`, `P2W`, `P1Y6M`), at least one day and at most a hundred years. Times of day (`PT12H`) are not
 * taken: a review is planned in days. Adding one to an instant works on the UTC calendar: years and months
 * first, a day past the end of the month falling back to its last day (31 January + P1M is 28 or 29
 * February), then weeks and days.
 */

const DURATION = /^P(?:(\d{1,4})Y)?(?:(\d{1,5})M)?(?:(\d{1,5})W)?(?:(\d{1,6})D)?$/;
const LIMIT_DAYS = 36_525;

export interface Cadence {
  years: number;
  months: number;
  days: number;
}

/** The cadence a duration names, or why it is not one. */
export function parseCadence(text: string): Cadence | string {
  const match = DURATION.exec(text);
  if (!match || text === 'P') {
    return 'must be an ISO 8601 duration of years, months, weeks and days, such as P1Y, P6M or P90D';
  }
  const [years, months, weeks, days] = match.slice(1).map((part) => Number(part ?? 0));
  const cadence = { years, months, days: weeks * 7 + days };
  const approxDays = cadence.years * 365.25 + cadence.months * 30.44 + cadence.days;
  if (approxDays < 1) return 'must be at least one day';
  if (approxDays > LIMIT_DAYS) return 'must be at most 100 years';
  return cadence;
}

/** `from` plus the cadence, on the UTC calendar. */
export function addCadence(from: Date, cadence: Cadence): Date {
  const monthIndex = from.getUTCFullYear() * 12 + from.getUTCMonth() + cadence.years * 12 + cadence.months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(from);
  result.setUTCFullYear(year, month, Math.min(from.getUTCDate(), lastDay));
  result.setUTCDate(result.getUTCDate() + cadence.days);
  return result;
}
