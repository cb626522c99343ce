import { useSyncExternalStore } from 'react';

/*
 * The user's number format (currency, decimal and thousands separators): one preference, read by
 * every formatter (lib/format.ts) and every amount or quantity input, so the profile sets it in one
 * place (setNumberFormat). The default is the spec's: USD, '.' and ','.
 */

export interface NumberFormatPreference {
  /** ISO 4217 code. */
  currency: string;
  decimal: string;
  /** May be empty for no grouping. */
  thousands: string;
}

export const DEFAULT_NUMBER_FORMAT: Readonly<NumberFormatPreference> = Object.freeze({
  currency: 'USD',
  decimal: '.',
  thousands: ',',
});

let current: Readonly<NumberFormatPreference> = DEFAULT_NUMBER_FORMAT;
const listeners = new Set<() => void>();

/** The preference in force (the default until the profile says otherwise). */
export function numberFormat(): Readonly<NumberFormatPreference> {
  return current;
}

/** Sets the user's preference (null: back to the default); inputs using useNumberFormat follow at once. */
export function setNumberFormat(next: Partial<NumberFormatPreference> | null): void {
  const merged = Object.freeze({ ...DEFAULT_NUMBER_FORMAT, ...next });
  if (merged.decimal === merged.thousands) {
    throw new Error(`The decimal and thousands separators must differ (both "${merged.decimal}")`);
  }
  if (
    merged.currency === current.currency &&
    merged.decimal === current.decimal &&
    merged.thousands === current.thousands
  )
    return; // `me` is fetched again now and then: the same answer re-renders nothing.
  current = merged;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The preference, re-rendering the component when it changes. */
export function useNumberFormat(): Readonly<NumberFormatPreference> {
  return useSyncExternalStore(subscribe, numberFormat, numberFormat);
}

export type ParsedDecimal = { ok: true; value: string } | { ok: false; message: string };

export interface ParseDecimalOptions {
  /** At most this many decimals (more non-zero ones are refused; trailing zeros are dropped). */
  decimals: number;
  /** Pads the decimals to `decimals` (money: '2450' → '2450.00'); quantities keep what was typed. */
  pad?: boolean;
  /** Says whose decimals these are in the message: 'JPY amounts have no decimals'. */
  unit?: string;
  preference?: Readonly<NumberFormatPreference>;
}

/** Spaces of every width group digits in any preference: '2 450,00' reads the same as '2450,00'. */
const SPACES = /[\s\u00a0\u202f\u2009]/g;

/** An example amount written with the preference's separators, for messages: '2,450.00'. */
export function exampleAmount(preference: Readonly<NumberFormatPreference> = current): string {
  return `2${preference.thousands}450${preference.decimal}00`;
}

/**
 * Reads a number as a person types it, with their own separators ('2,450.00', '2 450,00', '-12.5'),
 * into the exact decimal string the API takes ('2450.00'): no binary float in between. Anything else
 * is refused with a sentence saying how to write it.
 */
export function parseDecimalInput(text: string, options: ParseDecimalOptions): ParsedDecimal {
  const pref = options.preference ?? current;
  const { decimal, thousands } = pref;
  const example = exampleAmount(pref);
  let s = text.trim().replace(/\u2212/g, '-');
  if (s === '') return { ok: true, value: '' };
  const negative = s.startsWith('-');
  if (negative || s.startsWith('+')) s = s.slice(1).trimStart();
  s = s.replace(SPACES, '');
  const allowed = new Set(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', decimal, thousands]);
  if (s === '' || [...s].some((c) => !allowed.has(c))) {
    return { ok: false, message: `Enter digits only, e.g. ${example}` };
  }
  const parts = s.split(decimal);
  if (parts.length > 2) {
    return { ok: false, message: `Use "${decimal}" once, before the decimals, e.g. ${example}` };
  }
  const [whole = '', fraction = ''] = parts;
  // A thousands separator between groups of three only: '12,5' is a slip for 12.5 (or 125), not a guess.
  if (
    thousands !== '' &&
    (fraction.includes(thousands) ||
      (whole.includes(thousands) && !new RegExp(`^\\d{1,3}(${escapeRegExp(thousands)}\\d{3})*$`).test(whole)))
  ) {
    return {
      ok: false,
      message: `"${thousands}" separates thousands and "${decimal}" the decimals, e.g. ${example}`,
    };
  }
  const digits = whole.split(thousands === '' ? /(?!)/ : thousands).join('');
  if (digits === '' && fraction === '') return { ok: false, message: `Enter digits, e.g. ${example}` };
  const kept = fraction.replace(/0+$/, '');
  if (kept.length > options.decimals) {
    const name = options.unit ? `${options.unit} amounts` : 'Numbers here';
    return {
      ok: false,
      message:
        options.decimals === 0
          ? `${name} have no decimals`
          : `${name} have at most ${options.decimals} decimals`,
    };
  }
  const frac = options.pad ? kept.padEnd(options.decimals, '0') : kept;
  const int = digits.replace(/^0+(?=\d)/, '') || '0';
  const isZero = /^0*$/.test(int + frac);
  return { ok: true, value: `${negative && !isZero ? '-' : ''}${int}${frac ? `.${frac}` : ''}` };
}

/** A decimal string as the person edits it: their decimal separator, no grouping ('2450.5' → '2450,5'). */
export function editableDecimal(
  value: string,
  preference: Readonly<NumberFormatPreference> = current,
): string {
  return preference.decimal === '.' ? value : value.replace('.', preference.decimal);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
