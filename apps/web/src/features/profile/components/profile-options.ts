import {
  DATE_FORMATS,
  DECIMAL_SEPARATORS,
  isCurrencyCode,
  THOUSANDS_SEPARATORS,
  TIME_FORMATS,
} from '@fvg/contracts';
import { formatWall, type WallTime } from '../../../lib/format-date.ts';
import { t } from '../../../lib/i18n.ts';

/*
 * The choices of the profile's format fields, each labelled with what it looks like. Separators are
 * Select values, and a Select cannot hold '': "no grouping" is 'none' in the form.
 */

export const NO_GROUPING = 'none';
/** The browser's zone in the zone field (null in the API). */
export const BROWSER_ZONE = 'browser';

/** Literal keys, so the catalogue test sees each one used; read at render, so in the language in force. */
function separatorLabel(s: string): string {
  if (s === '.') return t('profile:separator.period');
  if (s === ',') return t('profile:separator.comma');
  if (s === ' ') return t('profile:separator.space');
  if (s === "'") return t('profile:separator.apostrophe');
  return t('profile:separator.none');
}

export const toSeparatorValue = (s: string) => (s === '' ? NO_GROUPING : s);
export const fromSeparatorValue = (v: string) => (v === NO_GROUPING ? '' : v);

export function decimalOptions() {
  return DECIMAL_SEPARATORS.map((s) => ({ value: s, label: separatorLabel(s) }));
}

export function thousandsOptions() {
  return THOUSANDS_SEPARATORS.map((s) => ({
    value: toSeparatorValue(s),
    label: separatorLabel(s),
  }));
}

/** A sample moment: a day past the 12th shows which of day and month comes first, 14:05 the clock. */
const SAMPLE: WallTime = { year: 2026, month: 11, day: 23, hour: 14, minute: 5, second: 0 };

export const dateFormatOptions = () => DATE_FORMATS.map((f) => ({ value: f, label: formatWall(SAMPLE, f) }));

export const timeFormatOptions = () =>
  TIME_FORMATS.map((f) => ({
    value: f,
    label:
      f === 'HH:mm'
        ? t('profile:timeFormat.24h', { example: formatWall(SAMPLE, f) })
        : t('profile:timeFormat.12h', { example: formatWall(SAMPLE, f) }),
  }));

let currencies: { value: string; label: string }[] | undefined;
/** ISO 4217 codes with their English names: 'EUR — Euro'. */
export function currencyOptions() {
  if (currencies) return currencies;
  const names = new Intl.DisplayNames(['en'], { type: 'currency' });
  const codes = Intl.supportedValuesOf('currency').filter(isCurrencyCode);
  currencies = codes.map((code) => ({ value: code, label: `${code} — ${names.of(code) ?? code}` }));
  return currencies;
}

let zones: string[] | undefined;
/** Every IANA zone the browser knows, plus the browser's own first. */
export function timeZoneOptions(browserZone: string, current: string | null) {
  // Browsers list canonical zones only: UTC and a stored alias (Asia/Calcutta) still need a row.
  zones ??= [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])];
  const list = current && !zones.includes(current) ? [current, ...zones] : zones;
  return [
    { value: BROWSER_ZONE, label: t('profile:timeZone.browser', { zone: browserZone }) },
    ...list.map((z) => ({ value: z, label: z.replace(/_/g, ' ') })),
  ];
}
