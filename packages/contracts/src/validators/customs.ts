/**
 * Formats of customs declaration fields (domain-standards.md "Customs declarations", "Commodity
 * codes", "Movement Reference Number"): each returns the sentence a clerk reads, or undefined when the
 * value is fine. Pure and zod-free: the API's schemas and the web's form call the same functions, so
 * the messages are identical everywhere. EORIs are `eoriProblem` (tax-ids.ts), countries `isCountryCode`
 * (places.ts), currency decimals `currencyDecimalsProblem` (money.ts).
 */
import { type DeclarationCategory, MAX_LRN_LENGTH } from '../declarations-values.ts';
import { isCountryCode } from './places.ts';

/** A customs office reference: country prefix + 6 letters or digits (`NL000396`). */
export function customsOfficeProblem(value: string): string | undefined {
  if (value === '') return 'Enter the customs office';
  if (!/^[A-Z]{2}[A-Z0-9]{6}$/.test(value))
    return 'A customs office reference is a country code and 6 letters or digits, e.g. NL000396';
  const country = value.slice(0, 2);
  if (!isCountryCode(country))
    return `A customs office reference starts with a country code; ${country} is not one`;
  return undefined;
}

/** Without the spaces and dots a clerk types to group the digits: '8471 30 00' → '84713000'. */
export function normalizeCommodityCode(value: string): string {
  return value.replace(/[\s.]/g, '');
}

/**
 * A CN (8 digits) or TARIC (10 digits) code, chapter 01–97 and not the reserved 77; with `subheading`,
 * a 6-digit HS subheading too (what NCTS accepts on a transit item). Spaces and dots between the digit
 * groups are ignored (store `normalizeCommodityCode` of it).
 */
export function commodityCodeProblem(
  value: string,
  options: { subheading?: boolean } = {},
): string | undefined {
  const code = normalizeCommodityCode(value);
  if (code === '') return 'Enter the commodity code';
  if (!/^\d+$/.test(code)) return 'A commodity code has only digits, e.g. 8471 30 00';
  if (options.subheading && code.length === 6) {
    // an HS subheading: checked for its chapter below
  } else if (code.length !== 8 && code.length !== 10)
    return options.subheading
      ? 'A commodity code has 6 digits (HS subheading), 8 (CN) or 10 (TARIC)'
      : 'A commodity code has 8 digits (CN) or 10 digits (TARIC)';
  const chapter = Number(code.slice(0, 2));
  if (chapter === 77) return 'Chapter 77 is reserved: no commodity code starts with 77';
  if (chapter < 1 || chapter > 97) return 'A commodity code starts with a chapter from 01 to 97';
  return undefined;
}

/** As the tariff prints it: '8471 30', '8471 30 00', '8471 30 00 00'; anything else unchanged. */
export function formatCommodityCode(value: string): string {
  const code = normalizeCommodityCode(value);
  if (!/^\d{6}(\d{2}(\d{2})?)?$/.test(code)) return value;
  return [code.slice(0, 4), code.slice(4, 6), code.slice(6, 8), code.slice(8, 10)].filter(Boolean).join(' ');
}

/** The requested procedures (first two digits of a procedure code) the product knows, with what they are. */
const PROCEDURES: Readonly<Record<string, string>> = {
  '01': 'an import procedure',
  '07': 'an import procedure',
  '40': 'an import procedure',
  '42': 'an import procedure',
  '44': 'an import procedure',
  '61': 'an import procedure',
  '71': 'a customs warehousing procedure',
  '53': 'a temporary admission procedure',
  '51': 'an inward processing procedure',
  '10': 'an export procedure',
  '11': 'an export procedure',
  '23': 'an export procedure',
  '31': 'an export procedure',
  '21': 'an outward processing procedure',
  '22': 'an outward processing procedure',
};

/** The requested procedures each category takes (domain-standards.md); transit items have none. */
export const REQUESTED_PROCEDURES_OF_CATEGORY: Readonly<Record<DeclarationCategory, readonly string[]>> = {
  H1: ['01', '07', '40', '42', '44', '61'],
  H2: ['71'],
  B1: ['10', '11', '23', '31'],
  T1: [],
  T2: [],
};

const CATEGORY_NAMES: Readonly<Record<DeclarationCategory, string>> = {
  H1: 'an import (H1) declaration',
  H2: 'a customs warehousing (H2) declaration',
  B1: 'an export (B1) declaration',
  T1: 'a transit (T1) declaration',
  T2: 'a transit (T2) declaration',
};

function listed(values: readonly string[]): string {
  return values.length === 1
    ? (values[0] as string)
    : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/**
 * A procedure code (SAD box 37): requested procedure (2 digits, one the category takes) + previous
 * procedure (2 digits: 00 when there was none, else a known procedure, as 71 in 4071).
 */
export function procedureCodeProblem(code: string, category: DeclarationCategory): string | undefined {
  const allowed = REQUESTED_PROCEDURES_OF_CATEGORY[category];
  if (allowed.length === 0)
    return code === '' ? undefined : 'A transit item has no procedure code: leave it empty';
  if (code === '') return 'Enter the procedure code';
  if (!/^\d{4}$/.test(code)) return 'A procedure code has 4 digits, e.g. 4000';
  const requested = code.slice(0, 2);
  const previous = code.slice(2);
  if (!allowed.includes(requested)) {
    const what = PROCEDURES[requested];
    const takes = `${CATEGORY_NAMES[category]} takes ${listed(allowed)}`;
    return what
      ? `Procedure ${code} is ${what}; ${takes}`
      : `${requested} is not a known requested procedure; ${takes}`;
  }
  if (previous !== '00' && !PROCEDURES[previous])
    return `The last two digits of ${code} are the previous procedure: 00 when there was none, or a known procedure such as 71`;
  return undefined;
}

/** Preference (SAD box 36): 3 digits, e.g. 100. */
export function preferenceProblem(value: string): string | undefined {
  if (value === '') return 'Enter the preference';
  return /^\d{3}$/.test(value) ? undefined : 'A preference has 3 digits, e.g. 100';
}

/**
 * Local reference number: chosen by the declarant, 1 to 22 characters. Letters, digits, '-', '/' and
 * '.' (the '.' because a number series' prefix may hold one, and the LRN comes from the series).
 */
export function lrnProblem(value: string): string | undefined {
  if (value === '') return 'Enter the LRN';
  if (value.length > MAX_LRN_LENGTH) return `An LRN has at most ${MAX_LRN_LENGTH} characters`;
  if (!/^[A-Z0-9./-]+$/.test(value)) return 'An LRN has only capital letters, digits, - / and .';
  return undefined;
}

/** Guarantee reference number: up to 24 letters or digits. */
export function grnProblem(value: string): string | undefined {
  if (value === '') return 'Enter the guarantee reference number (GRN)';
  if (value.length > 24) return 'A guarantee reference number (GRN) has at most 24 characters';
  if (!/^[A-Z0-9]+$/.test(value))
    return 'A guarantee reference number (GRN) has only capital letters and digits';
  // NCTS phase 6 (GRNType of the IE015 schema): year, country, 12 letters or digits and a check digit,
  // and for one of several guarantees in a voucher a letter and 6 digits after them.
  if (!/^\d{2}[A-Z]{2}[A-Z0-9]{12}\d([A-Z]\d{6})?$/.test(value))
    return 'A guarantee reference number (GRN) is 17 characters: year, country, 12 letters or digits and a check digit, e.g. 26NL0000000000017 (24 with a letter and 6 digits after them)';
  return undefined;
}

/**
 * The active ISO 4217 codes (currencies, funds, precious metals and units of account). Left out: the
 * withdrawn ones (HRK 2023, SLL, ZWL, CUC, ANG 2025 → XCG, BGN 2026 → EUR) and XTS / XXX (a testing code
 * and "no currency"), which an invoice never carries. Decimals per code: `minorUnitsOf` in money.ts.
 */
const CURRENCY_CODES: ReadonlySet<string> = new Set(
  (
    'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
    'CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP ' +
    'GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR ' +
    'KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN ' +
    'MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD ' +
    'SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX ' +
    'USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF ' +
    'XPT XSU XUA YER ZAR ZMW ZWG'
  ).split(' '),
);

/** Whether `value` is an active ISO 4217 code (upper case, as stored). */
export function isCurrencyCode(value: string): boolean {
  return CURRENCY_CODES.has(value);
}
