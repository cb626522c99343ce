import { describe, expect, expectTypeOf, it } from 'vitest';
import { cbamCategoryOf } from './cbam.ts';
import {
  type LodgingContext,
  type LodgingInput,
  type LodgingItem,
  lodgingProblems,
  transitAmountAtStake,
} from './declaration-rules.ts';
import type { Declaration } from './declarations.ts';
import { makeMrn } from './validators/mrn.ts';

const declarant = { name: 'FVG Customs BV', countryCode: 'NL', eori: 'NL812345678' };
const importer = { name: 'Brouwer Trading BV', countryCode: 'NL', eori: 'NL001234567' };
const foreign = { name: 'Shenzhen Bright Co.', countryCode: 'CN', eori: null };

const importItem: LodgingItem = {
  commodityCode: '8471300000',
  description: 'Laptops',
  countryOfOrigin: 'CN',
  preference: '100',
  procedureCode: '4000',
  additionalProcedureCodes: ['000'],
  valuationMethod: '1',
  // CN 8471: declared in number of items too.
  supplementaryUnits: '20',
  packages: 20,
  packageKind: 'CT',
  grossMassKg: '1200.000',
  netMassKg: '1100.000',
  invoiceValue: '25000.00',
  customsValue: '23800.00',
  statisticalValue: '23800.00',
  dutyRate: '0',
  vatRate: '21',
  vatCosts: '350.00',
  containers: ['MSKU6011672'],
  supportingDocuments: [{ type: 'N380', reference: 'INV-2026-118' }],
  previousDocuments: [{ type: 'N337', reference: 'TS-2026-4411' }],
};

const completeImport: LodgingInput = {
  type: 'import',
  category: 'H1',
  declarant,
  representative: null,
  representativeStatus: '1',
  consignor: foreign,
  consignee: importer,
  holder: null,
  officeOfLodgement: 'NL000396',
  officeOfExitEntry: 'NL000396',
  officeOfDestination: null,
  officesOfTransit: [],
  countryOfDispatch: 'CN',
  countryOfDestination: 'NL',
  transportModeBorder: '1',
  transportModeInland: '3',
  containerIndicator: true,
  incoterm: 'CIF',
  natureOfTransaction: '11',
  currency: 'USD',
  invoiceTotal: '25000.00',
  exchangeRate: '0.921500',
  methodOfPayment: 'E',
  authorisations: [{ type: 'C506', reference: 'NLDPO0001234' }],
  locationOfGoods: 'NLRTM',
  locationOfGoodsType: 'A',
  locationOfGoodsQualifier: 'U',
  guaranteeType: null,
  guaranteeReference: null,
  guaranteeAmount: null,
  items: [importItem],
};

const completeExport: LodgingInput = {
  type: 'export',
  category: 'B1',
  declarant,
  representative: { name: 'FVG Customs BV', countryCode: 'NL', eori: 'NL812345678' },
  representativeStatus: '2',
  consignor: { name: 'Van Dijk Machines BV', countryCode: 'NL', eori: 'NL009876543' },
  consignee: { name: 'Acme Corp', countryCode: 'US', eori: '' },
  officeOfLodgement: 'NL000854',
  officeOfExitEntry: 'NL000396',
  countryOfDispatch: 'NL',
  countryOfDestination: 'US',
  transportModeBorder: '1',
  containerIndicator: false,
  currency: 'EUR',
  invoiceTotal: '48000',
  exchangeRate: '',
  locationOfGoods: 'NL000854',
  locationOfGoodsType: 'B',
  locationOfGoodsQualifier: 'V',
  items: [
    {
      commodityCode: '84798997',
      description: 'Packaging machine',
      procedureCode: '1000',
      additionalProcedureCodes: ['000'],
      packages: '1',
      packageKind: 'CR',
      grossMassKg: '2400',
      netMassKg: '2150.5',
      invoiceValue: '48000',
      statisticalValue: '48000',
      containers: [],
      supportingDocuments: [],
      previousDocuments: [],
    },
  ],
};

const completeTransit: LodgingInput = {
  type: 'transit',
  category: 'T1',
  declarant,
  representativeStatus: '1',
  consignor: { name: 'Van Dijk Machines BV', countryCode: 'NL', eori: 'NL009876543' },
  consignee: { name: 'Schweizer Import AG', countryCode: 'CH' },
  holder: { name: 'FVG Customs BV', countryCode: 'NL', eori: 'NL812345678' },
  officeOfLodgement: 'NL000854',
  officeOfDestination: 'CH001251',
  officesOfTransit: ['DE004800'],
  countryOfDispatch: 'NL',
  countryOfDestination: 'CH',
  transportModeBorder: '3',
  guaranteeType: '1',
  guaranteeReference: '26NL0000000000012',
  guaranteeAmount: '15000.00',
  items: [
    {
      commodityCode: '84798997',
      description: 'Packaging machine',
      procedureCode: null,
      packages: 1,
      packageKind: 'CR',
      grossMassKg: '2400',
      netMassKg: '2150.5',
      // At stake: 816.00 duty + 10 251.36 VAT.
      customsValue: '48000.00',
      dutyRate: '1.7',
      vatRate: '21',
      previousDocuments: [{ type: 'N830', reference: '25NL000000001234A0' }],
    },
    {
      commodityCode: '730890',
      description: 'Steel frames, in bulk',
      packages: null,
      packageKind: 'VR',
      grossMassKg: '800',
      netMassKg: '800',
      // At stake: 0.00 duty + 1 344.00 VAT; 12 411.36 for the two items.
      customsValue: '6400.00',
      dutyRate: '0',
      vatRate: '21',
      previousDocuments: [{ type: 'N830', reference: '25NL000000001234A0' }],
    },
  ],
};

function problemsOf(d: LodgingInput) {
  return lodgingProblems(d);
}

describe('lodgingProblems', () => {
  it("takes the API's Declaration as it is (checked by tsc)", () => {
    expectTypeOf<Declaration>().toExtend<LodgingInput>();
  });

  it('finds nothing missing in complete import, export and transit declarations', () => {
    expect(problemsOf(completeImport)).toEqual([]);
    expect(problemsOf(completeExport)).toEqual([]);
    expect(problemsOf(completeTransit)).toEqual([]);
  });

  it('lists what an empty import draft lacks, each with its field path', () => {
    const fields = problemsOf({ type: 'import', category: '', declarant: null, items: [] }).map(
      (p) => p.field,
    );
    expect(fields).toEqual([
      'category',
      'declarant',
      'representativeStatus',
      'consignee',
      'consignor',
      'officeOfLodgement',
      'countryOfDispatch',
      'countryOfDestination',
      'currency',
      'invoiceTotal',
      'locationOfGoods',
      'items',
    ]);
  });

  it('lists what an empty item lacks, by type', () => {
    const empty: LodgingItem = {
      commodityCode: '',
      description: '',
      packages: '',
      grossMassKg: '',
      netMassKg: '',
    };
    const fieldsOf = (d: LodgingInput) =>
      problemsOf({ ...d, items: [empty] })
        .filter((p) => p.field.startsWith('items.0.'))
        .map((p) => [p.field, p.message]);
    expect(fieldsOf(completeImport)).toEqual([
      ['items.0.commodityCode', 'Enter the commodity code of item 1 (Annex B, DE 6/14)'],
      ['items.0.description', 'Enter the description of the goods of item 1 (Annex B, DE 6/8)'],
      ['items.0.procedureCode', 'Enter the procedure code of item 1 (Annex B, DE 1/10)'],
      [
        'items.0.additionalProcedureCodes',
        'Enter the additional procedure code of item 1: 000 when there is none (DE 1/11)',
      ],
      ['items.0.valuationMethod', 'Choose the valuation method of item 1 (DE 4/16)'],
      ['items.0.packageKind', 'Choose the kind of packages of item 1 (Annex B, DE 6/9)'],
      ['items.0.packages', 'Enter the number of packages of item 1 (Annex B, DE 6/10)'],
      ['items.0.grossMassKg', 'Enter the gross mass of item 1 (Annex B, DE 6/5)'],
      ['items.0.netMassKg', 'Enter the net mass of item 1 (Annex B, DE 6/1)'],
      ['items.0.customsValue', 'Enter the customs value of item 1, in EUR'],
      ['items.0.countryOfOrigin', 'Enter the country of origin of item 1 (Annex B, DE 5/15)'],
      [
        'items.0.invoiceValue',
        "Enter the item price of item 1: the total amount invoiced is the sum of the items' prices (Annex B, DE 4/14)",
      ],
    ]);
    expect(fieldsOf(completeTransit).map(([f]) => f)).toEqual([
      // What the guarantee covers is computed from these (UCC art. 89–90, IA art. 148).
      'items.0.customsValue',
      'items.0.dutyRate',
      'items.0.vatRate',
      'items.0.commodityCode',
      'items.0.description',
      'items.0.packageKind',
      'items.0.packages',
      'items.0.grossMassKg',
      'items.0.netMassKg',
      'items.0.previousDocuments',
    ]);
    // A waiver covers no amount: the items need no value or rates.
    expect(
      fieldsOf({ ...completeTransit, guaranteeType: '0', guaranteeReference: null }).map(([f]) => f),
    ).not.toContain('items.0.customsValue');
  });

  const one = (d: LodgingInput, field: string) => {
    const found = problemsOf(d).filter((p) => p.field === field);
    expect(found, JSON.stringify(problemsOf(d))).toHaveLength(1);
    return found[0];
  };
  const withItem = (d: LodgingInput, change: Partial<LodgingItem>): LodgingInput => ({
    ...d,
    items: [{ ...d.items[0], ...change }, ...d.items.slice(1)],
  });

  it('refuses a net mass above the gross mass, naming the gross mass', () => {
    expect(one(withItem(completeImport, { netMassKg: '1200.001' }), 'items.0.netMassKg')).toEqual({
      field: 'items.0.netMassKg',
      message: 'Net mass cannot exceed the gross mass (1 200.000 kg)',
      code: 'net-over-gross',
    });
    expect(problemsOf(withItem(completeImport, { netMassKg: '1200' }))).toEqual([]);
    expect(one(withItem(completeImport, { grossMassKg: '0' }), 'items.0.grossMassKg')?.message).toBe(
      'The gross mass is more than 0 kg',
    );
  });

  it('checks the procedure code against the category', () => {
    expect(one(withItem(completeImport, { procedureCode: '1000' }), 'items.0.procedureCode')).toEqual({
      field: 'items.0.procedureCode',
      message:
        'Procedure 1000 is an export procedure; an import (H1) declaration takes 01, 07, 40, 42, 44 or 61',
      code: 'procedure',
    });
    expect(one(withItem(completeTransit, { procedureCode: '1000' }), 'items.0.procedureCode')?.message).toBe(
      'A transit item has no procedure code: leave it empty',
    );
  });

  it('checks the category against the type', () => {
    expect(one({ ...completeImport, category: 'B1' }, 'category')).toMatchObject({
      message: 'An import declaration is H1 or H2, not B1',
      code: 'category-type',
    });
  });

  it('needs EORIs of the declarant, the representative (status 2, 3) and the EU-side party', () => {
    expect(one({ ...completeImport, consignee: { ...importer, eori: '' } }, 'consignee.eori')?.message).toBe(
      "Enter the consignee's EORI number",
    );
    expect(
      one({ ...completeImport, declarant: { ...declarant, eori: 'NL 81' } }, 'declarant.eori')?.message,
    ).toBe('An EORI is a country prefix and up to 15 letters or digits');
    expect(
      one({ ...completeExport, consignor: { ...completeExport.consignor, eori: null } }, 'consignor.eori'),
    ).toBeTruthy();
    expect(
      one({ ...completeTransit, holder: { name: 'X', countryCode: 'NL' } }, 'holder.eori')?.message,
    ).toBe("Enter the holder of the transit procedure's EORI number");
    expect(one({ ...completeExport, representative: null }, 'representative')?.message).toBe(
      'Enter the representative',
    );
    expect(one({ ...completeImport, representative: declarant }, 'representative')?.code).toBe(
      'representative-status',
    );
    expect(one({ ...completeImport, consignor: { ...foreign, name: '' } }, 'consignor.name')?.message).toBe(
      "Enter the consignor's name",
    );
    expect(
      one({ ...completeImport, consignor: { ...foreign, countryCode: 'QQ' } }, 'consignor.countryCode')
        ?.message,
    ).toBe('QQ is not a country code');
  });

  it('needs the offices of each type', () => {
    expect(one({ ...completeExport, officeOfExitEntry: '' }, 'officeOfExitEntry')?.message).toBe(
      'Enter the office of exit',
    );
    expect(one({ ...completeTransit, officeOfDestination: null }, 'officeOfDestination')?.message).toBe(
      'Enter the office of destination',
    );
    expect(one({ ...completeTransit, officeOfLodgement: '' }, 'officeOfLodgement')?.message).toBe(
      'Enter the office of departure',
    );
    expect(
      one({ ...completeTransit, officesOfTransit: ['DE004800', 'XX12'] }, 'officesOfTransit.1')?.message,
    ).toBe('A customs office reference is a country code and 6 letters or digits, e.g. NL000396');
    expect(one({ ...completeImport, officeOfLodgement: 'QQ000396' }, 'officeOfLodgement')?.code).toBe(
      'format',
    );
  });

  it('converts at the company’s customs rate of the month once the API gives it (UCC art. 53)', () => {
    const at = (rate: string | null) => ({ customsRate: { month: '2026-11', rate } });
    const rateOf = (d: LodgingInput, rate: string | null) =>
      lodgingProblems(d, at(rate)).find((p) => p.field === 'exchangeRate');
    // completeImport: USD at 0.921500.
    expect(rateOf(completeImport, '0.9215')).toBeUndefined();
    expect(rateOf(completeImport, '0.9301')).toEqual({
      field: 'exchangeRate',
      message:
        'The customs exchange rate for USD in November 2026 is 0.9301, not 0.9215 (UCC art. 53(1); IA art. 146)',
      code: 'customs-rate',
    });
    expect(rateOf(completeImport, null)?.message).toBe(
      "The company has no customs exchange rate for USD in November 2026: enter the month's published rate under Declarations, Customs rates (UCC art. 53(1); IA art. 146)",
    );
    // Without the API's context the rule waits; a missing rate is the completeness rule's.
    expect(problemsOf(completeImport)).toEqual([]);
    expect(rateOf({ ...completeImport, exchangeRate: null }, '0.9215')?.code).toBe('required');
    // A EUR invoice has no customs rate to meet.
    expect(lodgingProblems(completeExport, at(null))).toEqual([]);
  });

  it('needs the countries, currency, invoice total and exchange rate', () => {
    expect(one({ ...completeImport, countryOfDispatch: 'XX' }, 'countryOfDispatch')?.message).toBe(
      'XX is not a country code',
    );
    expect(one({ ...completeImport, exchangeRate: null }, 'exchangeRate')?.message).toBe(
      'Enter the exchange rate: EUR per 1 USD (box 23; Annex B, DE 4/15)',
    );
    expect(one({ ...completeImport, exchangeRate: '0' }, 'exchangeRate')?.message).toBe(
      'The exchange rate is more than 0',
    );
    expect(one({ ...completeExport, exchangeRate: '1.1' }, 'exchangeRate')?.message).toBe(
      'A EUR invoice has exchange rate 1',
    );
    expect(problemsOf({ ...completeExport, exchangeRate: '1.000000' })).toEqual([]);
    expect(one({ ...completeImport, currency: 'XYZ' }, 'currency')?.message).toBe(
      'XYZ is not an ISO 4217 currency',
    );
    expect(one({ ...completeImport, invoiceTotal: '' }, 'invoiceTotal')?.message).toBe(
      'Enter the total amount invoiced (box 22; Annex B, DE 4/11)',
    );
    expect(
      one({ ...completeImport, currency: 'JPY', invoiceTotal: '1200.50' }, 'invoiceTotal')?.message,
    ).toBe('JPY amounts have no decimals');
    // Transit carries no invoice: no currency or total needed.
    expect(problemsOf({ ...completeTransit, currency: null, invoiceTotal: null })).toEqual([]);
  });

  it('checks transport modes, the Incoterm and the nature of transaction when given', () => {
    expect(one({ ...completeImport, transportModeBorder: '6' }, 'transportModeBorder')?.message).toBe(
      '6 is not a mode of transport: choose one from the list',
    );
    expect(one({ ...completeImport, transportModeBorder: '4' }, 'incoterm')?.message).toBe(
      'CIF is for sea and inland waterway transport only, not air',
    );
    expect(one({ ...completeImport, incoterm: 'DDU' }, 'incoterm')?.message).toContain('retired');
    expect(one({ ...completeImport, natureOfTransaction: '1A' }, 'natureOfTransaction')?.code).toBe('format');
  });

  it('needs a transit guarantee: type, GRN where the type has one, amount', () => {
    expect(one({ ...completeTransit, guaranteeType: null }, 'guaranteeType')?.message).toBe(
      'Choose the guarantee type (box 52; Annex B, DE 8/2)',
    );
    expect(one({ ...completeTransit, guaranteeReference: '' }, 'guaranteeReference')?.message).toBe(
      'Enter the guarantee reference number (GRN) of the guarantee (Annex B, DE 8/3)',
    );
    expect(problemsOf({ ...completeTransit, guaranteeType: '3', guaranteeReference: null })).toEqual([]);
    expect(
      one({ ...completeTransit, guaranteeReference: 'A'.repeat(25) }, 'guaranteeReference')?.message,
    ).toBe('A guarantee reference number (GRN) has at most 24 characters');
    expect(one({ ...completeTransit, guaranteeAmount: '0.00' }, 'guaranteeAmount')?.message).toBe(
      'The guarantee amount is more than 0',
    );
    expect(one({ ...completeTransit, guaranteeAmount: null }, 'guaranteeAmount')?.code).toBe('required');
    expect(
      one(
        { ...completeTransit, guaranteeType: '5', guaranteeReference: null, guaranteeAmount: '500.01' },
        'guaranteeAmount',
      )?.code,
    ).toBe('guarantee-waiver-limit');
  });

  it('needs a guarantee that covers the duties and taxes at stake on the items, with no fixed floor', () => {
    // completeTransit's items: 816.00 + 10 251.36 + 0.00 + 1 344.00 = 12 411.36 EUR at stake.
    expect(transitAmountAtStake(completeTransit.items)).toBe('12411.36');
    expect(problemsOf({ ...completeTransit, guaranteeAmount: '12411.36' })).toEqual([]);
    expect(one({ ...completeTransit, guaranteeAmount: '12411.35' }, 'guaranteeAmount')).toEqual({
      field: 'guaranteeAmount',
      message:
        'Guarantee amount 12,411.35 EUR does not cover the duties and taxes at stake on the items, 12,411.36 EUR (UCC art. 89–90, IA art. 148)',
      code: 'guarantee-amount',
    });
    // Small goods, small guarantee: the former 1 000.00 EUR floor was not law.
    const small = {
      ...completeTransit,
      items: completeTransit.items.map((i) => ({ ...i, customsValue: '100.00' })),
      guaranteeAmount: '50.00',
    };
    expect(transitAmountAtStake(small.items)).toBe('44.06');
    expect(problemsOf(small)).toEqual([]);
    // Type 5 waives a guarantee only while at most EUR 500 is at stake, whatever amount is entered.
    const waiver = { ...small, guaranteeType: '5', guaranteeReference: null, guaranteeAmount: '44.06' };
    expect(problemsOf(waiver)).toEqual([]);
    expect(one({ ...waiver, items: completeTransit.items }, 'guaranteeType')).toMatchObject({
      message:
        'The duties and taxes at stake are 12,411.36 EUR: a waiver of type 5 covers at most EUR 500; choose a guarantee (UCC art. 89(9))',
      code: 'guarantee-waiver-limit',
    });
    // An item without its rates: no amount to compare yet, the item's fields say what is missing.
    expect(transitAmountAtStake([{ ...completeTransit.items[0], dutyRate: '' }])).toBeNull();
    expect(
      problemsOf(withItem({ ...completeTransit, guaranteeAmount: '1.00' }, { vatRate: null })).map(
        (p) => p.field,
      ),
    ).toEqual(['items.0.vatRate']);
  });

  it('asks an import with duties or taxes how they are paid (DE 4/8), and only a listed method', () => {
    expect(one({ ...completeImport, methodOfPayment: null }, 'methodOfPayment')).toEqual({
      field: 'methodOfPayment',
      message: 'Choose how the duties and taxes are paid (DE 4/8)',
      code: 'required',
    });
    expect(one({ ...completeImport, methodOfPayment: 'Z' }, 'methodOfPayment')?.message).toBe(
      'Z is not a method of payment',
    );
    // Nothing to pay yet (no rates), nothing to say; an export or a transit pays no import duties.
    const noRates = withItem({ ...completeImport, methodOfPayment: '' }, { dutyRate: null });
    expect(problemsOf(noRates).map((p) => p.field)).not.toContain('methodOfPayment');
    expect(problemsOf(completeExport)).toEqual([]);
  });

  it('accepts the 6-digit HS subheading on transit items only', () => {
    expect(problemsOf(withItem(completeTransit, { commodityCode: '8479 89' }))).toEqual([]);
    expect(one(withItem(completeImport, { commodityCode: '847989' }), 'items.0.commodityCode')).toEqual({
      field: 'items.0.commodityCode',
      message:
        'An import item needs the 8-digit CN code (or the 10-digit TARIC code); the 6-digit HS subheading is accepted on transits only',
      code: 'format',
    });
    expect(
      one(withItem(completeTransit, { commodityCode: '8479899' }), 'items.0.commodityCode')?.message,
    ).toBe('A commodity code has 6 digits (HS subheading), 8 (CN) or 10 (TARIC)');
  });

  it('needs an export MRN with A, B or E as the previous document of a transit item', () => {
    const cite = (reference: string) =>
      withItem(completeTransit, { previousDocuments: [{ type: 'N830', reference }] });
    const path = 'items.0.previousDocuments.0.reference';
    expect(problemsOf(cite('25NL000000001234A0'))).toEqual([]);
    expect(one(cite('22ITZXBZYUTJFLJXK6'), path)?.message).toBe(
      'Position 17 of an export MRN is A, B, C, D or E (Annex B, DE 2/1)',
    );
    // An exit-summary-only MRN (C) has an export letter but is not an export declaration.
    const exitSummary = makeMrn({ year: 2026, country: 'NL', serial: '000000007777', letter: 'C' });
    expect(one(cite(exitSummary), path)).toMatchObject({
      message:
        'The export declaration of goods in transit is an MRN with A, B or E in position 17 (Annex B, DE 2/1)',
      code: 'previous-export-mrn',
    });
    expect(one(cite('25NL000000001234A1'), path)?.message).toBe(
      'The check character should be 0 (Annex B, DE 2/1)',
    );
    expect(
      one(withItem(completeTransit, { previousDocuments: [{ type: 'N830', reference: ' ' }] }), path)?.code,
    ).toBe('required');
  });

  it('checks container numbers against box 19', () => {
    expect(
      one(withItem(completeImport, { containers: ['MSKU6011673'] }), 'items.0.containers.0')?.message,
    ).toBe('MSKU6011673 is not a valid container number (ISO 6346)');
    expect(one(withItem(completeExport, { containers: ['MSKU6011672'] }), 'items.0.containers')?.code).toBe(
      'container-indicator',
    );
    expect(one(withItem(completeImport, { containers: [] }), 'containerIndicator')?.message).toBe(
      'Box 19 says the goods travel in containers: enter the container numbers on the items',
    );
    // One item naming the container is enough: the others may share it.
    const second = { ...importItem, containers: [] };
    expect(problemsOf({ ...completeImport, invoiceTotal: '50000.00', items: [importItem, second] })).toEqual(
      [],
    );
  });

  it('checks the rates, values, preference and documents of an item when given', () => {
    expect(one(withItem(completeImport, { vatRate: '121' }), 'items.0.vatRate')?.message).toBe(
      'Enter the VAT rate as a percentage between 0 and 100',
    );
    expect(one(withItem(completeImport, { customsValue: '0' }), 'items.0.customsValue')?.message).toBe(
      'The customs value is more than 0',
    );
    expect(one(withItem(completeImport, { vatCosts: '-5' }), 'items.0.vatCosts')?.message).toBe(
      'The costs to the first destination is an amount of 0 or more',
    );
    expect(one(withItem(completeImport, { preference: '1' }), 'items.0.preference')?.message).toBe(
      'A preference has 3 digits, e.g. 100',
    );
    expect(
      one(withItem(completeImport, { commodityCode: '7700000000' }), 'items.0.commodityCode')?.message,
    ).toBe(
      'Chapter 77 is reserved: no commodity code starts with 77 (Combined Nomenclature, Regulation (EEC) No 2658/87, Annex I)',
    );
    expect(
      one(
        withItem(completeImport, { supportingDocuments: [{ type: 'N380', reference: '' }] }),
        'items.0.supportingDocuments.0.reference',
      )?.code,
    ).toBe('required');
    expect(one(withItem(completeImport, { packages: '2.5' }), 'items.0.packages')?.message).toBe(
      'The number of packages is a whole number from 1',
    );
    expect(one(withItem(completeImport, { packages: 0 }), 'items.0.packages')?.code).toBe('format');
  });

  it('points at the item by its index', () => {
    const d = {
      ...completeTransit,
      items: [completeTransit.items[0] as LodgingItem, { ...completeTransit.items[1], netMassKg: '900' }],
    };
    expect(one(d, 'items.1.netMassKg')?.message).toBe('Net mass cannot exceed the gross mass (800.000 kg)');
  });
  describe('the Annex B data elements (issue 26 item 1)', () => {
    const messagesOf = (d: LodgingInput, field: string) =>
      problemsOf(d)
        .filter((p) => p.field === field)
        .map((p) => p.message);

    it('needs the location of goods of an import or export, typed and read by its qualifier (DE 5/23)', () => {
      expect(one({ ...completeImport, locationOfGoods: null }, 'locationOfGoods')?.message).toBe(
        'Enter the location of goods (DE 5/23)',
      );
      expect(one({ ...completeExport, locationOfGoodsType: null }, 'locationOfGoodsType')?.code).toBe(
        'required',
      );
      expect(one({ ...completeImport, locationOfGoods: 'NL RTM' }, 'locationOfGoods')?.message).toBe(
        'With qualifier U the location is a UN/LOCODE of 5 characters, e.g. NLRTM',
      );
      expect(one({ ...completeExport, locationOfGoods: 'NL0008' }, 'locationOfGoods')?.message).toMatch(
        /^With qualifier V the location is a customs office: a customs office reference is/,
      );
      // A free-text address passes on an import; a transit names a code NCTS can carry.
      expect(
        problemsOf({
          ...completeImport,
          locationOfGoods: 'Waalhaven 12, Rotterdam',
          locationOfGoodsQualifier: 'Z',
        }),
      ).toEqual([]);
      expect(problemsOf(completeTransit).some((p) => p.field.startsWith('locationOfGoods'))).toBe(false);
      const transitAddress = {
        ...completeTransit,
        locationOfGoods: 'Waalhaven 12, Rotterdam',
        locationOfGoodsType: 'B',
        locationOfGoodsQualifier: 'Z',
      };
      expect(one(transitAddress, 'locationOfGoodsQualifier')?.code).toBe('transit-location');
    });

    it('asks for the authorisations the declaration relies on, citing the article (DE 2/3)', () => {
      expect(one({ ...completeImport, authorisations: [] }, 'authorisations')?.message).toBe(
        'Deferred payment (E) needs the deferment authorisation: add C506 with its number (UCC art. 110; Annex B, DE 2/3)',
      );
      const warehousing = withItem(completeImport, { procedureCode: '7100' });
      expect(one({ ...warehousing, category: 'H2' }, 'authorisations')?.code).toBe('warehouse-authorisation');
      expect(
        problemsOf({
          ...warehousing,
          category: 'H2',
          authorisations: [
            ...(completeImport.authorisations ?? []),
            { type: 'C517', reference: 'NLCWP0000042' },
          ],
        }).filter((p) => p.field === 'authorisations'),
      ).toEqual([]);
      expect(
        one(
          { ...completeTransit, authorisations: [{ type: 'C506', reference: 'NLDPO1' }] },
          'authorisations.0.type',
        )?.message,
      ).toBe(
        'A transit declaration names only the authorisations C521, C523, C524, not C506 (deferred payment) (NCTS code list CL235)',
      );
      const twice = { type: 'C506', reference: 'NLDPO0001234' };
      expect(
        one({ ...completeImport, authorisations: [twice, twice] }, 'authorisations.1.reference')?.message,
      ).toBe('Authorisation C506 NLDPO0001234 is listed twice');
      expect(
        one(
          { ...completeImport, authorisations: [{ type: 'C506', reference: 'NL DPO' }] },
          'authorisations.0.reference',
        )?.code,
      ).toBe('format');
      const ten = Array.from({ length: 10 }, (_, i) => ({ type: 'C521', reference: `NLC521RTM00${40 + i}` }));
      expect(one({ ...completeTransit, authorisations: ten }, 'authorisations')?.message).toBe(
        'A transit names at most 9 authorisations (NCTS IE015)',
      );
    });

    it('needs the additional procedure code of imports and exports, 000 standing alone (DE 1/11)', () => {
      expect(
        one(
          withItem(completeImport, { additionalProcedureCodes: ['000', 'F45'] }),
          'items.0.additionalProcedureCodes',
        )?.message,
      ).toBe('000 means no additional procedure: it cannot stand with F45');
      expect(
        one(
          withItem(completeExport, { additionalProcedureCodes: ['F4'] }),
          'items.0.additionalProcedureCodes.0',
        )?.message,
      ).toBe('F4 is not an additional procedure code: 3 letters or digits, e.g. 000 or F45');
      expect(
        one(
          withItem(completeImport, { additionalProcedureCodes: ['F45', 'F45'] }),
          'items.0.additionalProcedureCodes.1',
        )?.code,
      ).toBe('duplicate');
      expect(
        one(
          withItem(completeTransit, { additionalProcedureCodes: ['000'] }),
          'items.0.additionalProcedureCodes',
        )?.code,
      ).toBe('format');
      expect(problemsOf(withItem(completeImport, { additionalProcedureCodes: ['F45', 'C07'] }))).toEqual([]);
    });

    it("needs an import item's valuation method and no other type's (DE 4/16)", () => {
      expect(
        one(withItem(completeImport, { valuationMethod: '7' }), 'items.0.valuationMethod')?.message,
      ).toBe('7 is not a valuation method: 1 to 6');
      expect(
        one(withItem(completeExport, { valuationMethod: '1' }), 'items.0.valuationMethod')?.message,
      ).toBe('Only an import item has a valuation method: clear it on item 1');
      // A typed customs value under methods 2–6 says why the transaction value does not apply.
      expect(
        one(withItem(completeImport, { valuationMethod: '3' }), 'items.0.valuationReason')?.message,
      ).toBe(
        'Say why the customs value of item 1 is not the transaction value (valuation method 3) (UCC art. 74(1))',
      );
      expect(
        problemsOf(
          withItem(completeImport, {
            valuationMethod: '3',
            valuationReason: 'Related parties: the price was influenced; similar goods sold at 23 800.00',
          }),
        ),
      ).toEqual([]);
    });

    it('asks for the supplementary units in the unit the CN code requires (DE 6/2)', () => {
      expect(
        one(withItem(completeImport, { supplementaryUnits: null }), 'items.0.supplementaryUnits')?.message,
      ).toBe(
        'Enter the supplementary units of item 1: CN 8471 is declared in p/st (number of items) (DE 6/2)',
      );
      expect(
        one(withItem(completeExport, { commodityCode: '22042109' }), 'items.0.supplementaryUnits')?.message,
      ).toMatch(/CN 2204 is declared in l \(litres\)/);
      expect(
        one(withItem(completeImport, { supplementaryUnits: '0' }), 'items.0.supplementaryUnits')?.code,
      ).toBe('format');
      // A code the table names no unit for (a packaging machine), and a transit item, are asked none.
      expect(messagesOf(completeExport, 'items.0.supplementaryUnits')).toEqual([]);
      expect(
        messagesOf(withItem(completeTransit, { commodityCode: '847130' }), 'items.0.supplementaryUnits'),
      ).toEqual([]);
    });

    it("checks the seals against the items' containers, and a limit date is a transit's", () => {
      const sealed = {
        ...completeImport,
        seals: [
          { identifier: 'ML-4471230', container: 'MSKU6011672' },
          { identifier: 'ML-4471231', container: 'MSCU1234565' },
          { identifier: 'ML-4471230', container: null },
        ],
      };
      expect(messagesOf(sealed, 'seals.1.container')).toEqual([
        "Container MSCU1234565 is not on any item: a seal closes one of the declaration's containers",
      ]);
      expect(messagesOf(sealed, 'seals.2.identifier')).toEqual(['Seal ML-4471230 is listed twice']);
      expect(messagesOf(sealed, 'seals.0.identifier')).toEqual([]);
      expect(one({ ...completeImport, limitDate: '2026-12-08' }, 'limitDate')?.message).toBe(
        'Only a transit declaration has a limit date',
      );
      expect(problemsOf({ ...completeTransit, limitDate: '2026-12-08' })).toEqual([]);
    });

    it('checks additional information codes (DE 2/2)', () => {
      expect(
        one(
          { ...completeImport, additionalInformation: [{ code: '005', text: null }] },
          'additionalInformation.0.code',
        )?.message,
      ).toBe('An additional information code has 5 characters, e.g. 00500');
      expect(
        problemsOf({ ...completeImport, additionalInformation: [{ code: '00500', text: null }] }),
      ).toEqual([]);
    });
  });
  describe('goods under CBAM on an import (issue 26 item 4)', () => {
    const steel = (over: Partial<LodgingItem> = {}): LodgingItem => ({
      ...importItem,
      commodityCode: '7318159590',
      description: 'Steel hex bolts, M12',
      supplementaryUnits: null,
      netMassKg: '18000.000',
      grossMassKg: '18500.000',
      ...over,
    });
    const withSteel = (item: LodgingItem, context?: LodgingContext) =>
      lodgingProblems({ ...completeImport, items: [item] }, context).filter((p) => p.code.startsWith('cbam'));

    it('knows Annex I by CN code, the longest prefix deciding and 3105 60 00 left out', () => {
      expect(cbamCategoryOf('7318 15 95 90')).toBe('iron-steel');
      expect(cbamCategoryOf('76061291')).toBe('aluminium');
      expect(cbamCategoryOf('27160000')).toBe('electricity');
      expect(cbamCategoryOf('28041000')).toBe('hydrogen');
      expect(cbamCategoryOf('25232900')).toBe('cement');
      expect(cbamCategoryOf('31056000')).toBeNull();
      expect(cbamCategoryOf('31052010')).toBe('fertilisers');
      expect(cbamCategoryOf('73170020')).toBeNull();
      expect(cbamCategoryOf('84713000')).toBeNull();
    });

    it('asks each CBAM item for the CBAM account number (Y128) or the exemption that applies, citing art. 25', () => {
      expect(withSteel(steel())).toEqual([
        {
          field: 'items.0.supportingDocuments',
          message:
            "Item 1 is goods under CBAM (iron and steel, CN 7318): cite the importer's CBAM account number (Y128), or Y137 while its CBAM goods stay within 50 tonnes a year (Regulation (EU) 2023/956, art. 25)",
          code: 'cbam',
        },
      ]);
      const y128 = { type: 'Y128', reference: 'CBAM-NL-2026-AAA00000000042' };
      expect(withSteel(steel({ supportingDocuments: [y128] }), { cbamKgThisYear: '90000' })).toEqual([]);
      expect(withSteel(steel({ supportingDocuments: [{ type: 'Y237', reference: 'N/A' }] }))).toEqual([]);
    });

    it('lets de minimis (Y137) stand only within 50 tonnes a year, counted with the importer’s other declarations', () => {
      const y137 = steel({
        supportingDocuments: [
          { type: 'N380', reference: 'INV-1' },
          { type: 'Y137', reference: 'N/A' },
        ],
      });
      // Without the API's count the threshold waits (a form cannot know the other declarations).
      expect(withSteel(y137)).toEqual([]);
      expect(withSteel(y137, { cbamKgThisYear: '32000' })).toEqual([]);
      // 32 000 + 18 000 = 50 000: still within; one more kilogram is not.
      expect(withSteel(y137, { cbamKgThisYear: '32000.001' })).toEqual([
        {
          field: 'items.0.supportingDocuments',
          message:
            "Item 1 is goods under CBAM (iron and steel, CN 7318): the importer's goods under CBAM come to 50 000.001 kg this year with this declaration, above the 50-tonne threshold; de minimis (Y137) no longer applies, cite the CBAM account number (Y128) (Regulation (EU) 2023/956, art. 2a)",
          code: 'cbam-threshold',
        },
      ]);
      // Electricity and hydrogen have no threshold at all.
      const power = steel({
        commodityCode: '2716000000',
        supportingDocuments: [{ type: 'Y137', reference: 'N/A' }],
      });
      expect(withSteel(power, { cbamKgThisYear: '0' }).map((p) => [p.field, p.code])).toEqual([
        ['items.0.supportingDocuments.0.type', 'cbam-threshold'],
      ]);
    });

    it('asks nothing of exports, transits, goods outside Annex I, and goods entering a customs warehouse', () => {
      expect(withSteel(importItem)).toEqual([]);
      // CBAM's importation is the release for free circulation: they count when they leave the warehouse.
      expect(withSteel(steel({ procedureCode: '7100' }))).toEqual([]);
      expect(
        lodgingProblems({
          ...completeExport,
          items: [{ ...(completeExport.items[0] as LodgingItem), commodityCode: '73181595' }],
        }).filter((p) => p.code.startsWith('cbam')),
      ).toEqual([]);
    });
  });
  describe('the customs value built from the invoice (issue 26 item 2)', () => {
    it('holds a transaction value to its price at the rate plus its share of the additions, once they are entered', () => {
      // 25 000.00 USD × 0.9215 = 23 037.50 EUR, + 762.50 of freight and insurance to the border = 23 800.00.
      expect(problemsOf({ ...completeImport, additionTransportInsurance: '762.50' })).toEqual([]);
      expect(
        one({ ...completeImport, additionTransportInsurance: '700.00' }, 'items.0.customsValue'),
      ).toEqual({
        field: 'items.0.customsValue',
        message:
          'The customs value of item 1 is 23,800.00 EUR; its price at the rate with its share of the additions and deductions (by value) gives 23,737.50 EUR (UCC art. 70–72)',
        code: 'customs-value-build-up',
      });
      // Without additions or deductions the typed value stands (the clerk may have added freight by hand);
      // a fallback method's value is typed, with its reason.
      expect(problemsOf({ ...completeImport, additionTransportInsurance: '0' })).toEqual([]);
      expect(
        problemsOf({
          ...withItem(completeImport, {
            valuationMethod: '2',
            valuationReason: 'Identical goods, same importer',
          }),
          additionTransportInsurance: '700.00',
        }),
      ).toEqual([]);
    });
  });
});
