import type { Declaration, DeclarationItem, DeclarationListItem, DeclarationMessage } from '@fvg/contracts';

/* Declarations as the API answers them, for the area's component tests. */

export const DECLARATION_ID = '7d1c2f0e-3b4a-4c5d-8e6f-7a8b9c0d1e2f';
export const DOSSIER_ID = '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d';

export function anItem(overrides: Partial<DeclarationItem> = {}): DeclarationItem {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    position: 1,
    commodityCode: '8471300000',
    description: 'Laptops',
    countryOfOrigin: 'CN',
    preference: '100',
    procedureCode: '4000',
    additionalProcedureCodes: ['000'],
    valuationMethod: '1',
    supplementaryUnits: null,
    packages: 10,
    packageKind: 'CT',
    marks: null,
    grossMassKg: '120.000',
    netMassKg: '100.000',
    invoiceValue: '10000.00',
    customsValue: '10000.00',
    statisticalValue: '10000.00',
    dutyRate: '0',
    vatRate: '21',
    vatCosts: null,
    containers: [],
    supportingDocuments: [],
    previousDocuments: [],
    estimate: null,
    ...overrides,
  };
}

const party = (name: string, eori: string) => ({
  partyId: null,
  name,
  street: 'Main street 1',
  postalCode: '3011 AA',
  city: 'Rotterdam',
  countryCode: 'NL',
  eori,
});

export function aDeclaration(overrides: Partial<Declaration> = {}): Declaration {
  return {
    id: DECLARATION_ID,
    type: 'import',
    category: 'H1',
    status: 'draft',
    lrn: 'LRN-2026-000042',
    mrn: null,
    gateway: { label: 'the sandbox authority', sandbox: true },
    dossier: { id: DOSSIER_ID, number: 'D-2026-000042' },
    shipment: null,
    customer: { id: 'c0000000-0000-4000-8000-000000000001', code: 'ACME', name: 'Acme Imports' },
    declarant: party('Forwarder BV', 'NL812345678'),
    representative: null,
    representativeStatus: '1',
    consignor: null,
    consignee: party('Acme Imports', 'NL123456789'),
    holder: null,
    officeOfLodgement: 'NL000396',
    officeOfExitEntry: null,
    officeOfDestination: null,
    officesOfTransit: [],
    countryOfDispatch: 'CN',
    countryOfDestination: 'NL',
    transportModeBorder: '1',
    transportModeInland: '3',
    meansAtDeparture: null,
    meansAtDepartureCountry: null,
    meansAtBorder: 'MSC ANNA',
    meansAtBorderCountry: 'PA',
    containerIndicator: true,
    incoterm: 'FOB',
    incotermPlace: 'Shanghai',
    natureOfTransaction: '11',
    currency: 'EUR',
    invoiceTotal: '10000.00',
    exchangeRate: null,
    locationOfGoods: 'ECT Delta terminal',
    locationOfGoodsType: 'A',
    locationOfGoodsQualifier: 'Z',
    warehouseReference: null,
    authorisations: [],
    additionalInformation: [],
    seals: [],
    limitDate: null,
    guaranteeType: null,
    methodOfPayment: 'H',
    guaranteeReference: null,
    guaranteeAmount: null,
    notes: 'Broker: call before lodging',
    items: [anItem()],
    totals: {
      packages: 10,
      grossMassKg: '120.000',
      netMassKg: '100.000',
      invoiceValue: '10000.00',
      customsValue: '10000.00',
      statisticalValue: '10000.00',
      duty: '0.00',
      vatBase: '10000.00',
      vat: '2100.00',
      dutyAndVat: '2100.00',
    },
    pendingRequest: null,
    rejection: [],
    lastMessage: null,
    lodgedAt: null,
    acceptedAt: null,
    releasedAt: null,
    exitedAt: null,
    arrivedAt: null,
    dischargedAt: null,
    version: 3,
    createdAt: '2026-11-10T08:00:00.000Z',
    createdBy: { id: 'u1', name: 'Sam Staff' },
    updatedAt: '2026-11-10T09:00:00.000Z',
    allowedActions: ['edit', 'delete', 'lodge', 'copy'],
    ...overrides,
  };
}

/** The same declaration after the authority accepted and released it. */
export const released = () =>
  aDeclaration({
    status: 'released',
    mrn: '26NL000396000042R3',
    lodgedAt: '2026-11-12T10:00:00.000Z',
    acceptedAt: '2026-11-12T10:00:02.000Z',
    releasedAt: '2026-11-12T10:00:07.000Z',
    lastMessage: { kind: 'released', at: '2026-11-12T10:00:07.000Z' },
    allowedActions: ['copy'],
  });

export function aListItem(overrides: Partial<DeclarationListItem> = {}): DeclarationListItem {
  return {
    id: DECLARATION_ID,
    type: 'import',
    category: 'H1',
    status: 'accepted',
    lrn: 'LRN-2026-000042',
    mrn: '26NL000396000042R3',
    dossier: { id: DOSSIER_ID, number: 'D-2026-000042' },
    shipment: null,
    customer: { id: 'c0000000-0000-4000-8000-000000000001', code: 'ACME', name: 'Acme Imports' },
    declarantName: 'Forwarder BV',
    customsValue: '10000.00',
    dutyAndVat: '2100.00',
    lastMessage: { kind: 'accepted', at: '2026-11-12T10:00:02.000Z' },
    pendingRequest: null,
    exitedAt: null,
    createdAt: '2026-11-10T08:00:00.000Z',
    updatedAt: '2026-11-12T10:00:02.000Z',
    ...overrides,
  };
}

export function aMessage(overrides: Partial<DeclarationMessage> = {}): DeclarationMessage {
  return {
    id: 'm1',
    direction: 'sent',
    kind: 'lodge',
    at: '2026-11-12T10:00:00.000Z',
    summary: 'Declaration lodged with the sandbox authority',
    mrn: null,
    rules: [],
    sandbox: true,
    by: { id: 'u1', name: 'Sam Staff' },
    xml: null,
    ...overrides,
  };
}
