/*
 * The value mapping every record form repeats: inputs hold text ('' for empty), the API takes null,
 * a missing value or a JSON number. One helper each, so an area's `<area>-form-values.ts` lists only
 * its fields.
 */

type Plain = string | number | null | undefined;

/** A record's value as an input holds it: '' for none, numbers as text. */
export const text = (value: Plain): string => (value === null || value === undefined ? '' : String(value));

/** The named fields of a record as inputs hold them ('' for null). */
export function textsOf<const K extends string>(
  record: Partial<Record<K, Plain>>,
  keys: readonly K[],
): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, text(record[key])])) as Record<K, string>;
}

/** The named fields empty ('' each), for a new record's form. */
export function emptyTexts<const K extends string>(keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, ''])) as Record<K, string>;
}

/** An optional text the API takes as null when empty. */
export const orNull = (s: string) => (s.trim() === '' ? null : s);

/** A required value left missing when empty, so the contract says "… is required". */
export const orUndefined = (s: string) => (s.trim() === '' ? undefined : s);

/** The API takes whole numbers as JSON numbers: digits become one, anything else stays for the schema to refuse. */
export const wholeNumber = (s: string) =>
  s.trim() === '' ? null : /^\d{1,9}$/.test(s.trim()) ? Number(s.trim()) : s;
