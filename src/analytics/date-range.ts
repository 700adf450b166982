import { InputError } from '../domain/errors.js';
import type { DateRange } from './assistant-events.js';

/** When dateFrom is omitted the range covers this many days before dateTo. */
export const DEFAULT_RANGE_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:\d{2})$/i;

/**
 * Parses one already-syntax-checked bound: YYYY-MM-DD is midnight UTC, a date-time with an offset
 * is converted to UTC, a date-time without one is read as UTC.
 */
export function parseInstant(value: string): Date {
  const iso = DATE_ONLY.test(value) ? `${value}T00:00:00Z` : HAS_OFFSET.test(value) ? value : `${value}Z`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`unparseable instant ${value}`);
  return new Date(ms);
}

/**
 * Defaults: dateTo = now, dateFrom = dateTo - 30 days. dateTo is exclusive, so
 * `dateFrom=2024-03-01&dateTo=2024-03-02` is exactly the UTC day of March 1st.
 */
export function resolveDateRange(input: { dateFrom?: string | undefined; dateTo?: string | undefined }, now: Date): DateRange {
  const to = input.dateTo === undefined ? now : parseInstant(input.dateTo);
  const from = input.dateFrom === undefined ? new Date(to.getTime() - DEFAULT_RANGE_DAYS * DAY_MS) : parseInstant(input.dateFrom);
  if (from.getTime() >= to.getTime()) {
    const toText = input.dateTo === undefined ? `now (${to.toISOString()}), the default dateTo` : to.toISOString();
    throw new InputError('invalid date range', [
      { path: 'query.dateFrom', message: `query.dateFrom: must be before dateTo (dateFrom ${from.toISOString()} is not before ${toText}; dateTo is exclusive)` },
    ]);
  }
  return { from, to };
}
