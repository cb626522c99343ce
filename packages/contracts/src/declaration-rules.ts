/**
 * What a customs declaration needs before it can be lodged (drafts may be incomplete): the API refuses
 * a lodgement or amendment with these problems (422, `errors[].field` = the path), the web shows them
 * next to the fields before the clerk presses Lodge. Pure and zod-free; formats come from the same
 * validators the schemas call, so a message reads the same everywhere.
 */
import {
  CBAM_CATEGORY_LABELS,
  CBAM_DOCUMENT_TYPES,
  CBAM_THRESHOLD_KG,
  cbamCategoryOf,
  cbamWithoutDeMinimis,
  isCbamImportation,
} from './cbam.ts';
import { declarationTotals } from './customs-math.ts';
import { monthName } from './customs-rates.ts';
import { customsValueBuildUp, hasAdjustments, type ValuationAdjustments } from './customs-value.ts';
import {
  AUTHORISATION_TYPE_LABELS,
  AUTHORISATION_TYPES,
  type AuthorisationType,
  CATEGORIES_OF_TYPE,
  CUSTOMS_TRANSPORT_MODE_LABELS,
  CUSTOMS_TRANSPORT_MODES,
  DATA_ELEMENTS,
  type DeclarationCategory,
  type DeclarationType,
  GUARANTEE_TYPES,
  GUARANTEE_TYPES_WITH_GRN,
  LOCATION_QUALIFIERS,
  LOCATION_TYPES,
  METHODS_OF_PAYMENT,
  PACKAGE_KINDS,
  PREVIOUS_DOCUMENT_TYPES,
  REPRESENTATIVE_STATUSES,
  SUPPORTING_DOCUMENT_TYPES,
  TRANSIT_AUTHORISATION_TYPES,
  VALUATION_METHODS,
  WAREHOUSE_AUTHORISATION_TYPES,
} from './declarations-values.ts';
import { compareDecimal, currencyDecimalsProblem, isDecimal, sumDecimal, trimDecimal } from './money.ts';
import { supplementaryUnitOf } from './supplementary-units.ts';
import {
  commodityCodeProblem,
  customsOfficeProblem,
  grnProblem,
  isCurrencyCode,
  normalizeCommodityCode,
  preferenceProblem,
  procedureCodeProblem,
} from './validators/customs.ts';
import { incotermProblem } from './validators/incoterms.ts';
import { isValidContainerNumber } from './validators/iso6346.ts';
import { mrnProblem } from './validators/mrn.ts';
import { isCountryCode } from './validators/places.ts';
import { eoriProblem } from './validators/tax-ids.ts';
import { isEuCountry } from './vat-rules.ts';
import { type CustomsStatus, outboundProcedureProblem } from './warehouse-values.ts';

export interface RuleProblem {
  /** A path like 'items.2.netMassKg', 'declarant.eori', 'guaranteeReference'. */
  field: string;
  /** A sentence a clerk understands. */
  message: string;
  /** Stable, for tests and logs: 'required', 'format', 'net-over-gross', … */
  code: string;
}

/** A form's empty input ('') is missing, like null and undefined. */
type Text = string | null | undefined;

export interface LodgingParty {
  name?: Text;
  countryCode?: Text;
  eori?: Text;
}

export interface LodgingDocumentRef {
  type: string;
  reference: string;
}

export interface LodgingItem {
  commodityCode?: Text;
  description?: Text;
  countryOfOrigin?: Text;
  preference?: Text;
  procedureCode?: Text;
  additionalProcedureCodes?: readonly string[] | null;
  valuationMethod?: Text;
  valuationReason?: Text;
  supplementaryUnits?: Text;
  /** A number from the API, a string or '' from a form. */
  packages?: number | string | null;
  packageKind?: Text;
  grossMassKg?: Text;
  netMassKg?: Text;
  invoiceValue?: Text;
  customsValue?: Text;
  statisticalValue?: Text;
  dutyRate?: Text;
  vatRate?: Text;
  vatCosts?: Text;
  containers?: readonly string[] | null;
  supportingDocuments?: readonly LodgingDocumentRef[] | null;
  previousDocuments?: readonly LodgingDocumentRef[] | null;
}

/**
 * The part of a declaration the rules read: a structural subset of the `Declaration` contract (same
 * field names), so the API passes its `Declaration` and the web its form values.
 */
export interface LodgingInput extends ValuationAdjustments {
  type: DeclarationType;
  category?: DeclarationCategory | '' | null;
  declarant?: LodgingParty | null;
  representative?: LodgingParty | null;
  representativeStatus?: Text;
  consignor?: LodgingParty | null;
  consignee?: LodgingParty | null;
  holder?: LodgingParty | null;
  officeOfLodgement?: Text;
  officeOfExitEntry?: Text;
  officeOfDestination?: Text;
  officesOfTransit?: readonly string[] | null;
  countryOfDispatch?: Text;
  countryOfDestination?: Text;
  transportModeBorder?: Text;
  transportModeInland?: Text;
  containerIndicator?: boolean | null;
  incoterm?: Text;
  natureOfTransaction?: Text;
  currency?: Text;
  invoiceTotal?: Text;
  exchangeRate?: Text;
  guaranteeType?: Text;
  methodOfPayment?: Text;
  guaranteeReference?: Text;
  guaranteeAmount?: Text;
  apportionment?: Text;
  locationOfGoods?: Text;
  locationOfGoodsType?: Text;
  locationOfGoodsQualifier?: Text;
  authorisations?: readonly { type: string; reference?: Text }[] | null;
  additionalInformation?: readonly { code: string; text?: Text }[] | null;
  seals?: readonly { identifier: string; container?: Text }[] | null;
  limitDate?: Text;
  items: readonly LodgingItem[];
}

function text(value: Text | number): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value).trim();
  return s === '' ? null : s;
}

/** 'an EORI is …' → 'An EORI is …' (older validators answer in lower case). */
function sentence(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** '1200.5' → '1 200.500' (kg, 3 decimals, grouped as the brief's messages show them). */
function kg(value: string): string {
  const [whole = '0', frac = ''] = value.replace(/^-/, '').split('.');
  const grouped = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${value.startsWith('-') ? '-' : ''}${grouped}.${frac.padEnd(3, '0').slice(0, 3)}`;
}

function positive(value: string): boolean {
  return isDecimal(value) && compareDecimal(value, '0') > 0;
}

const PARTY_NAMES = {
  declarant: 'declarant',
  representative: 'representative',
  consignor: 'consignor',
  consignee: 'consignee',
  holder: 'holder of the transit procedure',
} as const;
type PartyField = keyof typeof PARTY_NAMES;

/** The party that must carry an EORI besides the declarant, by type; the other side needs a name and country. */
const EU_PARTY: Readonly<Record<DeclarationType, PartyField>> = {
  import: 'consignee',
  export: 'consignor',
  transit: 'holder',
};
const OTHER_PARTIES: Readonly<Record<DeclarationType, readonly PartyField[]>> = {
  import: ['consignor'],
  export: ['consignee'],
  transit: ['consignor', 'consignee'],
};

const TYPE_NAMES: Readonly<Record<DeclarationType, string>> = {
  import: 'An import',
  export: 'An export',
  transit: 'A transit',
};

/** Kinds of packaging that are not counted in packages (unpacked, bulk). */
const UNCOUNTED_KINDS = ['NE', 'VR', 'VQ'];

/**
 * What the system knows besides the declaration itself, for the rules that read another record: the
 * customs status of the warehouse stock received under each inbound MRN an item may cite as previous
 * document (the API fills it; a form may leave it out, and those rules then wait for the API).
 */
export interface LodgingContext {
  warehouseEntries?: Readonly<Record<string, CustomsStatus>>;
  /**
   * The net mass (kg) of goods under CBAM with a de minimis threshold that the importer's other import
   * declarations of this calendar year carry (lodged and not rejected or cancelled): what the 50-tonne
   * threshold counts besides this declaration. Undefined: the threshold rule waits for the API.
   */
  cbamKgThisYear?: string;
  /**
   * The company's customs exchange rate for the invoice currency in the month the declaration is
   * accepted in (the month of lodging; of the original lodging for an amendment), `rate` null when the
   * table has none. Undefined (a EUR invoice, or no API): the rule waits for the API.
   */
  customsRate?: { month: string; rate: string | null };
}

/**
 * Contracting parties of the Convention on a common transit procedure besides the Union (EFTA
 * countries, Türkiye, North Macedonia, Serbia, the United Kingdom, Ukraine, Georgia): a transit may
 * end or pass there.
 */
const COMMON_TRANSIT_COUNTRIES = ['CH', 'IS', 'NO', 'LI', 'TR', 'MK', 'RS', 'GB', 'UA', 'GE'];

/** Customs territory of the Union: the member states, Northern Ireland (XI) and Monaco (French customs). */
function inCustomsTerritory(country: string): boolean {
  return isEuCountry(country) || country === 'XI' || country === 'MC';
}

/** A country prefix the Union issues customs office references and EORIs under. */
function unionPrefix(reference: string): boolean {
  const p = reference.slice(0, 2).toUpperCase();
  return isEuCountry(p) || p === 'XI';
}

/**
 * The guarantee types whose amount must cover the duties and other charges at stake on the goods (UCC
 * art. 89–90; IA art. 148 and 155): comprehensive (1), individual by guarantor (2), cash (3), vouchers
 * (4) and individual for multiple use (9). A waiver of type 5 is allowed only while they are at most
 * EUR 500; the other waivers (0, 8, A, R, B) cover no amount. There is no fixed minimum (issue 26: the
 * product's former 1 000.00 EUR floor was a rule of its own invention, ADR 0033).
 */
const GUARANTEES_COVERING = ['1', '2', '3', '4', '9'];
/** Where the duties and taxes a transit guarantee covers are laid down. */
const GUARANTEE_SOURCE = 'UCC art. 89–90, IA art. 148';

/**
 * The duties and other charges at stake on a transit's goods, in EUR: per item, the duty at its duty
 * rate on its customs value and the import VAT on value plus duty (the same arithmetic as an import's
 * estimate, customs-math.ts), at the highest rates of the country of departure as if the goods were
 * released for free circulation there (IA art. 148; Convention on a common transit procedure,
 * Appendix I art. 18). Null while an item lacks its value or a rate.
 */
export function transitAmountAtStake(items: readonly LodgingItem[]): string | null {
  const complete = items.every((i) => text(i.customsValue) && text(i.dutyRate) && text(i.vatRate));
  return complete && items.length > 0 ? dutyAndVatOf('transit', items) : null;
}

/** The duties and taxes the items with a value and both rates carry (customs-math.ts); null for none. */
function dutyAndVatOf(type: DeclarationType, items: readonly LodgingItem[]): string | null {
  return declarationTotals(
    type,
    items.map((i) => ({
      customsValue: text(i.customsValue),
      dutyRate: text(i.dutyRate),
      vatRate: text(i.vatRate),
    })),
  ).dutyAndVat;
}

const moneyFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** '1500.5', 'USD' → '1,500.50 USD' (a decimal string: Intl reads it without a float's rounding). */
function money(value: string, currency: string): string {
  return `${moneyFormat.format(value as `${number}`)} ${currency}`;
}

/**
 * Where a rule an authority applies is laid down (issue 26 item 5; the table in ADR 0033): its message
 * ends with it, in the API's answer, on the screen and in the sandbox's rejection. A check of the
 * product's own, with no article behind it, says so instead of looking like law.
 */
function legalSource(code: string, field: string, type: DeclarationType): string | undefined {
  switch (code) {
    case 'office-outside-union':
      if (field !== 'officeOfExitEntry') return 'UCC art. 159';
      return type === 'export' ? 'IA art. 329' : 'UCC art. 127';
    case 'office-outside-common-transit':
      return 'Convention on a common transit procedure, art. 1';
    case 'eori-outside-union':
      return 'UCC art. 9';
    case 'export-stays-in-union':
    case 'export-not-from-union':
      return 'UCC art. 269';
    case 'import-from-country-of-lodgement':
      return 'a plausibility check of FVG, not a legal rule';
    case 'hs-chapter':
      return 'Combined Nomenclature, Regulation (EEC) No 2658/87, Annex I';
    case 'invoice-total':
      return 'Annex B, DE 4/11 and 4/14';
    case 'guarantee-waiver-limit':
      return 'UCC art. 89(9)';
    case 'guarantee-amount':
      return GUARANTEE_SOURCE;
    case 'previous-export-mrn':
      return 'Annex B, DE 2/1';
    case 'deferment-authorisation':
      return 'UCC art. 110; Annex B, DE 2/3';
    case 'warehouse-authorisation':
      return 'UCC art. 211(1)(b); Annex B, DE 2/3';
    case 'transit-authorisation':
      return 'NCTS code list CL235';
    case 'transit-location':
      return 'NCTS IE015, LocationOfGoods';
    case 'valuation-reason':
      return 'UCC art. 74(1)';
    case 'customs-value-build-up':
      return 'UCC art. 70–72';
    case 'customs-rate':
      return 'UCC art. 53(1); IA art. 146';
    case 'cbam':
      return 'Regulation (EU) 2023/956, art. 25';
    case 'cbam-threshold':
      return 'Regulation (EU) 2023/956, art. 2a';
    default:
      return undefined;
  }
}

/**
 * The invoice is converted at the customs rate of the month of acceptance, as the company's table holds
 * it (ADR 0070): a rate typed apart from it, or a month the table has no rate for, is refused.
 */
function customsRateProblem(
  currency: string,
  rate: string,
  table: LodgingContext['customsRate'],
): string | undefined {
  if (!table) return undefined;
  const month = monthName(table.month);
  if (table.rate === null)
    return `The company has no customs exchange rate for ${currency} in ${month}: enter the month's published rate under Declarations, Customs rates`;
  if (isDecimal(rate) && compareDecimal(rate, table.rate) !== 0)
    return `The customs exchange rate for ${currency} in ${month} is ${trimDecimal(table.rate)}, not ${trimDecimal(rate)}`;
  return undefined;
}

/**
 * Every rule that can be decided before lodging (ADR 0047): completeness and formats, and what an
 * authority would otherwise refuse on receipt — Union offices and EORIs, where exports and imports come
 * from and go to, the invoice total against the items' prices (to the cent), transit guarantees, the
 * procedures warehouse stock may leave by. The API refuses a lodgement or amendment with any of these,
 * the sandbox authority re-runs this same function on what it receives, and the web shows them before
 * the clerk presses Lodge. Codes are stable (the sandbox cites its own rule number per code).
 */
export function lodgingProblems(d: LodgingInput, context: LodgingContext = {}): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const { type } = d;
  const add = (field: string, message: string, code: string) => {
    const source =
      legalSource(code, field, type) ?? (code === 'required' ? dataElementOf(field, message) : undefined);
    // "… (box 23)" and its source read as one note: "… (box 23; Annex B, DE 4/15)".
    const box = / \((box [^)]+)\)$/.exec(message);
    const noted = !source
      ? message
      : box
        ? `${message.slice(0, box.index)} (${box[1]}; ${source})`
        : `${message} (${source})`;
    problems.push({ field, message: noted, code });
  };
  const customsOrTrade = type === 'import' || type === 'export';

  // Category
  const category = text(d.category) as DeclarationCategory | null;
  const categories = CATEGORIES_OF_TYPE[type];
  if (!category) add('category', 'Choose the category of the declaration', 'required');
  else if (!categories.includes(category))
    add(
      'category',
      `${TYPE_NAMES[type]} declaration is ${categories.join(' or ')}, not ${category}`,
      'category-type',
    );

  // Parties
  const party = (field: PartyField, needsEori: boolean) => {
    const p = d[field];
    const name = PARTY_NAMES[field];
    if (!p) {
      add(field, `Enter the ${name}`, 'required');
      return;
    }
    if (!text(p.name)) add(`${field}.name`, `Enter the ${name}'s name`, 'required');
    const country = text(p.countryCode);
    if (!country) add(`${field}.countryCode`, `Enter the ${name}'s country`, 'required');
    else if (!isCountryCode(country))
      add(`${field}.countryCode`, `${country} is not a country code`, 'format');
    const eori = text(p.eori);
    if (needsEori && !eori) add(`${field}.eori`, `Enter the ${name}'s EORI number`, 'required');
    else if (eori) {
      const problem = eoriProblem(eori);
      if (problem) add(`${field}.eori`, sentence(problem), 'format');
    }
  };
  party('declarant', true);
  const status = text(d.representativeStatus);
  if (!status) add('representativeStatus', 'Choose the representative status (box 14)', 'required');
  else if (!(REPRESENTATIVE_STATUSES as readonly string[]).includes(status))
    add('representativeStatus', 'The representative status is 1, 2 or 3', 'format');
  else if (status === '1' && d.representative)
    add(
      'representative',
      'Status 1 means the declarant acts in its own name: remove the representative or choose status 2 or 3',
      'representative-status',
    );
  else if (status !== '1') party('representative', true);
  party(EU_PARTY[type], true);
  for (const other of OTHER_PARTIES[type]) party(other, false);
  const unionEori = (field: 'declarant' | 'representative' | 'holder', who: string) => {
    const eori = text(d[field]?.eori)?.toUpperCase();
    if (eori && !eoriProblem(eori) && !unionPrefix(eori))
      add(`${field}.eori`, `${who} EORI ${eori} was not issued in the Union`, 'eori-outside-union');
  };
  unionEori('declarant', 'Declarant');
  if (status !== '1') unionEori('representative', 'Representative');
  if (type === 'transit') unionEori('holder', 'Holder of the transit procedure');

  // Offices
  const office = (field: 'officeOfLodgement' | 'officeOfExitEntry' | 'officeOfDestination', name: string) => {
    const v = text(d[field]);
    if (!v) add(field, `Enter the ${name}`, 'required');
    else {
      const problem = customsOfficeProblem(v);
      if (problem) add(field, problem, 'format');
    }
  };
  office('officeOfLodgement', type === 'transit' ? 'office of departure' : 'customs office of lodgement');
  if (type === 'export') office('officeOfExitEntry', 'office of exit');
  else if (text(d.officeOfExitEntry)) office('officeOfExitEntry', 'office of entry');
  if (type === 'transit') office('officeOfDestination', 'office of destination');
  (d.officesOfTransit ?? []).forEach((v, i) => {
    const problem = customsOfficeProblem(v.trim());
    if (problem) add(`officesOfTransit.${i}`, problem, 'format');
  });
  const lodgement = text(d.officeOfLodgement)?.toUpperCase() ?? null;
  if (lodgement && !customsOfficeProblem(lodgement) && !unionPrefix(lodgement))
    add(
      'officeOfLodgement',
      `Office of ${type === 'transit' ? 'departure' : 'lodgement'} ${lodgement} is not a customs office of the Union`,
      'office-outside-union',
    );
  const exitEntry = text(d.officeOfExitEntry)?.toUpperCase() ?? null;
  if (exitEntry && type !== 'transit' && !customsOfficeProblem(exitEntry) && !unionPrefix(exitEntry))
    add(
      'officeOfExitEntry',
      `Office of ${type === 'export' ? 'exit' : 'entry'} ${exitEntry} is not a customs office of the Union`,
      'office-outside-union',
    );
  if (type === 'transit') {
    const transitCountry = (office: string) =>
      unionPrefix(office) || COMMON_TRANSIT_COUNTRIES.includes(office.slice(0, 2).toUpperCase());
    const destination = text(d.officeOfDestination)?.toUpperCase() ?? null;
    if (destination && !customsOfficeProblem(destination) && !transitCountry(destination))
      add(
        'officeOfDestination',
        `Office of destination ${destination} is not in a common transit country`,
        'office-outside-common-transit',
      );
    (d.officesOfTransit ?? []).forEach((v, i) => {
      const office = v.trim().toUpperCase();
      if (!customsOfficeProblem(office) && !transitCountry(office))
        add(
          `officesOfTransit.${i}`,
          `Office of transit ${office} is not in a common transit country`,
          'office-outside-common-transit',
        );
    });
  }

  // Countries
  for (const [field, name] of [
    ['countryOfDispatch', 'country of dispatch'],
    ['countryOfDestination', 'country of destination'],
  ] as const) {
    const v = text(d[field]);
    if (!v) add(field, `Enter the ${name}`, 'required');
    else if (!isCountryCode(v)) add(field, `${v} is not a country code`, 'format');
  }
  const dispatch = text(d.countryOfDispatch)?.toUpperCase() ?? null;
  const destinationCountry = text(d.countryOfDestination)?.toUpperCase() ?? null;
  if (type === 'export') {
    if (destinationCountry && isCountryCode(destinationCountry) && inCustomsTerritory(destinationCountry))
      add(
        'countryOfDestination',
        `Country of destination ${destinationCountry} is inside the customs territory of the Union: goods staying in the Union are not exported`,
        'export-stays-in-union',
      );
    if (dispatch && isCountryCode(dispatch) && !inCustomsTerritory(dispatch))
      add(
        'countryOfDispatch',
        `Country of dispatch ${dispatch} is not a member state: an export leaves from the Union`,
        'export-not-from-union',
      );
  }
  if (type === 'import' && dispatch && lodgement && dispatch === lodgement.slice(0, 2))
    add(
      'countryOfDispatch',
      `Country of dispatch ${dispatch} is the country of the office of lodgement: the goods must come from elsewhere`,
      'import-from-country-of-lodgement',
    );

  // Transport
  for (const field of ['transportModeBorder', 'transportModeInland'] as const) {
    const v = text(d[field]);
    if (v && !(CUSTOMS_TRANSPORT_MODES as readonly string[]).includes(v))
      add(field, `${v} is not a mode of transport: choose one from the list`, 'format');
  }
  const incoterm = text(d.incoterm);
  if (incoterm) {
    const mode = text(d.transportModeBorder);
    const modeName =
      mode === '1' || mode === '8'
        ? 'sea'
        : mode && mode in CUSTOMS_TRANSPORT_MODE_LABELS
          ? CUSTOMS_TRANSPORT_MODE_LABELS[mode as keyof typeof CUSTOMS_TRANSPORT_MODE_LABELS].toLowerCase()
          : undefined;
    const problem = incotermProblem(incoterm, modeName);
    if (problem) add('incoterm', problem, 'format');
  }
  const nature = text(d.natureOfTransaction);
  // The same pattern and sentence as the contract's schema (declarations.ts).
  if (nature && !/^[1-9]\d?$/.test(nature))
    add('natureOfTransaction', 'The nature of transaction is 1 or 2 digits, e.g. 11', 'format');

  // Invoice: currency, total, exchange rate
  const currency = text(d.currency);
  const total = text(d.invoiceTotal);
  const rate = text(d.exchangeRate);
  if (currency && !isCurrencyCode(currency))
    add('currency', `${currency} is not an ISO 4217 currency`, 'format');
  if (customsOrTrade && !currency) add('currency', 'Enter the invoice currency (box 22)', 'required');
  if (customsOrTrade && !total) add('invoiceTotal', 'Enter the total amount invoiced (box 22)', 'required');
  let totalChecked = false;
  if (total) {
    if (!positive(total)) add('invoiceTotal', 'The total amount invoiced is more than 0', 'format');
    else if (currency) {
      const problem = currencyDecimalsProblem(total, currency);
      if (problem) add('invoiceTotal', problem, 'format');
      else totalChecked = true;
    } else totalChecked = true;
  }
  if (currency && currency !== 'EUR' && isCurrencyCode(currency)) {
    if (!rate) add('exchangeRate', `Enter the exchange rate: EUR per 1 ${currency} (box 23)`, 'required');
    else if (!positive(rate)) add('exchangeRate', 'The exchange rate is more than 0', 'format');
    else {
      const problem = customsRateProblem(currency, rate, context.customsRate);
      if (problem) add('exchangeRate', problem, 'customs-rate');
    }
  } else if (currency === 'EUR' && rate && (!isDecimal(rate) || compareDecimal(rate, '1') !== 0))
    add('exchangeRate', 'A EUR invoice has exchange rate 1', 'format');

  // Method of payment (DE 4/8): an import whose items carry duties or taxes says how they are paid.
  const payment = text(d.methodOfPayment);
  if (payment && !(METHODS_OF_PAYMENT as readonly string[]).includes(payment))
    add('methodOfPayment', `${payment} is not a method of payment`, 'format');
  else if (type === 'import' && !payment && dutyAndVatOf('import', d.items) !== null)
    add('methodOfPayment', 'Choose how the duties and taxes are paid (DE 4/8)', 'required');

  // Location of goods (DE 5/23): where customs can examine them, typed and qualified. Imports and
  // exports name it; a transit may (the authorised consignor's place, the terminal).
  const location = text(d.locationOfGoods);
  const locationType = text(d.locationOfGoodsType);
  const qualifier = text(d.locationOfGoodsQualifier);
  if (customsOrTrade && !location)
    add('locationOfGoods', 'Enter the location of goods (DE 5/23)', 'required');
  if (location || locationType || qualifier) {
    if (!location && !customsOrTrade)
      add('locationOfGoods', 'Enter the identification of the location (DE 5/23)', 'required');
    if (!locationType) add('locationOfGoodsType', 'Choose the type of location (DE 5/23)', 'required');
    else if (!(LOCATION_TYPES as readonly string[]).includes(locationType))
      add('locationOfGoodsType', `${locationType} is not a type of location: A, B, C or D`, 'format');
    if (!qualifier)
      add('locationOfGoodsQualifier', 'Choose how the location is identified (DE 5/23)', 'required');
    else if (!(LOCATION_QUALIFIERS as readonly string[]).includes(qualifier))
      add('locationOfGoodsQualifier', `${qualifier} is not a qualifier of identification`, 'format');
    else if (location) {
      const problem = locationProblem(qualifier, location.toUpperCase());
      if (problem) add('locationOfGoods', problem, 'format');
      else if (type === 'transit' && !['U', 'V', 'X', 'Y'].includes(qualifier))
        add(
          'locationOfGoodsQualifier',
          'A transit names its location of goods by UN/LOCODE (U), customs office (V), EORI (X) or authorisation number (Y): the product does not send addresses or coordinates to NCTS yet',
          'transit-location',
        );
    }
  }

  // Authorisations (DE 2/3)
  const authorisations = d.authorisations ?? [];
  if (type === 'transit' && authorisations.length > 9)
    add('authorisations', 'A transit names at most 9 authorisations (NCTS IE015)', 'format');
  const hasAuthorisation = (types: readonly AuthorisationType[]) =>
    authorisations.some((a) => types.includes(a.type as AuthorisationType) && text(a.reference));
  const seenAuthorisations = new Set<string>();
  authorisations.forEach((a, i) => {
    if (!(AUTHORISATION_TYPES as readonly string[]).includes(a.type))
      add(
        `authorisations.${i}.type`,
        `${a.type || 'This'} is not an authorisation type the product knows`,
        'format',
      );
    else if (type === 'transit' && !TRANSIT_AUTHORISATION_TYPES.includes(a.type as AuthorisationType))
      add(
        `authorisations.${i}.type`,
        `A transit declaration names only the authorisations ${TRANSIT_AUTHORISATION_TYPES.join(', ')}, not ${a.type} (${AUTHORISATION_TYPE_LABELS[a.type as AuthorisationType].toLowerCase()})`,
        'transit-authorisation',
      );
    const reference = text(a.reference);
    if (!reference) add(`authorisations.${i}.reference`, 'Enter the number of the authorisation', 'required');
    else if (/\s/.test(reference) || reference.length > 35)
      add(
        `authorisations.${i}.reference`,
        'An authorisation number has no spaces and at most 35 characters',
        'format',
      );
    else {
      const key = `${a.type} ${reference.toUpperCase()}`;
      if (seenAuthorisations.has(key))
        add(`authorisations.${i}.reference`, `Authorisation ${key} is listed twice`, 'duplicate');
      seenAuthorisations.add(key);
    }
  });
  if (text(d.methodOfPayment) === 'E' && !hasAuthorisation(['C506']))
    add(
      'authorisations',
      'Deferred payment (E) needs the deferment authorisation: add C506 with its number',
      'deferment-authorisation',
    );
  if (
    type === 'import' &&
    d.items.some((item) => text(item.procedureCode)?.startsWith('71')) &&
    !hasAuthorisation(WAREHOUSE_AUTHORISATION_TYPES)
  )
    add(
      'authorisations',
      'Customs warehousing (procedure 71) needs the warehouse authorisation: add C517, C518 or C519 with its number',
      'warehouse-authorisation',
    );

  // Additional information (DE 2/2)
  (d.additionalInformation ?? []).forEach((a, i) => {
    const c = text(a.code);
    if (!c) add(`additionalInformation.${i}.code`, 'Enter the code of the statement, e.g. 00500', 'required');
    else if (!/^[0-9A-Z]{5}$/.test(c.toUpperCase()))
      add(
        `additionalInformation.${i}.code`,
        'An additional information code has 5 characters, e.g. 00500',
        'format',
      );
  });

  // Seals (DE 7/18) and a transit's limit date
  const containersOnItems = new Set(
    d.items.flatMap((item) => (item.containers ?? []).map((c) => c.trim().toUpperCase())),
  );
  const seenSeals = new Set<string>();
  (d.seals ?? []).forEach((seal, i) => {
    const id = text(seal.identifier)?.toUpperCase() ?? null;
    if (!id) add(`seals.${i}.identifier`, 'Enter the seal number', 'required');
    else if (/\s/.test(id) || id.length > 20)
      add(`seals.${i}.identifier`, 'A seal number has no spaces and at most 20 characters', 'format');
    else if (seenSeals.has(id)) add(`seals.${i}.identifier`, `Seal ${id} is listed twice`, 'duplicate');
    if (id) seenSeals.add(id);
    const container = text(seal.container)?.toUpperCase() ?? null;
    if (container && !containersOnItems.has(container))
      add(
        `seals.${i}.container`,
        `Container ${container} is not on any item: a seal closes one of the declaration's containers`,
        'seal-container',
      );
  });
  if (type !== 'transit' && text(d.limitDate))
    add('limitDate', 'Only a transit declaration has a limit date', 'format');

  // Guarantee (transit)
  if (type === 'transit') {
    const gType = text(d.guaranteeType);
    const grn = text(d.guaranteeReference);
    const amount = text(d.guaranteeAmount);
    if (!gType) add('guaranteeType', 'Choose the guarantee type (box 52)', 'required');
    else if (!(GUARANTEE_TYPES as readonly string[]).includes(gType))
      add('guaranteeType', `${gType} is not a guarantee type`, 'format');
    const needsGrn = !!gType && (GUARANTEE_TYPES_WITH_GRN as readonly string[]).includes(gType);
    if (needsGrn && !grn)
      add('guaranteeReference', 'Enter the guarantee reference number (GRN) of the guarantee', 'required');
    else if (grn) {
      const problem = grnProblem(grn);
      if (problem) add('guaranteeReference', problem, 'format');
    }
    if (!amount) add('guaranteeAmount', 'Enter the amount the guarantee covers, in EUR', 'required');
    else if (!positive(amount)) add('guaranteeAmount', 'The guarantee amount is more than 0', 'format');
    else if (gType === '5' && compareDecimal(amount, '500') > 0)
      add(
        'guaranteeAmount',
        'A waiver of type 5 covers at most EUR 500 of duties and taxes at stake',
        'guarantee-waiver-limit',
      );
    // The items' duties and taxes at stake: each item needs its value and rates to compute them.
    const covers = !!gType && (GUARANTEES_COVERING.includes(gType) || gType === '5');
    if (covers) {
      d.items.forEach((item, i) => {
        for (const [field, name] of [
          ['customsValue', 'customs value (EUR)'],
          ['dutyRate', 'duty rate'],
          ['vatRate', 'import VAT rate'],
        ] as const)
          if (!text(item[field]))
            add(
              `items.${i}.${field}`,
              `Enter the ${name} of item ${i + 1}: the guarantee covers the duties and taxes at stake on it (${GUARANTEE_SOURCE})`,
              'required',
            );
      });
      const atStake = transitAmountAtStake(d.items);
      if (atStake !== null && amount && positive(amount)) {
        if (gType === '5' && compareDecimal(atStake, '500') > 0)
          add(
            'guaranteeType',
            `The duties and taxes at stake are ${money(atStake, 'EUR')}: a waiver of type 5 covers at most EUR 500; choose a guarantee`,
            'guarantee-waiver-limit',
          );
        else if (gType !== '5' && compareDecimal(amount, atStake) < 0)
          add(
            'guaranteeAmount',
            `Guarantee amount ${money(amount, 'EUR')} does not cover the duties and taxes at stake on the items, ${money(atStake, 'EUR')}`,
            'guarantee-amount',
          );
      }
    }
  }

  // Items
  if (d.items.length === 0) add('items', 'Add at least one item', 'required');
  // Items sharing a container need not each repeat it, so box 19 asks for containers on some item.
  else if (d.containerIndicator === true && d.items.every((item) => (item.containers ?? []).length === 0))
    add(
      'containerIndicator',
      'Box 19 says the goods travel in containers: enter the container numbers on the items',
      'container-indicator',
    );
  d.items.forEach((item, i) => {
    const at = (field: string) => `items.${i}.${field}`;
    const no = `item ${i + 1}`;

    const code = text(item.commodityCode);
    if (!code) add(at('commodityCode'), `Enter the commodity code of ${no}`, 'required');
    else {
      // NCTS accepts the 6-digit HS subheading on a transit item; an import or export needs the CN code.
      const subheadingOnly =
        type !== 'transit' &&
        normalizeCommodityCode(code).length === 6 &&
        !commodityCodeProblem(code, { subheading: true });
      const problem = subheadingOnly
        ? undefined
        : commodityCodeProblem(code, { subheading: type === 'transit' });
      // A chapter the Harmonized System does not have is the sandbox's rule SBX-R304: its own code.
      if (problem) add(at('commodityCode'), problem, /chapter/i.test(problem) ? 'hs-chapter' : 'format');
      else if (subheadingOnly)
        add(
          at('commodityCode'),
          `${TYPE_NAMES[type]} item needs the 8-digit CN code (or the 10-digit TARIC code); the 6-digit HS subheading is accepted on transits only`,
          'format',
        );
    }
    if (!text(item.description))
      add(at('description'), `Enter the description of the goods of ${no}`, 'required');

    const procedure = text(item.procedureCode);
    if (customsOrTrade && !procedure)
      add(at('procedureCode'), `Enter the procedure code of ${no}`, 'required');
    else if (category && categories.includes(category)) {
      const problem = procedureCodeProblem(procedure ?? '', category);
      if (problem) add(at('procedureCode'), problem, 'procedure');
    }

    // Additional procedure (DE 1/11): 000 when there is none; a transit has none.
    const additional = (item.additionalProcedureCodes ?? [])
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean);
    if (type === 'transit' && additional.length > 0)
      add(
        at('additionalProcedureCodes'),
        'A transit item has no additional procedure code (DE 1/11)',
        'format',
      );
    else if (customsOrTrade && additional.length === 0)
      add(
        at('additionalProcedureCodes'),
        `Enter the additional procedure code of ${no}: 000 when there is none (DE 1/11)`,
        'required',
      );
    additional.forEach((c, j) => {
      if (!/^[A-Z0-9]{3}$/.test(c))
        add(
          at(`additionalProcedureCodes.${j}`),
          `${c} is not an additional procedure code: 3 letters or digits, e.g. 000 or F45`,
          'format',
        );
      else if (additional.indexOf(c) !== j)
        add(at(`additionalProcedureCodes.${j}`), `Additional procedure ${c} is listed twice`, 'duplicate');
    });
    if (additional.includes('000') && additional.length > 1)
      add(
        at('additionalProcedureCodes'),
        `000 means no additional procedure: it cannot stand with ${additional.filter((c) => c !== '000').join(', ')}`,
        'format',
      );

    // Valuation method (DE 4/16): an import's; 1 is the transaction value.
    const method = text(item.valuationMethod);
    if (type === 'import' && !method)
      add(at('valuationMethod'), `Choose the valuation method of ${no} (DE 4/16)`, 'required');
    else if (method && !(VALUATION_METHODS as readonly string[]).includes(method))
      add(at('valuationMethod'), `${method} is not a valuation method: 1 to 6`, 'format');
    else if (method && type !== 'import')
      add(at('valuationMethod'), `Only an import item has a valuation method: clear it on ${no}`, 'format');
    else if (method && method !== '1' && !text(item.valuationReason))
      add(
        at('valuationReason'),
        `Say why the customs value of ${no} is not the transaction value (valuation method ${method})`,
        'valuation-reason',
      );

    // Supplementary units (DE 6/2): the quantity in the unit the CN code asks for, when it asks.
    const units = text(item.supplementaryUnits);
    const unit = customsOrTrade && code ? supplementaryUnitOf(code) : null;
    if (units && !positive(units))
      add(at('supplementaryUnits'), 'The supplementary units are more than 0', 'format');
    else if (unit && !units)
      add(
        at('supplementaryUnits'),
        `Enter the supplementary units of ${no}: CN ${normalizeCommodityCode(code ?? '').slice(0, 4)} is declared in ${unit.symbol} (${unit.name}) (DE 6/2)`,
        'required',
      );

    const kind = text(item.packageKind);
    if (!kind) add(at('packageKind'), `Choose the kind of packages of ${no}`, 'required');
    else if (!(PACKAGE_KINDS as readonly string[]).includes(kind))
      add(at('packageKind'), `${kind} is not a kind of package the product knows`, 'format');
    const packages = text(item.packages);
    const counted = !kind || !UNCOUNTED_KINDS.includes(kind);
    if (packages === null) {
      if (counted) add(at('packages'), `Enter the number of packages of ${no}`, 'required');
    } else if (!/^\d+$/.test(packages) || (counted && Number(packages) < 1))
      add(at('packages'), 'The number of packages is a whole number from 1', 'format');

    const gross = text(item.grossMassKg);
    const net = text(item.netMassKg);
    if (!gross) add(at('grossMassKg'), `Enter the gross mass of ${no}`, 'required');
    else if (!positive(gross)) add(at('grossMassKg'), 'The gross mass is more than 0 kg', 'format');
    if (!net) add(at('netMassKg'), `Enter the net mass of ${no}`, 'required');
    else if (!positive(net)) add(at('netMassKg'), 'The net mass is more than 0 kg', 'format');
    else if (gross && positive(gross) && compareDecimal(net, gross) > 0)
      add(at('netMassKg'), `Net mass cannot exceed the gross mass (${kg(gross)} kg)`, 'net-over-gross');

    const value = text(item.customsValue);
    if (type === 'import' && !value)
      add(at('customsValue'), `Enter the customs value of ${no}, in EUR`, 'required');
    else if (value && !positive(value)) add(at('customsValue'), 'The customs value is more than 0', 'format');
    for (const [field, name] of [
      ['invoiceValue', 'item price'],
      ['statisticalValue', 'statistical value'],
      ['vatCosts', 'costs to the first destination'],
    ] as const) {
      const v = text(item[field]);
      if (v && (!isDecimal(v) || compareDecimal(v, '0') < 0))
        add(at(field), `The ${name} is an amount of 0 or more`, 'format');
    }
    for (const [field, name] of [
      ['dutyRate', 'duty rate'],
      ['vatRate', 'VAT rate'],
    ] as const) {
      const v = text(item[field]);
      if (v && (!isDecimal(v) || compareDecimal(v, '0') < 0 || compareDecimal(v, '100') > 0))
        add(at(field), `Enter the ${name} as a percentage between 0 and 100`, 'format');
    }

    const origin = text(item.countryOfOrigin);
    if (type === 'import' && !origin)
      add(at('countryOfOrigin'), `Enter the country of origin of ${no}`, 'required');
    else if (origin && !isCountryCode(origin))
      add(at('countryOfOrigin'), `${origin} is not a country code`, 'format');
    const preference = text(item.preference);
    if (preference) {
      const problem = preferenceProblem(preference);
      if (problem) add(at('preference'), problem, 'format');
    }

    const containers = item.containers ?? [];
    containers.forEach((c, j) => {
      if (!isValidContainerNumber(c.trim()))
        add(at(`containers.${j}`), `${c} is not a valid container number (ISO 6346)`, 'format');
    });
    if (d.containerIndicator === false && containers.length > 0)
      add(
        at('containers'),
        `Box 19 says the goods do not travel in containers, but ${no} lists containers`,
        'container-indicator',
      );

    (item.supportingDocuments ?? []).forEach((doc, j) => {
      if (!(SUPPORTING_DOCUMENT_TYPES as readonly string[]).includes(doc.type))
        add(
          at(`supportingDocuments.${j}.type`),
          `${doc.type} is not a document type the product knows`,
          'format',
        );
      if (!text(doc.reference))
        add(at(`supportingDocuments.${j}.reference`), 'Enter the reference of the document', 'required');
    });

    const previous = item.previousDocuments ?? [];
    if (type === 'transit' && previous.length === 0)
      add(
        at('previousDocuments'),
        `Cite the previous document of ${no} (box 40), e.g. the export declaration's MRN`,
        'required',
      );
    previous.forEach((doc, j) => {
      const ref = text(doc.reference);
      const path = at(`previousDocuments.${j}.reference`);
      if (!(PREVIOUS_DOCUMENT_TYPES as readonly string[]).includes(doc.type))
        add(
          at(`previousDocuments.${j}.type`),
          `${doc.type} is not a previous document type the product knows`,
          'format',
        );
      if (!ref) {
        add(path, 'Enter the reference of the previous document', 'required');
        return;
      }
      if (doc.type === 'N830') {
        const problem = mrnProblem(ref, 'export');
        // The sandbox cites both as its rule SBX-R308: an N830 is a valid export MRN.
        if (problem) add(path, problem, 'previous-export-mrn');
        else if (!['A', 'B', 'E'].includes(ref[16] as string))
          add(
            path,
            'The export declaration of goods in transit is an MRN with A, B or E in position 17',
            'previous-export-mrn',
          );
      } else if (doc.type === 'N821' || doc.type === 'N822') {
        const problem = mrnProblem(ref, 'transit');
        if (problem) add(path, problem, 'format');
      } else if (doc.type === 'MRN') {
        const problem = mrnProblem(ref);
        if (problem) add(path, problem, 'format');
      }
      // Goods taken from the warehouse leave by the procedures their customs status allows.
      const stockStatus = context.warehouseEntries?.[ref.toUpperCase()];
      if (stockStatus) {
        const wrong = procedure ? outboundProcedureProblem(stockStatus, procedure) : undefined;
        if (wrong) add(at('procedureCode'), wrong, 'warehouse-procedure');
        if (stockStatus === 'temporary_storage' && doc.type !== 'N337')
          add(
            at(`previousDocuments.${j}.type`),
            `${ref} is the reference of goods in temporary storage: cite it as a temporary storage declaration (N337)`,
            'temporary-storage-reference',
          );
      }
    });
  });

  // The customs value built from the invoice (UCC art. 70–72): once the consignment's additions or
  // deductions are entered, an item valued at its transaction value (method 1) carries its price at the
  // rate plus its share of them, to the cent.
  if (type === 'import' && hasAdjustments(d)) {
    const by = text(d.apportionment) === 'mass' ? 'mass' : 'value';
    const lines = customsValueBuildUp(d.items, currency === 'EUR' && !rate ? '1' : rate, d, by);
    lines?.forEach((line, i) => {
      const item = d.items[i];
      const typed = text(item?.customsValue);
      if (text(item?.valuationMethod) !== '1' || !typed || !isDecimal(typed)) return;
      if (compareDecimal(typed, line.customsValue) !== 0)
        add(
          `items.${i}.customsValue`,
          `The customs value of item ${i + 1} is ${money(typed, 'EUR')}; its price at the rate with its share of the additions and deductions (by ${by}) gives ${money(line.customsValue, 'EUR')}`,
          'customs-value-build-up',
        );
    });
  }

  // CBAM (from 2026): goods of Annex I cite the importer's CBAM account (Y128) or why they need none.
  if (type === 'import') cbamProblems(d, context, add);

  // Box 22 against the items (DE 4/11, 4/14): the total amount invoiced is the sum of the items' prices,
  // to the cent; the declarant spreads a rounding difference over the items (ADR 0047).
  if (type !== 'transit' && total && totalChecked && d.items.length > 0) {
    const missing = d.items.flatMap((item, i) => (text(item.invoiceValue) ? [] : [i]));
    for (const i of missing)
      add(
        `items.${i}.invoiceValue`,
        `Enter the item price of item ${i + 1}: the total amount invoiced is the sum of the items' prices`,
        'required',
      );
    const values = d.items.map((item) => text(item.invoiceValue));
    if (missing.length === 0 && values.every((v) => v !== null && isDecimal(v))) {
      const sum = sumDecimal(values as string[]);
      if (compareDecimal(total, sum) !== 0) {
        const cur = currency ?? 'EUR';
        add(
          'invoiceTotal',
          `Invoice total ${money(total, cur)} differs from the sum of the items' invoice values, ${money(sum, cur)}`,
          'invoice-total',
        );
      }
    }
  }

  return problems;
}

/**
 * Where a completeness problem's data element is laid down: `Annex B, DE 6/14` for `items.0.commodityCode`
 * (the field's own name decides; a party's fields and the offices have none in the table). A message that
 * already names its DE keeps its own.
 */
function dataElementOf(field: string, message: string): string | undefined {
  if (/\bDE \d/.test(message)) return undefined;
  const name = field.replace(/^items\.\d+\./, '').replace(/\.\d+(\.\w+)?$/, '');
  const de = field.includes('.') && !field.startsWith('items.') ? undefined : DATA_ELEMENTS[name];
  return de ? `Annex B, DE ${de}` : undefined;
}

/** DE 5/23: the identification read as its qualifier says (the formats a check here can know). */
function locationProblem(qualifier: string, location: string): string | undefined {
  switch (qualifier) {
    case 'U':
      return /^[A-Z]{2}[A-Z2-9]{3}$/.test(location)
        ? undefined
        : 'With qualifier U the location is a UN/LOCODE of 5 characters, e.g. NLRTM';
    case 'V': {
      const problem = customsOfficeProblem(location);
      return problem
        ? `With qualifier V the location is a customs office: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`
        : undefined;
    }
    case 'X': {
      const problem = eoriProblem(location);
      return problem ? `With qualifier X the location is an EORI number: ${problem}` : undefined;
    }
    case 'Y':
      return /^\S{1,35}$/.test(location)
        ? undefined
        : 'With qualifier Y the location is an authorisation number: no spaces, at most 35 characters';
    default:
      return undefined;
  }
}

/**
 * Goods under CBAM on an import: each such item cites the CBAM account number (Y128) or the reason
 * none is needed (Y137 de minimis, Y237 Union origin, Y134 the excluded territories). De minimis holds
 * while the importer's CBAM goods of the year, this declaration's included, weigh at most 50 tonnes, and
 * never for electricity or hydrogen.
 */
function cbamProblems(
  d: LodgingInput,
  context: LodgingContext,
  add: (field: string, message: string, code: string) => void,
): void {
  const cbamItems = d.items
    .map((item, i) => ({ item, i, category: cbamCategoryOf(text(item.commodityCode)) }))
    .filter((x) => x.category !== null && isCbamImportation(text(x.item.procedureCode)));
  if (cbamItems.length === 0) return;
  const thisDeclarationKg = sumDecimal(
    cbamItems
      .filter((x) => x.category && !cbamWithoutDeMinimis(x.category))
      .map((x) => text(x.item.netMassKg))
      .filter((v): v is string => v !== null && isDecimal(v)),
    3,
  );
  const yearKg =
    context.cbamKgThisYear === undefined ? null : sumDecimal([context.cbamKgThisYear, thisDeclarationKg], 3);
  for (const { item, i, category } of cbamItems) {
    if (!category) continue;
    const code = normalizeCommodityCode(text(item.commodityCode) ?? '').slice(0, 4);
    const what = `Item ${i + 1} is goods under CBAM (${CBAM_CATEGORY_LABELS[category]}, CN ${code})`;
    const cited = (item.supportingDocuments ?? []).filter((doc) =>
      (CBAM_DOCUMENT_TYPES as readonly string[]).includes(doc.type),
    );
    const at = `items.${i}.supportingDocuments`;
    if (cited.length === 0) {
      add(
        at,
        cbamWithoutDeMinimis(category)
          ? `${what}: cite the importer's CBAM account number (Y128)`
          : `${what}: cite the importer's CBAM account number (Y128), or Y137 while its CBAM goods stay within 50 tonnes a year`,
        'cbam',
      );
      continue;
    }
    const deMinimis = (item.supportingDocuments ?? []).findIndex((doc) => doc.type === 'Y137');
    if (deMinimis < 0) continue;
    if (cbamWithoutDeMinimis(category))
      add(
        `${at}.${deMinimis}.type`,
        `${what}: electricity and hydrogen have no 50-tonne threshold; cite the importer's CBAM account number (Y128)`,
        'cbam-threshold',
      );
    else if (yearKg !== null && compareDecimal(yearKg, CBAM_THRESHOLD_KG) > 0)
      add(
        at,
        `${what}: the importer's goods under CBAM come to ${kg(yearKg)} kg this year with this declaration, above the 50-tonne threshold; de minimis (Y137) no longer applies, cite the CBAM account number (Y128)`,
        'cbam-threshold',
      );
  }
}
