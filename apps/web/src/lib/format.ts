/*
 * Number and money formatting with the user's number format preference (lib/number-format.ts;
 * default USD, '.', ','). Independent of the machine's locale: numbers are laid out by Intl with the
 * fixed `en-US` locale, then its group and decimal separators are swapped for the preferred ones part
 * by part, so a preference like { decimal: ',', thousands: '.' } cannot collide with itself.
 */
import { minorUnitsOf } from '@fvg/contracts';
import { useDisplayPreferences } from './display-preferences.ts';
import {
  DEFAULT_NUMBER_FORMAT,
  type NumberFormatPreference,
  numberFormat,
  useNumberFormat,
} from './number-format.ts';

export { DEFAULT_NUMBER_FORMAT, type NumberFormatPreference };

export interface NumberFormatOptions {
  minimumFractionDigits?: number;
  maximumFractionDigits?: number;
}

/**
 * A number, or an exact decimal string such as '1234.565' (Intl rounds strings exactly, half away
 * from zero; amounts kept as strings or minor units never pass through binary floating point).
 */
export type FormattableNumber = number | bigint | `${number}`;

const formatterCache = new Map<string, Intl.NumberFormat>();

function formatter(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let cached = formatterCache.get(key);
  if (!cached) {
    cached = new Intl.NumberFormat('en-US', options);
    formatterCache.set(key, cached);
  }
  return cached;
}

function resolve(preference?: Partial<NumberFormatPreference>): NumberFormatPreference {
  return { ...numberFormat(), ...preference };
}

function withSeparators(parts: Intl.NumberFormatPart[], preference: NumberFormatPreference): string {
  return parts
    .map((part) => {
      if (part.type === 'group') return preference.thousands;
      if (part.type === 'decimal') return preference.decimal;
      return part.value;
    })
    .join('');
}

function toParts(value: FormattableNumber, options: Intl.NumberFormatOptions): Intl.NumberFormatPart[] {
  // Strings are exact decimals (Intl.NumberFormat v3); the cast only widens the lib's signature.
  return formatter(options).formatToParts(value as number);
}

/** e.g. formatNumber(1234567.891) → '1,234,567.891'; up to 3 fraction digits unless told otherwise. */
export function formatNumber(
  value: FormattableNumber,
  options: NumberFormatOptions = {},
  preference?: Partial<NumberFormatPreference>,
): string {
  const pref = resolve(preference);
  return withSeparators(toParts(value, { ...options, useGrouping: pref.thousands !== '' }), pref);
}

/**
 * e.g. formatMoney(-1234.5) → '-$1,234.50'; the currency's own number of fraction digits by default
 * (the ISO 4217 table in contracts' money.ts, the one the money inputs and totals read too).
 */
export function formatMoney(
  amount: FormattableNumber,
  preference?: Partial<NumberFormatPreference>,
  options: NumberFormatOptions = {},
): string {
  const pref = resolve(preference);
  const units = minorUnitsOf(pref.currency);
  return withSeparators(
    toParts(amount, {
      minimumFractionDigits: Math.min(units, options.maximumFractionDigits ?? units),
      maximumFractionDigits: Math.max(units, options.minimumFractionDigits ?? units),
      ...options,
      style: 'currency',
      currency: pref.currency,
      useGrouping: pref.thousands !== '',
    }),
    pref,
  );
}

/**
 * Re-renders the calling component whenever the profile's number or date preference changes: for
 * components that format while rendering (the data table's cells, the profile's examples).
 */
export function useFormatPreferences(): void {
  useNumberFormat();
  useDisplayPreferences();
}

/** A file size as people read it: 512 bytes, 14 KB, 3.2 MB (binary units, as the server's limits). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) {
    return `${formatNumber(bytes / (1024 * 1024), { maximumFractionDigits: 1 })} MB`;
  }
  if (bytes >= 1024) return `${formatNumber(Math.round(bytes / 1024))} KB`;
  return `${formatNumber(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
}
