import type {
  Company,
  InvoiceLine,
  InvoiceParty,
  InvoiceSeller,
  SalesChargeCode,
  SalesInvoice,
  SalesInvoiceWithAllowances,
  SalesOffer,
  SalesUnit,
  VatCode,
  VatExemptionReason,
} from '@fvg/contracts';
import { documentTotals, toBaseCurrency } from '@fvg/contracts';
import { DEMO_COMPANY_FIELDS } from '../seed/demo/company.ts';

/*
 * The seven invoices issue 11 names (domestic S, export E, import E, reverse charge AE, mixed rates,
 * another currency, a partial credit note) as the API would answer them, plus an offer: test
 * fixtures for the PDF and UBL renderers. Totals come from the same rules as the API's.
 */

export const COMPANY: Company = {
  ...DEMO_COMPANY_FIELDS,
  gs1CompanyPrefix: null,
  ssccExtensionDigit: 0,
  booksClosedUpTo: null,
  series: [],
  version: 3,
  updatedAt: '2026-11-01T09:00:00.000Z',
};

export const SELLER: InvoiceSeller = {
  name: COMPANY.legalName,
  street: COMPANY.street,
  postalCode: COMPANY.postalCode,
  city: COMPANY.city,
  countryCode: COMPANY.countryCode,
  vatNumber: COMPANY.vatNumber,
  registrationNumber: COMPANY.registrationNumber,
  peppolScheme: COMPANY.peppolScheme,
  peppolId: COMPANY.peppolId,
  email: COMPANY.email,
  iban: COMPANY.iban,
  bic: COMPANY.bic,
  footer: COMPANY.invoiceFooter,
};

const DUTCH_BUYER: InvoiceParty = {
  name: 'Maasvlakte Trading B.V.',
  street: 'Europaweg 850',
  postalCode: '3199 LD',
  city: 'Rotterdam',
  countryCode: 'NL',
  vatNumber: 'NL812345678B01',
  registrationNumber: '56781234',
  peppolScheme: null,
  peppolId: null,
  email: 'ap@maasvlakte-trading.example',
};

const GERMAN_BUYER: InvoiceParty = {
  name: 'Rheinland Logistik GmbH',
  street: 'Hafenstraße 12',
  postalCode: '47119',
  city: 'Duisburg',
  countryCode: 'DE',
  vatNumber: 'DE136695976',
  registrationNumber: null,
  peppolScheme: null,
  peppolId: null,
  email: null,
};

type LineSpec = [
  SalesChargeCode,
  string,
  quantity: string,
  SalesUnit,
  unitPrice: string,
  VatCode,
  rate: string | null,
  VatExemptionReason | null,
];

/** Lines and totals exactly as the API stores them: invoice-math's documentTotals (ADR 0029). */
export function linesAndTotals(specs: LineSpec[], exchangeRate: string | null) {
  const { lineNets, ...totals } = documentTotals(
    specs.map(([, , quantity, , unitPrice, vatCode, vatRate, exemptionReason]) => ({
      quantity,
      unitPrice,
      vatCode,
      vatRate,
      exemptionReason,
    })),
  );
  const lines: InvoiceLine[] = specs.map(
    ([chargeCode, description, quantity, unit, unitPrice, vatCode, vatRate, exemptionReason], i) => ({
      id: `line-${i + 1}`,
      chargeId: null,
      creditedLineId: null,
      chargeCode,
      description,
      quantity,
      unit,
      unitPrice,
      vatCode,
      vatRate,
      exemptionReason,
      allowanceCharges: [],
      lineNet: lineNets[i] as string,
    }),
  );
  const vatTotalBase = exchangeRate ? toBaseCurrency(totals.vatTotal, exchangeRate) : totals.vatTotal;
  return { lines, totals: { ...totals, vatTotalBase } };
}

let seq = 0;

export function scenarioInvoice(input: {
  number: string | null;
  kind?: SalesInvoice['kind'];
  buyer?: InvoiceParty;
  currency?: string;
  exchangeRate?: string | null;
  lines: LineSpec[];
  creditedInvoice?: { id: string; number: string; issueDate: string } | null;
  buyerReference?: string | null;
  dossier?: { id: string; number: string } | null;
}): SalesInvoice {
  seq += 1;
  const exchangeRate = input.exchangeRate ?? null;
  const { lines, totals } = linesAndTotals(input.lines, exchangeRate);
  const issued = input.number !== null;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    kind: input.kind ?? 'invoice',
    number: input.number,
    status: issued ? 'issued' : 'draft',
    customer: { id: 'c1', code: 'MAASVLAKTE', name: (input.buyer ?? DUTCH_BUYER).name },
    dossier: input.dossier === undefined ? { id: 'd1', number: 'D-2026-000118' } : input.dossier,
    creditedInvoice: input.creditedInvoice ?? null,
    creditNotes: [],
    currency: input.currency ?? 'EUR',
    exchangeRate,
    issueDate: issued ? '2026-11-23' : null,
    supplyDate: '2026-11-20',
    dueDate: issued ? '2026-12-23' : null,
    paymentTermsDays: 30,
    buyerReference: input.buyerReference ?? null,
    orderReference: null,
    notes: 'Internal: customer asked for a split invoice',
    seller: SELLER,
    buyer: input.buyer ?? DUTCH_BUYER,
    lines,
    allowanceCharges: [],
    totals,
    paidAmount: '0.00',
    openAmount: totals.taxInclusiveAmount,
    overdue: false,
    payments: [],
    version: 2,
    createdAt: '2026-11-21T10:00:00.000Z',
    createdBy: { id: 'u1', name: 'Anna de Vries' },
    updatedAt: '2026-11-23T10:00:00.000Z',
    issuedAt: issued ? '2026-11-23T10:00:00.000Z' : null,
    allowedActions: issued ? ['credit', 'pay'] : ['edit', 'delete', 'issue'],
  };
}

/**
 * An invoice with line and document allowances and charges (ADR 0049), its nets and totals computed
 * by documentTotals: road transport 1000.00 − 50.00 + 25.00 at 21 %, storage 2 × 40.00 at 9 %, a
 * 100.00 allowance and a 30.00 charge at 21 % on the document.
 */
export function allowancesChargesInvoice(): SalesInvoiceWithAllowances {
  const inv: SalesInvoiceWithAllowances = scenarioInvoice({
    number: 'I-2026-000060',
    lines: [
      ['FREIGHT', 'Road transport', '1', 'LS', '1000.00', 'S', '21', null],
      ['OTHER', 'Pallet storage', '2', 'DAY', '40.00', 'S', '9', null],
    ],
  });
  (inv.lines[0] as SalesInvoiceWithAllowances['lines'][number]).allowanceCharges = [
    { isCharge: false, amount: '50.00', reasonCode: '95', reason: 'Volume discount' },
    { isCharge: true, amount: '25.00', reasonCode: 'FC', reason: 'Freight service' },
  ];
  inv.allowanceCharges = [
    {
      isCharge: false,
      amount: '100.00',
      reasonCode: '95',
      reason: 'Loyalty discount',
      vatCode: 'S',
      vatRate: '21',
    },
    {
      isCharge: true,
      amount: '30.00',
      reasonCode: 'ABL',
      reason: 'Additional packaging',
      vatCode: 'S',
      vatRate: '21',
    },
  ];
  const { lineNets, ...totals } = documentTotals(
    inv.lines.map((l) => ({ ...l, allowanceCharges: l.allowanceCharges ?? [] })),
    undefined,
    '0',
    inv.allowanceCharges,
  );
  inv.lines.forEach((l, i) => {
    l.lineNet = lineNets[i] as string;
  });
  inv.totals = { ...inv.totals, ...totals };
  inv.openAmount = totals.taxInclusiveAmount;
  return inv;
}

const E146: VatExemptionReason = 'VATEX-EU-146-1E';

/** The seven scenarios of issue 11, by the file name their UBL is written under. */
export const SCENARIOS: Record<string, SalesInvoice> = {
  'domestic-s': scenarioInvoice({
    number: 'I-2026-000042',
    buyerReference: 'PO-88123',
    lines: [
      ['FREIGHT', 'Road transport Rotterdam – Venlo, 1 FTL', '1', 'LS', '845.00', 'S', '21', null],
      ['THC', 'Terminal handling ECT Delta', '2', 'XCN', '185.50', 'S', '21', null],
      ['DOCUMENTATION', 'Documentation fee', '1', 'C62', '35.00', 'S', '21', null],
    ],
  }),
  'export-e': scenarioInvoice({
    number: 'I-2026-000043',
    lines: [
      ['FREIGHT', 'Sea freight Rotterdam – Shanghai, 40ft HC', '1', 'XCN', '2450.00', 'E', '0', E146],
      ['THC', 'Terminal handling origin', '1', 'XCN', '210.00', 'E', '0', E146],
      ['CUSTOMS', 'Export declaration', '1', 'C62', '65.00', 'E', '0', E146],
    ],
  }),
  'import-e': scenarioInvoice({
    number: 'I-2026-000044',
    lines: [
      ['FREIGHT', 'On-carriage Rotterdam – Tilburg', '1', 'LS', '395.00', 'E', '0', 'VATEX-EU-144'],
      ['HANDLING', 'Unloading and tally', '3.5', 'HUR', '48.00', 'E', '0', 'VATEX-EU-144'],
    ],
  }),
  'reverse-charge-ae': scenarioInvoice({
    number: 'I-2026-000045',
    buyer: GERMAN_BUYER,
    lines: [
      ['FREIGHT', 'Road transport Rotterdam – Duisburg', '1', 'LS', '1180.00', 'AE', '0', 'VATEX-EU-AE'],
      ['STORAGE', 'Storage, pallet days', '36', 'DAY', '1.2500', 'AE', '0', 'VATEX-EU-AE'],
    ],
  }),
  'mixed-rates': scenarioInvoice({
    number: 'I-2026-000046',
    lines: [
      ['HANDLING', 'Cross-docking', '12', 'HUR', '52.35', 'S', '21', null],
      ['OTHER', 'Printed customs guide (book)', '3', 'C62', '24.95', 'S', '9', null],
      ['FREIGHT', 'Sea freight Rotterdam – New York', '1', 'XCN', '1875.00', 'E', '0', E146],
      ['DOCUMENTATION', 'Certificate of origin', '1', 'C62', '27.50', 'S', '21', null],
    ],
  }),
  'usd-exchange-rate': scenarioInvoice({
    number: 'I-2026-000047',
    currency: 'USD',
    exchangeRate: '0.921350',
    lines: [
      ['FREIGHT', 'Air freight Houston – Amsterdam, 420 kg', '420', 'KGM', '3.8500', 'S', '21', null],
      ['HANDLING', 'Airport handling', '1', 'LS', '145.00', 'S', '21', null],
    ],
  }),
  'credit-note-partial': scenarioInvoice({
    number: 'C-2026-000007',
    kind: 'credit_note',
    creditedInvoice: { id: 'inv-42', number: 'I-2026-000042', issueDate: '2026-11-02' },
    buyerReference: 'PO-88123',
    lines: [
      [
        'THC',
        'Terminal handling ECT Delta (one container not handled)',
        '1',
        'XCN',
        '185.50',
        'S',
        '21',
        null,
      ],
    ],
  }),
};

/** An offer with two currencies, as the API answers it. */
export function scenarioOffer(status: SalesOffer['status'] = 'sent'): SalesOffer {
  return {
    id: '00000000-0000-4000-8000-0000000000aa',
    number: 'O-2026-000015',
    status,
    customer: { id: 'c1', code: 'MAASVLAKTE', name: 'Maasvlakte Trading B.V.' },
    contactName: 'Pieter Jansen',
    contactEmail: 'pieter@maasvlakte-trading.example',
    validUntil: '2026-12-15',
    originLocode: 'NLRTM',
    destinationLocode: 'CNSHA',
    mode: 'sea',
    incoterm: 'FOB',
    incotermPlace: 'Rotterdam',
    dossierType: 'export',
    cargoDescription: 'Machine parts',
    packages: 12,
    packageType: 'pallets',
    grossWeightKg: '4200.000',
    volumeM3: '18.500',
    notes: 'Internal: margin 14 %',
    lines: [
      {
        id: 'ol1',
        chargeCode: 'FREIGHT',
        description: 'Sea freight Rotterdam – Shanghai, 40ft HC',
        quantity: '1',
        unit: 'XCN',
        unitPrice: '1650.0000',
        currency: 'USD',
        exchangeRate: '0.921350',
        vatCode: 'E',
        vatRate: '0',
        lineNet: '1650.00',
      },
      {
        id: 'ol2',
        chargeCode: 'THC',
        description: 'Terminal handling origin',
        quantity: '1',
        unit: 'XCN',
        unitPrice: '210.0000',
        currency: 'EUR',
        exchangeRate: '1',
        vatCode: 'E',
        vatRate: '0',
        lineNet: '210.00',
      },
      {
        id: 'ol3',
        chargeCode: 'CUSTOMS',
        description: 'Export declaration',
        quantity: '1',
        unit: 'C62',
        unitPrice: '65.0000',
        currency: 'EUR',
        exchangeRate: '1',
        vatCode: 'E',
        vatRate: '0',
        lineNet: '65.00',
      },
    ],
    totals: [
      { currency: 'USD', net: '1650.00', vat: '0.00', gross: '1650.00' },
      { currency: 'EUR', net: '275.00', vat: '0.00', gross: '275.00' },
    ],
    dossier: null,
    sentAt: '2026-11-20T09:30:00.000Z',
    decidedAt: null,
    version: 2,
    createdAt: '2026-11-19T15:00:00.000Z',
    updatedAt: '2026-11-20T09:30:00.000Z',
    createdBy: { id: 'u1', name: 'Anna de Vries' },
    allowedTransitions: ['accepted', 'rejected', 'cancelled'],
  };
}
