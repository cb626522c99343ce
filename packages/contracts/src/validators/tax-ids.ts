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
  AT: 'ATU13585627',
  BE: 'BE0403019261',
  BG: 'BG123456789',
  CY: 'CY12345678L',
  CZ: 'CZ12345678',
  DE: 'DE136695976',
  DK: 'DK12345678',
  EE: 'EE123456789',
  EL: 'EL123456789',
  ES: 'ESA13585625',
  FI: 'FI12345678',
  FR: 'FR40303265045',
  HR: 'HR12345678901',
  HU: 'HU12345678',
  IE: 'IE1234567T',
  IT: 'IT00743110157',
  LT: 'LT123456789',
  LU: 'LU12345678',
  LV: 'LV12345678901',
  MT: 'MT12345678',
  NL: 'NL004495445B01',
  PL: 'PL8567346215',
  PT: 'PT123456789',
  RO: 'RO1234567890',
  SE: 'SE123456789012',
  SI: 'SI12345678',
  SK: 'SK1234567890',
  XI: 'XI123456789',
};

/** An example VAT number for a country prefix (EU formats, with valid check digits where the country has them; a Dutch one for any other prefix). */
export function vatNumberExample(prefix: string): string {
  return VAT_EXAMPLES[prefix === 'GR' ? 'EL' : prefix] ?? 'NL004495445B01';
}

export function normalizeTaxId(value: string): string {
  return value.toUpperCase().replace(/[\s.-]/g, '');
}

const digits = (s: string) => [...s].map(Number);

/** ISO 7064 mod 97-10 over letters and digits (A = 10 … Z = 35): the whole string leaves 1. */
function mod97(s: string): number {
  let r = 0;
  for (const ch of s) {
    const v = Number.parseInt(ch, 36);
    r = (v > 9 ? r * 100 + v : r * 10 + v) % 97;
  }
  return r;
}

/** Luhn: the weighted sum of all digits (check digit included) is a multiple of 10. */
function luhn(s: string): boolean {
  let sum = 0;
  digits(s)
    .reverse()
    .forEach((d, i) => {
      const x = i % 2 ? d * 2 : d;
      sum += x > 9 ? x - 9 : x;
    });
  return sum % 10 === 0;
}

/** ISO 7064 mod 11,10 (the German USt-IdNr.): the last digit checks the ones before it. */
function mod11_10(s: string): boolean {
  let product = 10;
  for (const d of digits(s.slice(0, -1))) {
    let sum = (d + product) % 10;
    if (sum === 0) sum = 10;
    product = (2 * sum) % 11;
  }
  return (11 - product) % 10 === Number(s.slice(-1));
}

const ES_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spain: NIF of a person (DNI, NIE X/Y/Z) a letter mod 23; of an entity (CIF) a digit or letter. */
function spainValid(n: string): boolean {
  if (/^\d{8}[A-Z]$/.test(n)) return ES_LETTERS[Number(n.slice(0, 8)) % 23] === n[8];
  if (/^[XYZ]\d{7}[A-Z]$/.test(n))
    return ES_LETTERS[Number('XYZ'.indexOf(n[0] as string) + n.slice(1, 8)) % 23] === n[8];
  if (/^[KLM]\d{7}[A-Z]$/.test(n)) return ES_LETTERS[Number(n.slice(1, 8)) % 23] === n[8];
  if (/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(n)) {
    let sum = 0;
    digits(n.slice(1, 8)).forEach((d, i) => {
      const x = i % 2 === 0 ? d * 2 : d;
      sum += x > 9 ? x - 9 : x;
    });
    const check = (10 - (sum % 10)) % 10;
    return n[8] === String(check) || n[8] === 'JABCDEFGHI'[check];
  }
  return false;
}

/**
 * The check digits the member states publish (ADR 0042), on the part after the prefix; a country
 * without one here is checked by its format only. Vectors: the tax administrations' examples as
 * python-stdnum documents them (validators.test.ts).
 */
const EU_VAT_CHECKS: Record<string, (n: string) => boolean> = {
  // Austria: the UID's 7 digits, every second one doubled and its digits summed, +4; the 8th completes to 10.
  AT: (n) => {
    const d = digits(n.slice(1));
    const sum = d
      .slice(0, 7)
      .reduce((s, x, i) => s + (i % 2 ? Math.floor((2 * x) / 10) + ((2 * x) % 10) : x), 0);
    return (10 - ((sum + 4) % 10)) % 10 === d[7];
  },
  // Belgium: the enterprise number's last two digits are 97 − (the first eight mod 97).
  BE: (n) => 97 - (Number(n.slice(0, 8)) % 97) === Number(n.slice(8)),
  // Germany: ISO 7064 mod 11,10 over the nine digits.
  DE: mod11_10,
  // France: a numeric key is (12 + 3 × (SIREN mod 97)) mod 97, and the SIREN passes Luhn; a key with
  // letters (numbers issued since 1998 to some) has no published check and is taken by its format.
  FR: (n) => {
    const siren = n.slice(2);
    // Monaco's businesses have French VAT numbers on a SIREN-less '000…' number: no Luhn there.
    if (!siren.startsWith('000') && !luhn(siren)) return false;
    if (!/^\d{2}$/.test(n.slice(0, 2))) return true;
    return (12 + 3 * (Number(siren) % 97)) % 97 === Number(n.slice(0, 2));
  },
  // Italy: the partita IVA passes Luhn over its 11 digits.
  IT: luhn,
  ES: spainValid,
  // The Netherlands: the tax number's mod-11 test (weights 9…2, the ninth digit −1) for the numbers
  // derived from the RSIN, or, for the numbers issued to sole traders since 2020, ISO 7064 mod 97-10 over
  // the whole identifier with its letters as numbers (NL = 2321, B = 11).
  NL: (n) => {
    const d = digits(n.slice(0, 9));
    const sum = d.slice(0, 8).reduce((s, x, i) => s + x * (9 - i), 0) - (d[8] as number);
    return (sum % 11 === 0 && n.slice(10) !== '00') || mod97(`NL${n}`) === 1;
  },
  // Poland: the NIP's weights 6 5 7 2 3 4 5 6 7, sum mod 11 is the tenth digit (never 10).
  PL: (n) => {
    const d = digits(n);
    const sum = [6, 5, 7, 2, 3, 4, 5, 6, 7].reduce((s, w, i) => s + w * (d[i] as number), 0);
    return sum % 11 === d[9];
  },
};

/** Why a VAT number is malformed, or undefined. EU prefixes get their national format; others a generic one. */
export function vatNumberProblem(value: string): string | undefined {
  const prefix = value.slice(0, 2);
  const rest = value.slice(2);
  const eu = EU_VAT[prefix];
  if (eu) {
    if (!eu.test(rest)) return `not a valid ${prefix} VAT number format`;
    const check = EU_VAT_CHECKS[prefix];
    return check && !check(rest)
      ? `not a valid ${prefix} VAT number: its check digits do not match`
      : undefined;
  }
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
