import { z } from 'zod';

/**
 * The shared input primitives every contract builds on (ADR 0017). Each one refuses, with a message a
 * form can show, what PostgreSQL would otherwise refuse with a data exception (a 500): NUL bytes and
 * lone surrogates in text, integers and decimals beyond their column, dates that do not exist, and
 * loose coercions ("0x10" → 16, true → 1, "" → 0, "1" → 2001-01-01).
 */

// ---- text ----------------------------------------------------------------------------------------

/** A UTF-16 surrogate without its partner (`\ud800`): not Unicode, and PostgreSQL refuses it (22P05). */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why PostgreSQL cannot store `s` as text, or undefined when it can. */
export function textProblem(s: string): string | undefined {
  if (s.includes('\0')) return 'Must not contain a NUL character (U+0000)';
  if (LONE_SURROGATE.test(s)) return 'Must be valid Unicode text (it contains a lone surrogate)';
  return undefined;
}

/**
 * The path of the first string (value or object key) in `value` that PostgreSQL cannot store, with
 * why; the API's input guard runs this over every body, query and path before validation.
 */
export function findTextProblem(
  value: unknown,
  path: (string | number)[] = [],
  depth = 0,
): { path: (string | number)[]; message: string } | undefined {
  if (typeof value === 'string') {
    const message = textProblem(value);
    return message ? { path, message } : undefined;
  }
  if (depth > 64 || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findTextProblem(value[i], [...path, i], depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, v] of Object.entries(value)) {
    const keyProblem = textProblem(key);
    if (keyProblem) return { path: [...path, key], message: `Field name: ${keyProblem}` };
    const found = findTextProblem(v, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Text PostgreSQL can store: no NUL, no lone surrogate; trimmed, 1..max characters. */
export function text(max: number, opts: { min?: number; trim?: boolean } = {}) {
  const base = opts.trim === false ? z.string() : z.string().trim();
  return base
    .min(opts.min ?? 0, opts.min === 1 ? 'Required' : `At least ${opts.min} characters`)
    .max(max, `At most ${max} characters`)
    .superRefine((s, ctx) => {
      const problem = textProblem(s);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}

/** An optional text field: trimmed, empty → null. */
export function optionalText(max: number) {
  return text(max)
    .transform((s) => (s === '' ? null : s))
    .nullish();
}

// ---- integers ------------------------------------------------------------------------------------

/** PostgreSQL `integer` (int4). */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;
/** PostgreSQL `bigint` values that JavaScript numbers still hold exactly. */
export const INT8_SAFE_MIN = Number.MIN_SAFE_INTEGER;
export const INT8_SAFE_MAX = Number.MAX_SAFE_INTEGER;

/**
 * A whole number in a JSON body: a JSON number, never a string, boolean or array; bounded to an
 * `integer` column unless a narrower range is given.
 */
export function int(opts: { min?: number; max?: number } = {}) {
  const min = Math.max(opts.min ?? INT4_MIN, INT4_MIN);
  const max = Math.min(opts.max ?? INT4_MAX, INT4_MAX);
  return z
    .number({ error: 'Enter a whole number' })
    .int('Enter a whole number')
    .min(min, `Must be at least ${min}`)
    .max(max, `Must be at most ${max}`);
}

/** A whole number for a `bigint` column, within what JavaScript represents exactly. */
export function int8(opts: { min?: number; max?: number } = {}) {
  const min = Math.max(opts.min ?? INT8_SAFE_MIN, INT8_SAFE_MIN);
  const max = Math.min(opts.max ?? INT8_SAFE_MAX, INT8_SAFE_MAX);
  return z
    .number({ error: 'Enter a whole number' })
    .int('Enter a whole number')
    .min(min, `Must be at least ${min}`)
    .max(max, `Must be at most ${max}`);
}

/** The optimistic-concurrency `version` every edit sends back: an `integer` column, from 1. */
export const versionSchema = int({ min: 1 });

/**
 * A whole number in a query string: plain decimal digits only (`^\d+$`, no sign, hex, exponent or
 * blank), then bounded like `int`.
 */
export function queryInt(opts: { min?: number; max?: number } = {}) {
  return z
    .string({ error: 'Enter a whole number' })
    .regex(/^\d{1,16}$/, 'Enter a whole number (digits only)')
    .transform(Number)
    .pipe(int(opts));
}

/** A yes/no in a query string: exactly `true` or `false` (no `yes`, `on`, `1` or blank guessed at). */
export const queryBoolean = z
  .enum(['true', 'false'], { error: 'Send true or false' })
  .transform((v) => v === 'true');

// ---- decimals (money, quantities) ----------------------------------------------------------------

/** The largest absolute value a `numeric(precision, scale)` column holds, as a decimal string. */
export function numericMax(precision: number, scale: number): string {
  const whole = '9'.repeat(precision - scale) || '0';
  return scale ? `${whole}.${'9'.repeat(scale)}` : whole;
}

/** Whether the decimal string `d` fits `numeric(precision, scale)` once rounded to `scale` decimals. */
export function fitsNumeric(d: string, precision: number, scale: number): boolean {
  const m = /^-?(\d+)(?:\.(\d+))?$/.exec(d.trim());
  if (!m) return false;
  const whole = (m[1] as string).replace(/^0+/, '');
  if (whole.length < precision - scale) return true;
  if (whole.length > precision - scale) return false;
  // Exactly as many whole digits as the column has: rounding the decimals up may still carry over.
  const frac = m[2] ?? '';
  if (frac.length <= scale) return true;
  const kept = frac.slice(0, scale);
  const roundsUp = Number(frac[scale]) >= 5;
  return !(roundsUp && /^9*$/.test(whole + kept));
}

/**
 * A decimal for a `numeric(precision, scale)` column, sent as a string (`"1234.50"`) or a JSON number,
 * never a binary float in between: at most `scale` decimals and no more whole digits than the column.
 */
export function decimal(opts: { precision: number; scale: number; min?: number; positive?: boolean }) {
  const wholeDigits = opts.precision - opts.scale;
  const re = new RegExp(`^-?\\d{1,${Math.max(wholeDigits, 1)}}(\\.\\d{1,${opts.scale}})?$`);
  const decimals = opts.scale ? `at most ${opts.scale} decimals` : 'no decimals';
  return z
    .union([z.string().trim(), z.number().finite()], { error: 'Enter a number' })
    .transform((v) => String(v))
    .pipe(
      z
        .string()
        .regex(/^-?\d+(\.\d+)?$/, `Enter a number with ${decimals}`)
        .regex(re, `Enter a number with ${decimals} and at most ${wholeDigits} digits before the point`)
        .refine((s) => opts.min === undefined || Number(s) >= opts.min, `Must be at least ${opts.min}`)
        .refine((s) => !opts.positive || Number(s) > 0, 'Must be more than 0'),
    );
}

// ---- dates and times -----------------------------------------------------------------------------

/** The years a date or time may lie in: wide for history and plans, narrow enough for every column. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 9999;

function isRealDate(y: number, m: number, d: number): boolean {
  if (y < MIN_YEAR || y > MAX_YEAR || m < 1 || m > 12 || d < 1) return false;
  const days = [
    31,
    y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return d <= (days[m - 1] as number);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2}))$/;

/** Whether `s` is a calendar date `YYYY-MM-DD` that exists, in MIN_YEAR..MAX_YEAR. */
export function isCalendarDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  return !!m && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * Whether `s` is an ISO 8601 instant with a time zone (`2026-03-01T08:00Z`, `…:56.123+01:00`) on a
 * date that exists, a real time of day, and within MIN_YEAR..MAX_YEAR in UTC too.
 */
export function isDateTime(s: string): boolean {
  const m = DATE_TIME_RE.exec(s);
  if (!m || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  const utcYear = new Date(s).getUTCFullYear();
  return utcYear >= MIN_YEAR && utcYear <= MAX_YEAR;
}

const DATE_MESSAGE = `Enter a date that exists as YYYY-MM-DD, between ${MIN_YEAR} and ${MAX_YEAR}`;
const DATE_TIME_MESSAGE = `Enter a date and time that exist, with a time zone (ISO 8601, e.g. 2026-12-01T08:00:00Z), between ${MIN_YEAR} and ${MAX_YEAR}`;

/** A calendar date `YYYY-MM-DD` that exists (`2026-02-30` and `0000-01-01` do not). */
export const calendarDate = z
  .string({ error: DATE_MESSAGE })
  .refine(isCalendarDate, DATE_MESSAGE)
  .meta({ format: 'date', example: '2026-12-01' });

/** An optional calendar date in a form body: trimmed, empty → null. */
export function optionalCalendarDate() {
  return z
    .string({ error: DATE_MESSAGE })
    .trim()
    .transform((s) => (s === '' ? null : s))
    .refine((v) => v === null || isCalendarDate(v), DATE_MESSAGE)
    .nullish()
    .meta({ format: 'date', example: '2026-12-01' });
}

/**
 * An instant: strict ISO 8601 with a time zone on a date that exists, never moved to another day
 * (`2026-02-30T08:00Z` is refused, not stored as 2 March). The text is kept as sent.
 */
export const dateTime = z
  .string({ error: DATE_TIME_MESSAGE })
  .refine(isDateTime, DATE_TIME_MESSAGE)
  .meta({ format: 'date-time', example: '2026-12-01T08:00:00Z' });

/** An optional instant in a form body: trimmed, empty → null, else normalised to `toISOString()`. */
export function optionalDateTime() {
  return z
    .string({ error: DATE_TIME_MESSAGE })
    .trim()
    .transform((s) => (s === '' ? null : s))
    .refine((v) => v === null || isDateTime(v), DATE_TIME_MESSAGE)
    .transform((v) => (v === null ? null : new Date(v).toISOString()))
    .nullish()
    .meta({ format: 'date-time', example: '2026-12-01T08:00:00Z' });
}
