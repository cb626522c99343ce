/**
 * Movement Reference Number (MRN) of EU customs (domain-standards.md): 18 characters — year (2 digits),
 * issuing country (ISO alpha-2), national identifier (12 letters or digits), procedure letter
 * (position 17) and a check character over the first 17, computed like an ISO 6346 container check
 * digit. The authority allocates it; we validate what a clerk types and what the sandbox makes.
 */
import type { DeclarationType } from '../declarations-values.ts';
import { iso6346CheckDigit } from './iso6346.ts';
import { isCountryCode } from './places.ts';

/**
 * The procedure letters (position 17) an MRN of each type can carry: export A (export only), B (+ exit
 * summary), C (exit summary only), D (re-export notification), E (dispatch to special fiscal
 * territories); transit J (transit only), K (+ exit summary), L (+ entry summary), M (+ both); import
 * R (import only), S (+ entry summary), T (entry summary only), U (temporary storage), V (introduction
 * from special fiscal territories), W (temporary storage + entry summary).
 */
export const MRN_LETTERS_OF_TYPE: Readonly<Record<DeclarationType, readonly string[]>> = {
  import: ['R', 'S', 'T', 'U', 'V', 'W'],
  export: ['A', 'B', 'C', 'D', 'E'],
  transit: ['J', 'K', 'L', 'M'],
};

const WITH_ARTICLE: Readonly<Record<DeclarationType, string>> = {
  import: 'an import',
  export: 'an export',
  transit: 'a transit',
};

const ALL_LETTERS: ReadonlySet<string> = new Set(Object.values(MRN_LETTERS_OF_TYPE).flat());

/** 'A, B, C, D or E' */
function listed(letters: readonly string[]): string {
  return `${letters.slice(0, -1).join(', ')} or ${letters[letters.length - 1]}`;
}

/** The check character (position 18) of the first 17 characters: ISO 6346 values, weights 2^0..2^16, mod 11, 10 → '0'. */
export function mrnCheckCharacter(first17: string): string {
  if (first17.length !== 17)
    throw new Error(`an MRN check character covers 17 characters, not ${first17.length}`);
  return String(iso6346CheckDigit(first17));
}

/** Trimmed, upper case, without spaces: what a clerk types or pastes becomes comparable. */
export function normalizeMrn(value: string): string {
  return value.toUpperCase().replace(/\s+/g, '');
}

/**
 * Why `value` is not an MRN (of `type`, when given), as a sentence a clerk understands; undefined when
 * it is one. Expects a normalized value (`normalizeMrn`).
 */
export function mrnProblem(value: string, type?: DeclarationType): string | undefined {
  if (value === '') return 'Enter the MRN';
  if (/[a-z]/.test(value)) return 'An MRN is written in capital letters';
  if (!/^[A-Z0-9]*$/.test(value)) return 'An MRN has only letters and digits';
  if (value.length !== 18) return 'An MRN has 18 characters';
  if (!/^\d\d/.test(value)) return 'An MRN starts with the last two digits of the year (e.g. 26)';
  const country = value.slice(2, 4);
  if (!isCountryCode(country))
    return `Positions 3 and 4 of an MRN are the issuing country; ${country} is not a country code`;
  const letter = value[16] as string;
  if (type && !MRN_LETTERS_OF_TYPE[type].includes(letter))
    return `Position 17 of ${WITH_ARTICLE[type]} MRN is ${listed(MRN_LETTERS_OF_TYPE[type])}`;
  if (!ALL_LETTERS.has(letter))
    return 'Position 17 of an MRN is the procedure letter: A to E (export), J to M (transit) or R to W (import)';
  const check = mrnCheckCharacter(value.slice(0, 17));
  if (value[17] !== check) return `The check character should be ${check}`;
  return undefined;
}

export function isValidMrn(value: string, type?: DeclarationType): boolean {
  return mrnProblem(value, type) === undefined;
}

/**
 * An MRN from its parts (the sandbox authority allocates with it). `year` is the full or two-digit year;
 * a malformed part is the caller's bug and throws.
 */
export function makeMrn(input: { year: number; country: string; serial: string; letter: string }): string {
  const { year, country, serial, letter } = input;
  if (!Number.isInteger(year) || year < 0) throw new Error(`not a year: ${year}`);
  if (!isCountryCode(country)) throw new Error(`not a country code: "${country}"`);
  if (!/^[A-Z0-9]{12}$/.test(serial)) throw new Error(`an MRN serial is 12 letters or digits: "${serial}"`);
  if (!ALL_LETTERS.has(letter)) throw new Error(`not an MRN procedure letter: "${letter}"`);
  const first17 = `${String(year % 100).padStart(2, '0')}${country}${serial}${letter}`;
  return `${first17}${mrnCheckCharacter(first17)}`;
}
