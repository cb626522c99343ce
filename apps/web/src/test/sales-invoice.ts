import type { Company, SalesInvoice, SalesInvoiceListItem } from '@fvg/contracts';
import { ACME_ID } from './dossier.ts';

export const THIS_YEAR = new Date().getFullYear();
export const INVOICE_ID = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';

const party = {
  name: 'Acme Trading B.V.',
  street: 'Wilhelminakade 1',
  postalCode: '3072 AP',
  city: 'Rotterdam',
  countryCode: 'NL',
  vatNumber: 'NL123456782B01',
  registrationNumber: null,
  peppolScheme: null,
  peppolId: null,
  email: null,
};

/**
 * A draft invoice to Acme in EUR with no lines; each test names only what it is about (lines,
 * status, payments…), so a new SalesInvoice field is added here once.
 */
export function anInvoice(overrides: Partial<SalesInvoice> = {}): SalesInvoice {
  return {
    id: INVOICE_ID,
    kind: 'invoice',
    number: null,
    status: 'draft',
    customer: { id: ACME_ID, code: 'ACME', name: 'Acme Trading' },
    dossier: null,
    creditedInvoice: null,
    creditNotes: [],
    currency: 'EUR',
    exchangeRate: null,
    issueDate: null,
    supplyDate: null,
    dueDate: null,
    paymentTermsDays: 30,
    buyerReference: null,
    orderReference: null,
    notes: null,
    seller: { ...party, name: 'FVG Forwarding B.V.', iban: 'NL91ABNA0417164300', bic: null, footer: null },
    buyer: party,
    lines: [],
    allowanceCharges: [],
    totals: {
      lineExtensionAmount: '0.00',
      vatGroups: [],
      allowanceTotalAmount: '0.00',
      chargeTotalAmount: '0.00',
      taxExclusiveAmount: '0.00',
      vatTotal: '0.00',
      taxInclusiveAmount: '0.00',
      payableAmount: '0.00',
      vatTotalBase: '0.00',
    },
    paidAmount: '0.00',
    openAmount: '0.00',
    overdue: false,
    payments: [],
    version: 3,
    createdAt: '2026-11-20T09:00:00.000Z',
    createdBy: { id: 'u1', name: 'Sam Staff' },
    updatedAt: '2026-11-20T09:00:00.000Z',
    issuedAt: null,
    allowedActions: ['edit', 'delete', 'issue'],
    ...overrides,
  };
}

export function aListItem(overrides: Partial<SalesInvoiceListItem> = {}): SalesInvoiceListItem {
  return {
    id: INVOICE_ID,
    kind: 'invoice',
    number: 'I-2026-000042',
    status: 'issued',
    customer: { id: ACME_ID, code: 'ACME', name: 'Acme Trading' },
    dossier: { id: '5d0c1a52-7c1e-4a0e-8f0e-1b2c3d4e5f60', number: 'D-2026-000042' },
    creditedInvoice: null,
    currency: 'EUR',
    issueDate: '2026-10-01',
    dueDate: '2026-10-31',
    taxInclusiveAmount: '1210.00',
    paidAmount: '0.00',
    openAmount: '1210.00',
    overdue: false,
    createdAt: '2026-10-01T09:00:00.000Z',
    updatedAt: '2026-10-01T09:00:00.000Z',
    ...overrides,
  };
}

/** The company settings with this year's invoice series at 43 (the year the issue dialog reads). */
export function aCompany(overrides: Partial<Company> = {}): Company {
  return {
    legalName: 'FVG Forwarding B.V.',
    street: 'Waalhaven 1',
    postalCode: '3089 JH',
    city: 'Rotterdam',
    countryCode: 'NL',
    vatNumber: 'NL859437218B01',
    eori: null,
    registrationNumber: null,
    iban: 'NL91ABNA0417164300',
    bic: null,
    email: null,
    peppolScheme: null,
    peppolId: null,
    baseCurrency: 'EUR',
    paymentTermsDays: 30,
    invoiceFooter: null,
    gs1CompanyPrefix: null,
    ssccExtensionDigit: 0,
    booksClosedUpTo: null,
    series: [
      { kind: 'invoice', prefix: 'I-', year: THIS_YEAR, nextNumber: 43, lastIssued: 42 },
      { kind: 'credit_note', prefix: 'C-', year: THIS_YEAR, nextNumber: 5, lastIssued: 4 },
    ],
    version: 1,
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
