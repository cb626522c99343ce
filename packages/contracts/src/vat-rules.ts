/**
 * Which VAT an invoice line gets by default, and what issuing must refuse because the VAT directive
 * (art. 226) or EN 16931 / Peppol BIS 3.0 would (ADR 0029). Pure, no zod (ADR 0023): the API calls
 * it when issuing, the invoice editor when showing a draft's problems before the user presses Issue.
 */
import type { DOSSIER_TYPES } from './dossiers-values.ts';
import { compareDecimal, isDecimal, trimDecimal } from './money.ts';
import type { InvoiceKind, VatCode, VatExemptionReason } from './sales-values.ts';

/**
 * Standard VAT rates of the 27 member states in 2026 (percent; ISO 3166 codes, so Greece is GR
 * although its VAT numbers start with EL). Recent changes: FI 25.5 (Sep 2024), SK 23 (Jan 2025),
 * EE 24 (Jul 2025), RO 21 (Aug 2025).
 */
export const EU_STANDARD_VAT_RATES: Readonly<Record<string, string>> = Object.freeze({
  AT: '20',
  BE: '21',
  BG: '20',
  CY: '19',
  CZ: '21',
  DE: '19',
  DK: '25',
  EE: '24',
  ES: '21',
  FI: '25.5',
  FR: '20',
  GR: '24',
  HR: '25',
  HU: '27',
  IE: '23',
  IT: '22',
  LT: '21',
  LU: '17',
  LV: '21',
  MT: '18',
  NL: '21',
  PL: '23',
  PT: '23',
  RO: '21',
  SE: '25',
  SI: '22',
  SK: '23',
});

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
  O: ['VATEX-EU-O'],
};

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
  if (buyer && buyer !== seller && isEuCountry(buyer) && input.buyerVatNumber?.trim())
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
  O: 'Outside-the-scope',
};

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
  const vatCategory = (['S', 'Z', 'E', 'AE'] as const).find((c) => codes.has(c));
  if (vatCategory && blank(seller.vatNumber))
    add('seller.vatNumber', "The company's VAT number is missing (company settings)", `BR-${vatCategory}-02`);
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
  if (codes.has('AE') && blank(buyer.vatNumber))
    add('buyer.vatNumber', "Reverse charge needs the customer's VAT number", 'BR-AE-02');

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
  // One VAT breakdown per (code, rate) carries one reason: the first line's reason is the group's.
  const reasonOfGroup = new Map<string, VatExemptionReason | null>();
  doc.lines.forEach((line, i) => {
    const at = (f: keyof IssueLine) => `lines.${i}.${f}`;
    const code = line.vatCode;
    if (!isDecimal(line.quantity)) add(at('quantity'), 'Enter the quantity as a number', 'BR-22');
    if (!isDecimal(line.unitPrice)) add(at('unitPrice'), 'Enter the unit price as a number', 'BR-26');
    else if (compareDecimal(line.unitPrice, '0') < 0)
      add(at('unitPrice'), 'A unit price cannot be negative: enter a negative quantity to deduct', 'BR-27');

    const rate = line.vatRate?.trim() || null;
    if (
      rate !== null &&
      (!isDecimal(rate) || compareDecimal(rate, '0') < 0 || compareDecimal(rate, '100') >= 0)
    )
      add(at('vatRate'), 'Enter the VAT rate as a percentage between 0 and 100', `BR-${code}-05`);
    else if (code === 'S') {
      if (rate === null || compareDecimal(rate, '0') <= 0)
        add(at('vatRate'), 'A standard-rated line needs a VAT rate above 0 %', 'BR-S-05');
    } else if (code === 'O') {
      if (rate !== null) add(at('vatRate'), 'A line outside the scope of VAT has no VAT rate', 'BR-O-05');
    } else if (rate === null || compareDecimal(rate, '0') !== 0)
      add(at('vatRate'), `${CODE_NAMES[code]} lines have a VAT rate of 0 %`, `BR-${code}-05`);

    const reasons = VAT_EXEMPTION_REASONS_BY_CODE[code];
    if (reasons.length === 0) {
      if (line.exemptionReason)
        add(at('exemptionReason'), `${CODE_NAMES[code]} lines have no exemption reason`, `BR-${code}-10`);
    } else if (!line.exemptionReason)
      add(
        at('exemptionReason'),
        code === 'AE'
          ? 'A reverse-charge line needs the exemption reason "Reverse charge"'
          : `${CODE_NAMES[code]} lines need the reason they carry no VAT`,
        `BR-${code}-10`,
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
          `BR-${code}-10`,
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
  return problems;
}
