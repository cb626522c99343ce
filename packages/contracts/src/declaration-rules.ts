/**
 * What a customs declaration needs before it can be lodged (drafts may be incomplete): the API refuses
 * a lodgement or amendment with these problems (422, `errors[].field` = the path), the web shows them
 * next to the fields before the clerk presses Lodge. Pure and zod-free; formats come from the same
 * validators the schemas call, so a message reads the same everywhere.
 */
import {
  CATEGORIES_OF_TYPE,
  CUSTOMS_TRANSPORT_MODE_LABELS,
  CUSTOMS_TRANSPORT_MODES,
  type DeclarationCategory,
  type DeclarationType,
  GUARANTEE_TYPES,
  GUARANTEE_TYPES_WITH_GRN,
  PACKAGE_KINDS,
  PREVIOUS_DOCUMENT_TYPES,
  REPRESENTATIVE_STATUSES,
  SUPPORTING_DOCUMENT_TYPES,
} from './declarations-values.ts';
import { compareDecimal, currencyDecimalsProblem, isDecimal } from './money.ts';
import {
  commodityCodeProblem,
  customsOfficeProblem,
  grnProblem,
  isCurrencyCode,
  preferenceProblem,
  procedureCodeProblem,
} from './validators/customs.ts';
import { incotermProblem } from './validators/incoterms.ts';
import { isValidContainerNumber } from './validators/iso6346.ts';
import { mrnProblem } from './validators/mrn.ts';
import { isCountryCode } from './validators/places.ts';
import { eoriProblem } from './validators/tax-ids.ts';

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
export interface LodgingInput {
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
  guaranteeReference?: Text;
  guaranteeAmount?: Text;
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

export function lodgingProblems(d: LodgingInput): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const add = (field: string, message: string, code: string) => problems.push({ field, message, code });
  const { type } = d;
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

  // Countries
  for (const [field, name] of [
    ['countryOfDispatch', 'country of dispatch'],
    ['countryOfDestination', 'country of destination'],
  ] as const) {
    const v = text(d[field]);
    if (!v) add(field, `Enter the ${name}`, 'required');
    else if (!isCountryCode(v)) add(field, `${v} is not a country code`, 'format');
  }

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
  if (nature && !/^\d{1,2}$/.test(nature))
    add('natureOfTransaction', 'The nature of transaction is 1 or 2 digits (box 24), e.g. 11', 'format');

  // Invoice: currency, total, exchange rate
  const currency = text(d.currency);
  const total = text(d.invoiceTotal);
  const rate = text(d.exchangeRate);
  if (currency && !isCurrencyCode(currency))
    add('currency', `${currency} is not an ISO 4217 currency`, 'format');
  if (customsOrTrade && !currency) add('currency', 'Enter the invoice currency (box 22)', 'required');
  if (customsOrTrade && !total) add('invoiceTotal', 'Enter the total amount invoiced (box 22)', 'required');
  if (total) {
    if (!positive(total)) add('invoiceTotal', 'The total amount invoiced is more than 0', 'format');
    else if (currency) {
      const problem = currencyDecimalsProblem(total, currency);
      if (problem) add('invoiceTotal', problem, 'format');
    }
  }
  if (currency && currency !== 'EUR' && isCurrencyCode(currency)) {
    if (!rate) add('exchangeRate', `Enter the exchange rate: EUR per 1 ${currency} (box 23)`, 'required');
    else if (!positive(rate)) add('exchangeRate', 'The exchange rate is more than 0', 'format');
  } else if (currency === 'EUR' && rate && (!isDecimal(rate) || compareDecimal(rate, '1') !== 0))
    add('exchangeRate', 'A EUR invoice has exchange rate 1', 'format');

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
      add('guaranteeAmount', 'A waiver of type 5 covers at most EUR 500', 'guarantee-waiver-limit');
  }

  // Items
  if (d.items.length === 0) add('items', 'Add at least one item', 'required');
  d.items.forEach((item, i) => {
    const at = (field: string) => `items.${i}.${field}`;
    const no = `item ${i + 1}`;

    const code = text(item.commodityCode);
    if (!code) add(at('commodityCode'), `Enter the commodity code of ${no}`, 'required');
    else {
      const problem = commodityCodeProblem(code);
      if (problem) add(at('commodityCode'), problem, 'format');
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
    if (d.containerIndicator === true && containers.length === 0)
      add(
        at('containers'),
        `Box 19 says the goods travel in containers: enter the container numbers of ${no}`,
        'required',
      );
    else if (d.containerIndicator === false && containers.length > 0)
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
        if (problem) add(path, problem, 'format');
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
    });
  });

  return problems;
}
