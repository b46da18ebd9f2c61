'use client';
/**
 * Numbers as the runs view and the dashboard show them, in the UI's language (next-intl's formatter): durations,
 * costs in USD, percentages, counts and the charts' day labels. The English output is what the pages always showed
 * ("1.25 s", "$0.0190", "75.0 %").
 */
import { useFormatter, useTranslations, type DateTimeFormatOptions } from 'next-intl';
import { useMemo } from 'react';

export interface RunFormat {
  /** "850 ms", "1.25 s", "2 m 5 s"; '' for none. */
  duration: (ms: number | null | undefined) => string;
  /** A run's cost: "$0", 5 decimals under a cent, else 4; null is an unknown price. */
  runCost: (usd: number | null) => string;
  /** A total: 4 decimals under a dollar, else 2; null is '—'. */
  totalCost: (usd: number | null) => string;
  /** An axis tick: 2 decimals. */
  axisCost: (usd: number) => string;
  /** A share 0…1 with one decimal ("75.0 %"); null is '—'. */
  percent: (share: number | null) => string;
  /** A share 0…1 as a whole percentage, for an axis. */
  axisPercent: (share: number) => string;
  /** A whole count with grouping. */
  count: (n: number) => string;
  /** A day `YYYY-MM-DD` short (month and day) and long (a tooltip's title). */
  shortDay: (day: string) => string;
  longDay: (day: string) => string;
  /** An ISO timestamp, date and time. */
  dateTime: (iso: string) => string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function useRunFormat(): RunFormat {
  const format = useFormatter();
  const t = useTranslations('runs.format');
  const tRow = useTranslations('runs.row');
  return useMemo(() => {
    const fixed = (n: number, digits: number) =>
      format.number(n, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    const usd = (n: number, digits: number) =>
      format.number(n, {
        style: 'currency',
        currency: 'USD',
        currencyDisplay: 'narrowSymbol',
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
    // A day is a calendar date: read and shown in UTC, so no time zone moves it to the day before.
    const day = (d: string, opts: DateTimeFormatOptions) =>
      DAY.test(d) ? format.dateTime(new Date(`${d}T00:00:00Z`), { ...opts, timeZone: 'UTC' }) : d;
    return {
      duration: (ms) => {
        if (ms === null || ms === undefined) return '';
        if (ms < 1000) return t('ms', { value: format.number(Math.round(ms)) });
        if (ms < 60_000) return t('seconds', { value: fixed(ms / 1000, ms < 10_000 ? 2 : 1) });
        return t('minutes', {
          minutes: format.number(Math.floor(ms / 60_000)),
          seconds: format.number(Math.round((ms % 60_000) / 1000)),
        });
      },
      runCost: (n) => {
        if (n === null) return tRow('priceUnknown');
        if (n === 0) return usd(0, 0);
        return usd(n, n < 0.01 ? 5 : 4);
      },
      totalCost: (n) => (n === null ? t('none') : usd(n, n < 1 ? 4 : 2)),
      axisCost: (n) => usd(n, 2),
      percent: (x) => (x === null ? t('none') : t('percent', { value: fixed(x * 100, 1) })),
      axisPercent: (x) => format.number(x, { style: 'percent', maximumFractionDigits: 0 }),
      count: (n) => format.number(Math.round(n)),
      shortDay: (d) => day(d, { month: 'numeric', day: 'numeric' }),
      longDay: (d) => day(d, { dateStyle: 'medium' }),
      dateTime: (iso) => format.dateTime(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' }),
    };
  }, [format, t, tRow]);
}
