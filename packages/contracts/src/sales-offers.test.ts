import { describe, expect, it } from 'vitest';
import {
  offerSendProblems,
  offerToday,
  offerTotals,
  salesOfferCreateSchema,
  salesOfferUpdateSchema,
} from './sales-offers.ts';

const line = {
  chargeCode: 'FREIGHT',
  description: 'Ocean freight Rotterdam–Shanghai',
  quantity: '2',
  unit: 'XCN',
  unitPrice: '1250.50',
  currency: 'EUR',
  vatCode: 'S',
  vatRate: '21',
};
const offer = {
  customerId: '00000000-0000-4000-8000-000000000001',
  validUntil: '2099-12-31',
  mode: 'sea',
  lines: [line],
};
const fields = (input: unknown) => {
  const r = salesOfferCreateSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('sales offer input', () => {
  it('accepts a plain offer, defaults the dossier type and the EUR rate', () => {
    const r = salesOfferCreateSchema.parse(offer);
    expect(r.dossierType).toBe('export');
    expect(r.lines[0]).toMatchObject({ exchangeRate: '1', vatRate: '21' });
  });

  it('names the failing line field by path', () => {
    const lines = [line, line, { ...line, unitPrice: '-1', quantity: '0', unit: 'BOX', chargeCode: 'X' }];
    expect(fields({ ...offer, lines })).toEqual([
      'lines.2.chargeCode: Choose one of FREIGHT, FUEL, THC, ORIGIN, DESTINATION, CUSTOMS, SECURITY, HANDLING, STORAGE, INSURANCE, DOCUMENTATION, CANCELLATION, OTHER',
      'lines.2.quantity: Must be more than 0',
      'lines.2.unit: Choose one of C62, LS, XCN, KGM, TNE, MTQ, DAY, HUR, KMT',
      'lines.2.unitPrice: Must be at least 0',
    ]);
    expect(fields({ ...offer, lines: [{ ...line, quantity: '1.2345', unitPrice: '1.23456' }] })).toEqual([
      'lines.0.quantity: Enter a number with at most 3 decimals and at most 11 digits before the point',
      'lines.0.unitPrice: Enter a number with at most 4 decimals and at most 12 digits before the point',
    ]);
  });

  it('wants an exchange rate for another currency, and 1 for EUR', () => {
    expect(fields({ ...offer, lines: [{ ...line, currency: 'USD' }] })).toEqual([
      'lines.0.exchangeRate: Enter the exchange rate: EUR per 1 USD',
    ]);
    expect(fields({ ...offer, lines: [{ ...line, exchangeRate: '1.1' }] })).toEqual([
      'lines.0.exchangeRate: A EUR line has exchange rate 1',
    ]);
    expect(fields({ ...offer, lines: [{ ...line, currency: 'usd', exchangeRate: '0.92' }] })).toEqual([]);
    expect(fields({ ...offer, lines: [{ ...line, currency: 'EURO' }] })).toEqual([
      'lines.0.currency: Enter an ISO 4217 currency, e.g. EUR',
    ]);
  });

  it('checks the VAT rate against the code', () => {
    expect(fields({ ...offer, lines: [{ ...line, vatCode: 'O' }] })).toEqual([
      'lines.0.vatRate: Outside the scope of VAT has no rate',
    ]);
    expect(
      salesOfferCreateSchema.parse({ ...offer, lines: [{ ...line, vatCode: 'O', vatRate: null }] }).lines[0]
        ?.vatRate,
    ).toBeNull();
    expect(fields({ ...offer, lines: [{ ...line, vatRate: null }] })).toEqual([
      'lines.0.vatRate: Enter the VAT rate',
    ]);
    expect(fields({ ...offer, lines: [{ ...line, vatCode: 'AE', vatRate: '21' }] })).toEqual([
      'lines.0.vatRate: VAT code AE has rate 0 %',
    ]);
    expect(fields({ ...offer, lines: [{ ...line, vatCode: 'X' }] })).toEqual([
      'lines.0.vatCode: Choose one of S, Z, E, AE, K, G, O',
    ]);
  });

  it('refuses a line net the currency cannot carry', () => {
    expect(
      fields({
        ...offer,
        lines: [{ ...line, currency: 'JPY', exchangeRate: '0.0061', unitPrice: '100.5', quantity: '1' }],
      }),
    ).toEqual(['lines.0.unitPrice: JPY amounts have no decimals: quantity × unit price is 100.50']);
  });

  it('refuses a valid-until in the past and an Incoterm that does not fit the mode', () => {
    expect(fields({ ...offer, validUntil: '2020-01-01' })).toEqual([
      'validUntil: Valid until cannot be in the past',
    ]);
    expect(fields({ ...offer, incoterm: 'FOB', mode: 'air' }).length).toBe(1);
    expect(salesOfferUpdateSchema.safeParse({ version: 1, validUntil: '2020-01-01' }).success).toBe(false);
    expect(salesOfferUpdateSchema.parse({ version: 1, notes: 'x' })).toEqual({ version: 1, notes: 'x' });
  });

  it('takes "today" as the earliest date on Earth (UTC−12)', () => {
    expect(offerToday(new Date('2026-03-03T11:59:00Z'))).toBe('2026-03-02');
    expect(offerToday(new Date('2026-03-03T12:00:00Z'))).toBe('2026-03-03');
  });

  it('says what sending still needs', () => {
    expect(
      offerSendProblems(
        { lines: [], contactEmail: null, validUntil: '2026-03-01' },
        new Date('2026-03-03T12:00:00Z'),
      ).map((p) => p.field),
    ).toEqual(['lines', 'contactEmail', 'validUntil']);
  });
});

describe('offer totals', () => {
  it('sums per currency with VAT per rate group, exactly', () => {
    expect(
      offerTotals([
        { quantity: '3', unitPrice: '0.335', currency: 'EUR', vatCode: 'S', vatRate: '21' },
        { quantity: '3', unitPrice: '0.335', currency: 'EUR', vatCode: 'S', vatRate: '21' },
        { quantity: '1', unitPrice: '100', currency: 'USD', vatCode: 'O', vatRate: null },
        { quantity: '1', unitPrice: '10', currency: 'EUR', vatCode: 'S', vatRate: '9' },
      ]),
    ).toEqual([
      // 1.01 + 1.01 = 2.02 at 21 % → 0.42; 10 at 9 % → 0.90.
      { currency: 'EUR', net: '12.02', vat: '1.32', gross: '13.34' },
      { currency: 'USD', net: '100.00', vat: '0.00', gross: '100.00' },
    ]);
  });
});
