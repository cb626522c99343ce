import { describe, expect, it } from 'vitest';
import {
  creditNoteCreateSchema,
  invoiceIssueSchema,
  paymentCreateSchema,
  salesInvoiceCreateSchema,
  salesInvoiceListQuerySchema,
} from './sales-invoices.ts';

const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  (r.error?.issues ?? []).map((i) => i.path.join('.'));

const line = {
  chargeCode: 'FREIGHT',
  description: 'Ocean freight',
  quantity: '1',
  unitPrice: '1200',
  vatCode: 'S',
  vatRate: '21',
};
const customerId = '6f1c2f8e-8a4b-4c2d-9a55-0d7f7c1e2b3a';

describe('sales invoice contracts', () => {
  it('tells the two create shapes apart and reports the failing field of the one meant', () => {
    const fromDossier = salesInvoiceCreateSchema.safeParse({ dossierId: customerId });
    expect(fromDossier.success && 'dossierId' in fromDossier.data).toBe(true);
    const fromLines = salesInvoiceCreateSchema.parse({ customerId, currency: 'eur', lines: [line] });
    expect(fromLines).toMatchObject({ currency: 'EUR', lines: [{ unit: 'C62', vatRate: '21' }] });
    const bad = salesInvoiceCreateSchema.safeParse({
      customerId,
      currency: 'EUR',
      lines: [
        line,
        line,
        { ...line, vatRate: null },
        { ...line, vatCode: 'O' },
        { ...line, vatCode: 'E', vatRate: '9' },
      ],
    });
    expect(paths(bad)).toEqual(['lines.2.vatRate', 'lines.3.vatRate', 'lines.4.vatRate']);
    expect(paths(salesInvoiceCreateSchema.safeParse({ lines: [] }))).toEqual(['customerId', 'currency']);
    expect(paths(salesInvoiceCreateSchema.safeParse({ dossierId: 'x', currency: 'EURO' }))).toEqual([
      'dossierId',
      'currency',
    ]);
    const unknown = salesInvoiceCreateSchema.safeParse({ dossierId: customerId, colour: 'red' });
    expect(unknown.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['colour'] });
  });

  it('refuses a line whose net does not fit its column, and zero or negative quantities', () => {
    const r = salesInvoiceCreateSchema.safeParse({
      customerId,
      currency: 'EUR',
      lines: [
        { ...line, quantity: '99999999999', unitPrice: '999999999999' },
        { ...line, quantity: '0' },
      ],
    });
    expect(paths(r)).toEqual(['lines.0.unitPrice', 'lines.1.quantity']);
  });

  it('checks issue dates, credit lines, payments and list filters', () => {
    expect(paths(invoiceIssueSchema.safeParse({ version: 1, issueDate: '2999-01-01' }))).toEqual([
      'issueDate',
    ]);
    expect(invoiceIssueSchema.safeParse({ version: 1 }).success).toBe(true);
    const lineId = customerId;
    expect(
      paths(
        creditNoteCreateSchema.safeParse({
          version: 1,
          lines: [
            { lineId, quantity: '1' },
            { lineId, quantity: '-1' },
          ],
        }),
      ),
    ).toEqual(['lines.1.quantity', 'lines.1.lineId']);
    expect(paths(paymentCreateSchema.safeParse({ paidOn: '2026-02-30', amount: '0' }))).toEqual([
      'paidOn',
      'amount',
    ]);
    expect(salesInvoiceListQuerySchema.parse({ status: 'issued,paid', overdue: 'true' })).toMatchObject({
      status: ['issued', 'paid'],
      overdue: true,
    });
    expect(paths(salesInvoiceListQuerySchema.safeParse({ status: 'open' }))).toEqual(['status.0']);
  });
});
