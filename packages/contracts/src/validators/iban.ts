/**
 * IBAN (ISO 13616) and BIC (ISO 9362). An IBAN is its country's fixed length and passes the mod-97
 * check: the first four characters moved to the end, letters as 10..35, the number mod 97 is 1.
 * The lengths are those of the SWIFT IBAN registry for the SEPA countries and the UK's neighbours;
 * a country not listed is checked by shape and mod 97 only.
 */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
};

/** Spaces and dashes out, upper case: `nl91 abna 0417 1643 00` → `NL91ABNA0417164300`. */
export function normalizeIban(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

/** The IBAN in groups of four, as it is printed on an invoice. */
export function formatIban(value: string): string {
  return normalizeIban(value).replace(/(.{4})(?=.)/g, '$1 ');
}

/** ISO 7064 mod 97-10 of an IBAN (normalized): 1 for a valid one. */
export function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const digits = code >= 65 ? String(code - 55) : ch;
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest;
}

/** Why a (normalized) IBAN is wrong: 'format', 'length' or 'check-digits'; undefined when valid. */
export function ibanProblem(iban: string): 'format' | 'length' | 'check-digits' | undefined {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return 'format';
  const length = IBAN_LENGTHS[iban.slice(0, 2)];
  if (length !== undefined && iban.length !== length) return 'length';
  return ibanMod97(iban) === 1 ? undefined : 'check-digits';
}

/** The expected length of an IBAN of `country`, when the registry above has it. */
export function ibanLength(country: string): number | undefined {
  return IBAN_LENGTHS[country.toUpperCase()];
}

/** A BIC (SWIFT code): bank (4 letters), country (2 letters), location (2), optional branch (3). */
export function isBic(value: string): boolean {
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(value);
}
