/**
 * Which VAT an invoice line gets by default, and what issuing must refuse because the VAT directive
 * (art. 226) or EN 16931 / Peppol BIS 3.0 would (ADR 0029). Pure, no zod (ADR 0023): the API calls
 * it when issuing, the invoice editor when showing a draft's problems before the user presses Issue.
 */
import type { DOSSIER_TYPES } from './dossiers-values.ts';
import { compareDecimal, isDecimal, trimDecimal } from './money.ts';
import type { InvoiceKind, VatCode, VatExemptionReason } from './sales-values.ts';
import { normalizeTaxId, vatNumberProblem } from './validators/tax-ids.ts';

/** The rates of a member state from a date on (percent), until the next period of that state. */
export interface VatRatePeriod {
  /** The first day the rates apply (ISO date), by the date of supply (art. 63). */
  from: string;
  standard: string;
  reduced: readonly string[];
}

/**
 * The standard and reduced VAT rates of the 27 member states with the date each set took effect
 * (ADR 0042): ISO 3166 codes, so Greece is GR although its VAT numbers start with EL. The history is
 * kept back to 2019 where a rate changed since (NL, DE, FI, EE, SK, RO); a state's first period is the
 * earliest the table vouches for, and a date before it is not checked. A change is a new period, never
 * an edit of an old one: issued invoices keep the rates of their date. The zero rate is category Z.
 */
export const VAT_RATE_TABLE: Readonly<Record<string, readonly VatRatePeriod[]>> = Object.freeze({
  AT: [{ from: '2016-05-01', standard: '20', reduced: ['13', '10'] }],
  BE: [{ from: '1996-01-01', standard: '21', reduced: ['12', '6'] }],
  BG: [{ from: '2025-01-01', standard: '20', reduced: ['9'] }],
  CY: [{ from: '2025-01-01', standard: '19', reduced: ['9', '5', '3'] }],
  CZ: [{ from: '2024-01-01', standard: '21', reduced: ['12'] }],
  DE: [
    { from: '2007-01-01', standard: '19', reduced: ['7'] },
    { from: '2020-07-01', standard: '16', reduced: ['5'] },
    { from: '2021-01-01', standard: '19', reduced: ['7'] },
  ],
  DK: [{ from: '1992-01-01', standard: '25', reduced: [] }],
  EE: [
    { from: '2025-01-01', standard: '22', reduced: ['13', '9', '5'] },
    { from: '2025-07-01', standard: '24', reduced: ['13', '9', '5'] },
  ],
  ES: [{ from: '2012-09-01', standard: '21', reduced: ['10', '4'] }],
  FI: [
    { from: '2013-01-01', standard: '24', reduced: ['14', '10'] },
    { from: '2024-09-01', standard: '25.5', reduced: ['14', '10'] },
    { from: '2026-01-01', standard: '25.5', reduced: ['14', '13.5', '10'] },
  ],
  FR: [{ from: '2014-01-01', standard: '20', reduced: ['10', '5.5', '2.1'] }],
  GR: [{ from: '2016-06-01', standard: '24', reduced: ['13', '6'] }],
  HR: [{ from: '2025-01-01', standard: '25', reduced: ['13', '5'] }],
  HU: [{ from: '2012-01-01', standard: '27', reduced: ['18', '5'] }],
  IE: [{ from: '2025-01-01', standard: '23', reduced: ['13.5', '9', '4.8'] }],
  IT: [{ from: '2013-10-01', standard: '22', reduced: ['10', '5', '4'] }],
  LT: [{ from: '2025-01-01', standard: '21', reduced: ['9', '5'] }],
  LU: [{ from: '2024-01-01', standard: '17', reduced: ['14', '8', '3'] }],
  LV: [{ from: '2025-01-01', standard: '21', reduced: ['12', '5'] }],
  MT: [{ from: '2025-01-01', standard: '18', reduced: ['12', '7', '5'] }],
  NL: [
    { from: '2012-10-01', standard: '21', reduced: ['6'] },
    { from: '2019-01-01', standard: '21', reduced: ['9'] },
  ],
  PL: [{ from: '2011-01-01', standard: '23', reduced: ['8', '5'] }],
  PT: [{ from: '2025-01-01', standard: '23', reduced: ['13', '6'] }],
  RO: [
    { from: '2025-01-01', standard: '19', reduced: ['9', '5'] },
    { from: '2025-08-01', standard: '21', reduced: ['11'] },
  ],
  SE: [{ from: '2025-01-01', standard: '25', reduced: ['12', '6'] }],
  SI: [{ from: '2025-01-01', standard: '22', reduced: ['9.5', '5'] }],
  SK: [{ from: '2025-01-01', standard: '23', reduced: ['19', '5'] }],
});

/** The rates of a member state on a date (ISO), or, without a date, its latest; undefined when unknown. */
export function vatRatesOn(countryCode: string, date?: string | null): VatRatePeriod | undefined {
  const periods = VAT_RATE_TABLE[country(countryCode)];
  if (!periods) return undefined;
  if (!date) return periods[periods.length - 1];
  return periods.filter((p) => p.from <= date).at(-1);
}

/** The standard rate of each member state as the table has it today (the latest period). */
export const EU_STANDARD_VAT_RATES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    Object.entries(VAT_RATE_TABLE).map(([c, periods]) => [c, (periods.at(-1) as VatRatePeriod).standard]),
  ),
);

function country(code: string | null | undefined): string {
  const c = (code ?? '').trim().toUpperCase();
  return c === 'EL' ? 'GR' : c;
}

/** Whether a country code (ISO 3166 alpha-2, or EL for Greece) is a member state. */
export function isEuCountry(code: string): boolean {
  return Object.hasOwn(EU_STANDARD_VAT_RATES, country(code));
}

/** The exemption reasons each code accepts; S and Z take none. */
export const VAT_EXEMPTION_REASONS_BY_CODE: Readonly<Record<VatCode, readonly VatExemptionReason[]>> = {
  S: [],
  Z: [],
  E: ['VATEX-EU-146-1E', 'VATEX-EU-144'],
  AE: ['VATEX-EU-AE'],
  K: ['VATEX-EU-IC'],
  G: ['VATEX-EU-G'],
  O: ['VATEX-EU-O'],
};

/**
 * The member state a VAT number is registered in (its prefix; EL is Greece), or null when it has none
 * or is not an EU one. Reverse charge and intra-Community supplies hang on it, not on the address.
 */
export function euVatCountry(vatNumber: string | null | undefined): string | null {
  const prefix = country(normalizeTaxId(vatNumber ?? '').slice(0, 2));
  return prefix && isEuCountry(prefix) ? prefix : null;
}

/**
 * Whether the buyer is VAT-registered in another member state than the seller (art. 44, 138, 196):
 * the only case for reverse charge (AE) and an intra-Community supply (K).
 */
export function buyerRegisteredInOtherMemberState(
  sellerCountry: string,
  buyerVatNumber: string | null,
): boolean {
  const buyer = euVatCountry(buyerVatNumber);
  return buyer !== null && isEuCountry(sellerCountry) && buyer !== country(sellerCountry);
}

export interface LineVat {
  vatCode: VatCode;
  vatRate: string | null;
  exemptionReason: VatExemptionReason | null;
}

/**
 * What a line gets when the user picks `vatCode` in the editor: S the seller country's standard
 * rate, Z/E/AE 0 %, O no rate; the code's only reason where it has one (E has two: kept null).
 */
export function vatForCode(vatCode: VatCode, sellerCountry: string): LineVat {
  switch (vatCode) {
    case 'S':
      return {
        vatCode,
        vatRate: EU_STANDARD_VAT_RATES[country(sellerCountry)] ?? null,
        exemptionReason: null,
      };
    case 'Z':
      return { vatCode, vatRate: '0', exemptionReason: null };
    case 'E':
      return { vatCode, vatRate: '0', exemptionReason: null };
    case 'AE':
      return { vatCode, vatRate: '0', exemptionReason: 'VATEX-EU-AE' };
    case 'K':
      return { vatCode, vatRate: '0', exemptionReason: 'VATEX-EU-IC' };
    case 'G':
      return { vatCode, vatRate: '0', exemptionReason: 'VATEX-EU-G' };
    case 'O':
      return { vatCode, vatRate: null, exemptionReason: 'VATEX-EU-O' };
  }
}

/**
 * The default VAT of a new line: transport connected with export (art. 146(1)(e)) or import
 * (art. 144) is exempt; a business in another member state is reverse-charged (art. 44, 196); a
 * customer outside the EU is outside the scope (art. 44: the place of supply is theirs); everything
 * else is domestic, at the seller country's standard rate (null when the seller is not in the EU).
 */
export function defaultVat(input: {
  dossierType: (typeof DOSSIER_TYPES)[number] | null;
  sellerCountry: string;
  buyerCountry: string;
  buyerVatNumber: string | null;
}): LineVat {
  if (input.dossierType === 'export')
    return { vatCode: 'E', vatRate: '0', exemptionReason: 'VATEX-EU-146-1E' };
  if (input.dossierType === 'import') return { vatCode: 'E', vatRate: '0', exemptionReason: 'VATEX-EU-144' };
  const seller = country(input.sellerCountry);
  const buyer = country(input.buyerCountry);
  if (buyer && !isEuCountry(buyer)) return vatForCode('O', seller);
  if (
    buyer &&
    buyer !== seller &&
    isEuCountry(buyer) &&
    buyerRegisteredInOtherMemberState(seller, input.buyerVatNumber)
  )
    return vatForCode('AE', seller);
  return vatForCode('S', seller);
}

/** One thing issuing must refuse: the field (a path such as `lines.2.vatRate`), a sentence, the rule. */
export interface IssueProblem {
  field: string;
  message: string;
  /** The EN 16931 / Peppol rule (`BR-AE-02`) or the directive's article (`art226-5`) it breaks. */
  code: string;
}

/** The party fields the rules read; `InvoiceParty` of the invoices contract fits. */
export interface IssueParty {
  name?: string | null;
  street?: string | null;
  postalCode?: string | null;
  city?: string | null;
  countryCode?: string | null;
  vatNumber?: string | null;
  registrationNumber?: string | null;
}

export interface IssueLine {
  quantity: string;
  unitPrice: string;
  vatCode: VatCode;
  vatRate: string | null;
  exemptionReason: VatExemptionReason | null;
}

export interface IssueDocument {
  seller: IssueParty;
  buyer: IssueParty;
  lines: readonly IssueLine[];
  currency: string;
  baseCurrency: string;
  /** Base currency per unit of `currency`. */
  exchangeRate: string | null;
  kind: InvoiceKind;
  /** The number of the invoice a credit note corrects (BT-25). */
  precedingInvoiceNumber: string | null;
  /** The issue date (ISO) the rates are checked on; absent on a draft: today's table. */
  issueDate?: string | null;
  /** The date of supply (BT-72), when it differs: the rates of that date apply (art. 63). */
  supplyDate?: string | null;
  /** Document-level allowances and charges (BG-20/BG-21): the VAT group each falls in. */
  allowanceCharges?: readonly { vatCode: VatCode; vatRate: string | null }[] | undefined;
  /**
   * The date whose rates apply when it is neither: a credit note corrects its invoice at that invoice's
   * rates (its date of supply, else of issue), however long after it is issued.
   */
  ratesDate?: string | null;
}

/**
 * Countries whose addresses have no postal code, so a buyer there is not refused for lacking one.
 * Deliberately short: the places a forwarder in the EU commonly bills.
 */
const NO_POSTAL_CODE = new Set([
  'AE',
  'AG',
  'AO',
  'AW',
  'BS',
  'BZ',
  'CW',
  'FJ',
  'HK',
  'JM',
  'MO',
  'QA',
  'TT',
  'UG',
  'ZW',
]);

const blank = (v: string | null | undefined) => !v?.trim();

const CODE_NAMES: Readonly<Record<VatCode, string>> = {
  S: 'Standard-rated',
  Z: 'Zero-rated',
  E: 'Exempt',
  AE: 'Reverse-charge',
  K: 'Intra-Community supply',
  G: 'Export',
  O: 'Outside-the-scope',
};

const COUNTRY_NAMES: Readonly<Record<string, string>> = {
  AT: 'Austria',
  BE: 'Belgium',
  BG: 'Bulgaria',
  CY: 'Cyprus',
  CZ: 'Czechia',
  DE: 'Germany',
  DK: 'Denmark',
  EE: 'Estonia',
  ES: 'Spain',
  FI: 'Finland',
  FR: 'France',
  GR: 'Greece',
  HR: 'Croatia',
  HU: 'Hungary',
  IE: 'Ireland',
  IT: 'Italy',
  LT: 'Lithuania',
  LU: 'Luxembourg',
  LV: 'Latvia',
  MT: 'Malta',
  NL: 'the Netherlands',
  PL: 'Poland',
  PT: 'Portugal',
  RO: 'Romania',
  SE: 'Sweden',
  SI: 'Slovenia',
  SK: 'Slovakia',
};
const countryName = (c: string) => COUNTRY_NAMES[c] ?? c;
const pct = (r: string) => `${r} %`;
/** EN 16931 names K's rules BR-IC-nn; the other codes' rules carry the code. */
const rulePrefix = (code: VatCode) => (code === 'K' ? 'IC' : code);

/**
 * Everything the law or Peppol would refuse in this document, in the order of the form (seller,
 * buyer, currency, credited invoice, lines); empty when it may be issued.
 */
export function issueProblems(doc: IssueDocument): IssueProblem[] {
  const problems: IssueProblem[] = [];
  const add = (field: string, message: string, code: string) => problems.push({ field, message, code });
  const codes = new Set(doc.lines.map((l) => l.vatCode));
  const onlyOutOfScope = codes.size > 0 && [...codes].every((c) => c === 'O');

  // Seller: the company settings. Art. 226(3) and (5); BR-06, BR-08, BR-09.
  const { seller, buyer } = doc;
  if (blank(seller.name))
    add('seller.name', "The company's legal name is missing (company settings)", 'BR-06');
  if (blank(seller.street))
    add('seller.street', "The company's street address is missing (company settings)", 'art226-5');
  if (blank(seller.postalCode))
    add('seller.postalCode', "The company's postal code is missing (company settings)", 'art226-5');
  if (blank(seller.city)) add('seller.city', "The company's city is missing (company settings)", 'BR-08');
  if (blank(seller.countryCode))
    add('seller.countryCode', "The company's country is missing (company settings)", 'BR-09');
  const vatCategory = (['S', 'Z', 'E', 'AE', 'K', 'G'] as const).find((c) => codes.has(c));
  const sellerCountry = country(seller.countryCode);
  if (vatCategory && blank(seller.vatNumber))
    add(
      'seller.vatNumber',
      "The company's VAT number is missing (company settings)",
      `BR-${vatCategory === 'K' ? 'IC' : vatCategory}-02`,
    );
  else if (!blank(seller.vatNumber)) {
    // Entered before the check digits were checked, or written around the settings form: checked again.
    const problem = vatNumberProblem(normalizeTaxId(seller.vatNumber as string));
    if (problem)
      add('seller.vatNumber', `The company's VAT number is ${problem} (company settings)`, 'vat-number');
  }
  // An O invoice must not show the seller's VAT number (BR-O-02), so it is identified by its registration.
  if (onlyOutOfScope && blank(seller.registrationNumber))
    add(
      'seller.registrationNumber',
      "An invoice outside the scope of VAT needs the company's registration number (company settings)",
      'BR-CO-26',
    );

  // Buyer: art. 226(5) wants the full address; BR-07, BR-11.
  if (blank(buyer.name)) add('buyer.name', "The customer's name is missing", 'BR-07');
  if (blank(buyer.street)) add('buyer.street', "The customer's street address is missing", 'art226-5');
  if (blank(buyer.postalCode) && !NO_POSTAL_CODE.has(country(buyer.countryCode)))
    add('buyer.postalCode', "The customer's postal code is missing", 'art226-5');
  if (blank(buyer.city)) add('buyer.city', "The customer's city is missing", 'art226-5');
  if (blank(buyer.countryCode)) add('buyer.countryCode', "The customer's country is missing", 'BR-11');
  const buyerVatProblem = blank(buyer.vatNumber)
    ? undefined
    : vatNumberProblem(normalizeTaxId(buyer.vatNumber as string));
  if (buyerVatProblem)
    add('buyer.vatNumber', `The customer's VAT number is ${buyerVatProblem}`, 'vat-number');
  // Reverse charge and intra-Community supplies: only to a buyer VAT-registered in another member state.
  for (const code of ['AE', 'K'] as const) {
    if (!codes.has(code)) continue;
    const what = code === 'AE' ? 'Reverse charge' : 'An intra-Community supply';
    const rule = code === 'AE' ? 'BR-AE-02' : 'BR-IC-02';
    if (blank(buyer.vatNumber)) add('buyer.vatNumber', `${what} needs the customer's VAT number`, rule);
    else if (!buyerVatProblem && !buyerRegisteredInOtherMemberState(sellerCountry, buyer.vatNumber ?? null)) {
      const registered = euVatCountry(buyer.vatNumber);
      add(
        'buyer.vatNumber',
        registered
          ? `${what} applies only to a customer VAT-registered in another EU member state than ${countryName(sellerCountry)}; this customer's VAT number is of ${countryName(registered)}: charge VAT`
          : `${what} applies only to a customer VAT-registered in another EU member state; this customer's VAT number is not an EU one`,
        code === 'AE' ? 'art196' : 'art138',
      );
    }
  }
  // BR-IC-11: an intra-Community supply states when the goods were delivered.
  if (codes.has('K') && blank(doc.supplyDate))
    add(
      'supplyDate',
      'An intra-Community supply needs the date the goods were delivered (supply date)',
      'BR-IC-11',
    );

  // Art. 230: another currency states its rate, so the VAT can also be given in the base currency.
  const currency = doc.currency.trim().toUpperCase();
  const base = doc.baseCurrency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) add('currency', 'Choose the currency of the invoice', 'BR-05');
  else if (currency !== base) {
    const rate = doc.exchangeRate?.trim() ?? '';
    if (!rate) add('exchangeRate', `An invoice in ${currency} needs the exchange rate to ${base}`, 'art230');
    else if (!isDecimal(rate) || compareDecimal(rate, '0') <= 0)
      add('exchangeRate', 'The exchange rate must be a number above 0', 'art230');
  }

  // Art. 219: a credit note refers to the invoice it corrects unambiguously (BT-25).
  if (doc.kind === 'credit_note' && blank(doc.precedingInvoiceNumber))
    add('creditedInvoice', 'A credit note needs the number of the invoice it corrects', 'BR-55');

  if (doc.lines.length === 0) add('lines', 'An invoice needs at least one line', 'BR-16');
  // The rates of the seller's member state on the date of supply (else the issue date, else today).
  const rates = isEuCountry(sellerCountry)
    ? vatRatesOn(sellerCountry, doc.ratesDate || doc.supplyDate || doc.issueDate)
    : undefined;
  const allowed = rates ? [rates.standard, ...rates.reduced] : [];
  // One VAT breakdown per (code, rate) carries one reason: the first line's reason is the group's.
  const reasonOfGroup = new Map<string, VatExemptionReason | null>();
  doc.lines.forEach((line, i) => {
    const at = (f: keyof IssueLine) => `lines.${i}.${f}`;
    const code = line.vatCode;
    if (!isDecimal(line.quantity)) add(at('quantity'), 'Enter the quantity as a number', 'BR-22');
    if (!isDecimal(line.unitPrice)) add(at('unitPrice'), 'Enter the unit price as a number', 'BR-26');
    else if (compareDecimal(line.unitPrice, '0') < 0)
      add(
        at('unitPrice'),
        'A unit price cannot be negative: lower the price of the line it discounts, or credit the issued invoice',
        'BR-27',
      );

    const rate = line.vatRate?.trim() || null;
    if (
      rate !== null &&
      (!isDecimal(rate) || compareDecimal(rate, '0') < 0 || compareDecimal(rate, '100') >= 0)
    )
      add(at('vatRate'), 'Enter the VAT rate as a percentage between 0 and 100', `BR-${rulePrefix(code)}-05`);
    else if (code === 'S') {
      if (rate === null || compareDecimal(rate, '0') <= 0)
        add(at('vatRate'), 'A standard-rated line needs a VAT rate above 0 %', 'BR-S-05');
      else if (rates && !allowed.some((r) => compareDecimal(r, rate) === 0))
        add(
          at('vatRate'),
          `${pct(trimDecimal(rate))} is not a VAT rate of ${countryName(sellerCountry)} on this date: ${pct(rates.standard)} standard${rates.reduced.length ? `, ${rates.reduced.map(pct).join(' or ')} reduced` : ''}`,
          'vat-rate-country',
        );
    } else if (code === 'O') {
      if (rate !== null) add(at('vatRate'), 'A line outside the scope of VAT has no VAT rate', 'BR-O-05');
    } else if (rate === null || compareDecimal(rate, '0') !== 0)
      add(at('vatRate'), `${CODE_NAMES[code]} lines have a VAT rate of 0 %`, `BR-${rulePrefix(code)}-05`);

    const reasons = VAT_EXEMPTION_REASONS_BY_CODE[code];
    if (reasons.length === 0) {
      if (line.exemptionReason)
        add(
          at('exemptionReason'),
          `${CODE_NAMES[code]} lines have no exemption reason`,
          `BR-${rulePrefix(code)}-10`,
        );
    } else if (!line.exemptionReason)
      add(
        at('exemptionReason'),
        code === 'AE'
          ? 'A reverse-charge line needs the exemption reason "Reverse charge"'
          : `${CODE_NAMES[code]} lines need the reason they carry no VAT`,
        `BR-${rulePrefix(code)}-10`,
      );
    else if (!reasons.includes(line.exemptionReason))
      add(
        at('exemptionReason'),
        `This exemption reason does not fit ${CODE_NAMES[code].toLowerCase()} lines`,
        'BR-CL-22',
      );
    else {
      const key = `${code}|${rate === null ? '' : trimDecimal(rate)}`;
      const first = reasonOfGroup.get(key);
      if (first === undefined) reasonOfGroup.set(key, line.exemptionReason);
      else if (first !== line.exemptionReason)
        add(
          at('exemptionReason'),
          `${CODE_NAMES[code]} lines of one invoice share one exemption reason: issue the others on a separate invoice`,
          `BR-${rulePrefix(code)}-10`,
        );
    }

    // BR-O-11…14: an invoice outside the scope of VAT has no other VAT category.
    if (code === 'O' && codes.size > 1)
      add(
        at('vatCode'),
        'A line outside the scope of VAT cannot share an invoice with lines that carry VAT codes',
        'BR-O-11',
      );
  });

  // A document allowance or charge lowers or raises the taxable amount of a VAT group the lines have
  // (ADR 0049): its rate must be the country's as a line's, and an exempt group's reason comes from
  // its lines, so a group of its own would carry none.
  const groupKey = (code: VatCode, rate: string | null) =>
    `${code}|${code === 'O' ? '' : rate === null ? '0' : isDecimal(rate) ? trimDecimal(rate) : rate}`;
  const lineGroups = new Set(doc.lines.map((l) => groupKey(l.vatCode, l.vatRate?.trim() || null)));
  (doc.allowanceCharges ?? []).forEach((ac, i) => {
    const at = `allowanceCharges.${i}.vatRate`;
    const rate = ac.vatRate?.trim() || null;
    if (
      ac.vatCode === 'S' &&
      rate !== null &&
      isDecimal(rate) &&
      rates &&
      !allowed.some((r) => compareDecimal(r, rate) === 0)
    )
      add(
        at,
        `${pct(trimDecimal(rate))} is not a VAT rate of ${countryName(sellerCountry)} on this date: ${pct(rates.standard)} standard${rates.reduced.length ? `, ${rates.reduced.map(pct).join(' or ')} reduced` : ''}`,
        'vat-rate-country',
      );
    else if (!lineGroups.has(groupKey(ac.vatCode, rate)))
      add(
        `allowanceCharges.${i}.vatCode`,
        `No line is ${CODE_NAMES[ac.vatCode].toLowerCase()}${ac.vatCode === 'O' || rate === null ? '' : ` at ${pct(trimDecimal(rate))}`}: a discount or surcharge on the whole invoice falls in the VAT of its lines`,
        'BR-CO-18',
      );
  });
  return problems;
}
