/*
 * Dates and numbers as the printed documents show them: the web's defaults (lib/format-date.ts
 * 'D MMM YYYY', lib/format.ts en-US grouping), fixed here because a PDF is read by someone else with
 * other display preferences, and an issued invoice must print the same every time.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The zone an instant's day is read in: the company's, as the invoices' issue dates are (sales-invoices.service). */
export const PRINT_TIME_ZONE = 'Europe/Amsterdam';

const dayInZone = new Intl.DateTimeFormat('en-CA', {
  timeZone: PRINT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * '2026-11-23' → '23 Nov 2026'; an ISO instant → its day in the company's zone, the same way; empty → '—'.
 * A calendar date is a day and is never moved by a zone.
 */
export function printDate(value: string | null | undefined): string {
  if (!value) return '—';
  let day = value;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const instant = new Date(value);
    if (Number.isNaN(instant.getTime())) return value;
    day = dayInZone.format(instant);
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return value;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
}

const formatters = new Map<number, Intl.NumberFormat>();

/**
 * An exact decimal string with grouping and a fixed number of decimals: '1234.5' → '1,234.50'.
 * Intl rounds string input exactly (half away from zero, like money.ts), never through a double.
 */
export function printDecimal(value: string, decimals = 2): string {
  let f = formatters.get(decimals);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    formatters.set(decimals, f);
  }
  return f.format(value as `${number}`);
}

/** A quantity without trailing zeros: '2.000' → '2', '1.250' → '1.25', '12000' → '12,000'. */
export function printQuantity(value: string): string {
  const decimals = (/\.(\d*?)0*$/.exec(value)?.[1] ?? '').length;
  return printDecimal(value, decimals);
}

/** A unit price: at least 2 decimals, up to the 4 the database keeps ('12.5000' → '12.50', '0.1250' → '0.125'). */
export function printUnitPrice(value: string): string {
  const decimals = (/\.(\d*?)0*$/.exec(value)?.[1] ?? '').length;
  return printDecimal(value, Math.min(4, Math.max(2, decimals)));
}

/** An amount with its currency code: '1,234.50 EUR'. */
export function printMoney(value: string, currency: string): string {
  return `${printDecimal(value)} ${currency}`;
}

/** A VAT rate as a percentage: '21.00' → '21 %', '5.50' → '5.5 %'; null → '—'. */
export function printRate(rate: string | null): string {
  if (rate === null) return '—';
  return `${printQuantity(rate)} %`;
}
