import { isCountryCode } from './places.ts';

/** EU VAT number formats after the country prefix (Greece uses EL, Northern Ireland XI). */
const EU_VAT: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

/** A well-formed VAT number per prefix, for messages ("Enter a VAT number such as PL1234567890"). */
const VAT_EXAMPLES: Record<string, string> = {
  AT: 'ATU12345678',
  BE: 'BE0123456789',
  BG: 'BG123456789',
  CY: 'CY12345678L',
  CZ: 'CZ12345678',
  DE: 'DE123456789',
  DK: 'DK12345678',
  EE: 'EE123456789',
  EL: 'EL123456789',
  ES: 'ESB12345678',
  FI: 'FI12345678',
  FR: 'FR12345678901',
  HR: 'HR12345678901',
  HU: 'HU12345678',
  IE: 'IE1234567T',
  IT: 'IT12345678901',
  LT: 'LT123456789',
  LU: 'LU12345678',
  LV: 'LV12345678901',
  MT: 'MT12345678',
  NL: 'NL123456789B01',
  PL: 'PL1234567890',
  PT: 'PT123456789',
  RO: 'RO1234567890',
  SE: 'SE123456789012',
  SI: 'SI12345678',
  SK: 'SK1234567890',
  XI: 'XI123456789',
};

/** An example VAT number for a country prefix (EU formats; a Dutch one for any other prefix). */
export function vatNumberExample(prefix: string): string {
  return VAT_EXAMPLES[prefix === 'GR' ? 'EL' : prefix] ?? 'NL123456789B01';
}

export function normalizeTaxId(value: string): string {
  return value.toUpperCase().replace(/[\s.-]/g, '');
}

/** Why a VAT number is malformed, or undefined. EU prefixes get their national format; others a generic one. */
export function vatNumberProblem(value: string): string | undefined {
  const prefix = value.slice(0, 2);
  const rest = value.slice(2);
  const eu = EU_VAT[prefix];
  if (eu) return eu.test(rest) ? undefined : `not a valid ${prefix} VAT number format`;
  if (prefix === 'GR') return 'Greek VAT numbers start with EL';
  if (!isCountryCode(prefix)) return 'a VAT number starts with a country prefix (e.g. NL, DE)';
  return /^[A-Z0-9]{2,15}$/.test(rest)
    ? undefined
    : 'a VAT number has 2 to 15 letters or digits after the prefix';
}

/** EORI: ISO alpha-2 prefix + up to 15 alphanumerics (17 at most). Format only. */
export function eoriProblem(value: string): string | undefined {
  if (!/^[A-Z]{2}[A-Z0-9]{1,15}$/.test(value))
    return 'an EORI is a country prefix and up to 15 letters or digits';
  if (!isCountryCode(value.slice(0, 2))) return `${value.slice(0, 2)} is not a country code`;
  return undefined;
}
