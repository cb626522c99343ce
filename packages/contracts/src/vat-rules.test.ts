import { describe, expect, it } from 'vitest';
import { VAT_EXEMPTION_TEXTS } from './sales-values.ts';
import {
  defaultVat,
  EU_STANDARD_VAT_RATES,
  type IssueDocument,
  type IssueLine,
  isEuCountry,
  issueProblems,
  vatForCode,
  vatRatesOn,
} from './vat-rules.ts';

describe('EU standard rates', () => {
  it('has the 27 member states with their 2026 standard rates', () => {
    expect(Object.keys(EU_STANDARD_VAT_RATES).sort()).toEqual(
      'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '),
    );
    expect(EU_STANDARD_VAT_RATES).toMatchObject({
      NL: '21',
      DE: '19',
      BE: '21',
      FR: '20',
      FI: '25.5',
      LU: '17',
      HU: '27',
    });
  });

  it('knows member states by ISO code, Greece also as EL, and nobody else', () => {
    for (const c of ['NL', 'nl', ' de ', 'GR', 'EL']) expect(isEuCountry(c)).toBe(true);
    for (const c of ['GB', 'CH', 'NO', 'US', 'XI', '', 'toString']) expect(isEuCountry(c)).toBe(false);
  });
});

describe('default VAT of a line', () => {
  const nl = { sellerCountry: 'NL', buyerVatNumber: null } as const;
  it('exempts transport connected with export and import, whoever the customer is', () => {
    expect(defaultVat({ ...nl, dossierType: 'export', buyerCountry: 'US' })).toEqual({
      vatCode: 'E',
      vatRate: '0',
      exemptionReason: 'VATEX-EU-146-1E',
    });
    expect(defaultVat({ ...nl, dossierType: 'import', buyerCountry: 'NL' })).toEqual({
      vatCode: 'E',
      vatRate: '0',
      exemptionReason: 'VATEX-EU-144',
    });
  });

  it('reverse-charges a business in another member state, charges a consumer there the home rate', () => {
    expect(
      defaultVat({ ...nl, dossierType: 'transit', buyerCountry: 'DE', buyerVatNumber: 'DE123456789' }),
    ).toEqual({
      vatCode: 'AE',
      vatRate: '0',
      exemptionReason: 'VATEX-EU-AE',
    });
    expect(
      defaultVat({ ...nl, dossierType: null, buyerCountry: 'el', buyerVatNumber: 'EL123456789' }).vatCode,
    ).toBe('AE');
    expect(defaultVat({ ...nl, dossierType: 'transit', buyerCountry: 'DE', buyerVatNumber: '  ' })).toEqual({
      vatCode: 'S',
      vatRate: '21',
      exemptionReason: null,
    });
  });

  it('puts a customer outside the EU outside the scope, and a domestic one at the standard rate', () => {
    expect(
      defaultVat({ ...nl, dossierType: 'crosstrade', buyerCountry: 'GB', buyerVatNumber: 'GB123456789' }),
    ).toEqual({
      vatCode: 'O',
      vatRate: null,
      exemptionReason: 'VATEX-EU-O',
    });
    expect(
      defaultVat({ ...nl, dossierType: 'domestic', buyerCountry: 'NL', buyerVatNumber: 'NL123456789B01' }),
    ).toEqual({
      vatCode: 'S',
      vatRate: '21',
      exemptionReason: null,
    });
    expect(
      defaultVat({ dossierType: 'warehouse', sellerCountry: 'DE', buyerCountry: 'DE', buyerVatNumber: null })
        .vatRate,
    ).toBe('19');
  });

  it('gives a code picked in the editor its rate and reason', () => {
    expect(vatForCode('S', 'FI')).toEqual({ vatCode: 'S', vatRate: '25.5', exemptionReason: null });
    expect(vatForCode('S', 'CH').vatRate).toBeNull();
    expect(vatForCode('E', 'NL')).toEqual({ vatCode: 'E', vatRate: '0', exemptionReason: null });
    expect(vatForCode('O', 'NL')).toEqual({ vatCode: 'O', vatRate: null, exemptionReason: 'VATEX-EU-O' });
  });
});

const SELLER = {
  name: 'Van der Berg Forwarding B.V.',
  street: 'Waalhaven Zuidzijde 21',
  postalCode: '3089 JH',
  city: 'Rotterdam',
  countryCode: 'NL',
  vatNumber: 'NL859437218B01',
  registrationNumber: '24123456',
};
const BUYER = {
  name: 'Müller Maschinenbau GmbH',
  street: 'Industriestraße 4',
  postalCode: '40210',
  city: 'Düsseldorf',
  countryCode: 'DE',
  vatNumber: 'DE136695976',
  registrationNumber: null,
};
const S21: IssueLine = {
  quantity: '1',
  unitPrice: '1250.00',
  vatCode: 'S',
  vatRate: '21',
  exemptionReason: null,
};

function doc(over: Partial<IssueDocument> = {}): IssueDocument {
  return {
    seller: SELLER,
    buyer: BUYER,
    lines: [S21],
    currency: 'EUR',
    baseCurrency: 'EUR',
    exchangeRate: null,
    kind: 'invoice',
    precedingInvoiceNumber: null,
    ...over,
  };
}
const fields = (d: IssueDocument) => issueProblems(d).map((p) => `${p.field} ${p.code}`);

describe('what issuing refuses', () => {
  it('accepts complete invoices: domestic, export, reverse charge, outside the scope, another currency', () => {
    expect(issueProblems(doc())).toEqual([]);
    expect(
      issueProblems(
        doc({
          lines: [
            S21,
            { quantity: '2', unitPrice: '10', vatCode: 'S', vatRate: '9.00', exemptionReason: null },
            {
              quantity: '1',
              unitPrice: '900',
              vatCode: 'E',
              vatRate: '0',
              exemptionReason: 'VATEX-EU-146-1E',
            },
            {
              quantity: '-1',
              unitPrice: '50',
              vatCode: 'E',
              vatRate: '0.00',
              exemptionReason: 'VATEX-EU-146-1E',
            },
          ],
        }),
      ),
    ).toEqual([]);
    expect(
      issueProblems(
        doc({ lines: [{ ...S21, vatCode: 'AE', vatRate: '0', exemptionReason: 'VATEX-EU-AE' }] }),
      ),
    ).toEqual([]);
    expect(
      issueProblems(
        doc({
          buyer: { ...BUYER, countryCode: 'HK', postalCode: null, vatNumber: null },
          lines: [{ ...S21, vatCode: 'O', vatRate: null, exemptionReason: 'VATEX-EU-O' }],
        }),
      ),
    ).toEqual([]);
    expect(issueProblems(doc({ currency: 'USD', exchangeRate: '0.921500' }))).toEqual([]);
    expect(issueProblems(doc({ kind: 'credit_note', precedingInvoiceNumber: 'F-2026-00017' }))).toEqual([]);
  });

  it('refuses reverse charge without the VAT numbers of both parties', () => {
    const ae: IssueLine = { ...S21, vatCode: 'AE', vatRate: '0', exemptionReason: 'VATEX-EU-AE' };
    expect(issueProblems(doc({ buyer: { ...BUYER, vatNumber: ' ' }, lines: [ae] }))).toEqual([
      {
        field: 'buyer.vatNumber',
        message: "Reverse charge needs the customer's VAT number",
        code: 'BR-AE-02',
      },
    ]);
    expect(issueProblems(doc({ seller: { ...SELLER, vatNumber: null }, lines: [ae] }))).toEqual([
      {
        field: 'seller.vatNumber',
        message: "The company's VAT number is missing (company settings)",
        code: 'BR-AE-02',
      },
    ]);
  });

  it('refuses a missing name or address of either party (art. 226(5))', () => {
    const empty = { name: '', street: null, postalCode: ' ', city: null, countryCode: null };
    expect(fields(doc({ seller: { ...SELLER, ...empty }, buyer: { ...BUYER, ...empty } }))).toEqual([
      'seller.name BR-06',
      'seller.street art226-5',
      'seller.postalCode art226-5',
      'seller.city BR-08',
      'seller.countryCode BR-09',
      'buyer.name BR-07',
      'buyer.street art226-5',
      'buyer.postalCode art226-5',
      'buyer.city art226-5',
      'buyer.countryCode BR-11',
    ]);
  });

  it('refuses rates that do not fit the code', () => {
    const lines: IssueLine[] = [
      { ...S21, vatRate: '0' },
      { ...S21, vatRate: null },
      { ...S21, vatCode: 'Z', vatRate: '9' },
      { ...S21, vatCode: 'E', vatRate: null, exemptionReason: 'VATEX-EU-144' },
      { ...S21, vatCode: 'AE', vatRate: '21', exemptionReason: 'VATEX-EU-AE' },
      { ...S21, vatRate: '120' },
      { ...S21, vatRate: 'twenty' },
    ];
    expect(issueProblems(doc({ lines }))).toEqual([
      {
        field: 'lines.0.vatRate',
        message: 'A standard-rated line needs a VAT rate above 0 %',
        code: 'BR-S-05',
      },
      {
        field: 'lines.1.vatRate',
        message: 'A standard-rated line needs a VAT rate above 0 %',
        code: 'BR-S-05',
      },
      { field: 'lines.2.vatRate', message: 'Zero-rated lines have a VAT rate of 0 %', code: 'BR-Z-05' },
      { field: 'lines.3.vatRate', message: 'Exempt lines have a VAT rate of 0 %', code: 'BR-E-05' },
      { field: 'lines.4.vatRate', message: 'Reverse-charge lines have a VAT rate of 0 %', code: 'BR-AE-05' },
      {
        field: 'lines.5.vatRate',
        message: 'Enter the VAT rate as a percentage between 0 and 100',
        code: 'BR-S-05',
      },
      {
        field: 'lines.6.vatRate',
        message: 'Enter the VAT rate as a percentage between 0 and 100',
        code: 'BR-S-05',
      },
    ]);
  });

  it('refuses exemption reasons that are missing, misplaced or mixed', () => {
    const lines: IssueLine[] = [
      { ...S21, vatCode: 'E', vatRate: '0', exemptionReason: null },
      { ...S21, vatCode: 'AE', vatRate: '0', exemptionReason: null },
      { ...S21, exemptionReason: 'VATEX-EU-144' },
      { ...S21, vatCode: 'AE', vatRate: '0', exemptionReason: 'VATEX-EU-146-1E' },
      { ...S21, vatCode: 'E', vatRate: '0', exemptionReason: 'VATEX-EU-146-1E' },
      { ...S21, vatCode: 'E', vatRate: '0.00', exemptionReason: 'VATEX-EU-144' },
    ];
    expect(fields(doc({ lines }))).toEqual([
      'lines.0.exemptionReason BR-E-10',
      'lines.1.exemptionReason BR-AE-10',
      'lines.2.exemptionReason BR-S-10',
      'lines.3.exemptionReason BR-CL-22',
      'lines.5.exemptionReason BR-E-10',
    ]);
    expect(issueProblems(doc({ lines }))[4]?.message).toBe(
      'Exempt lines of one invoice share one exemption reason: issue the others on a separate invoice',
    );
  });

  it('keeps lines outside the scope of VAT on an invoice of their own, with no rate', () => {
    const o: IssueLine = { ...S21, vatCode: 'O', vatRate: null, exemptionReason: 'VATEX-EU-O' };
    expect(fields(doc({ lines: [S21, o, { ...o, vatRate: '0' }] }))).toEqual([
      'lines.1.vatCode BR-O-11',
      'lines.2.vatRate BR-O-05',
      'lines.2.vatCode BR-O-11',
    ]);
    // Its VAT number is not shown (BR-O-02), so the company needs its registration number instead.
    expect(
      issueProblems(doc({ seller: { ...SELLER, vatNumber: null, registrationNumber: '' }, lines: [o] })),
    ).toEqual([
      {
        field: 'seller.registrationNumber',
        message:
          "An invoice outside the scope of VAT needs the company's registration number (company settings)",
        code: 'BR-CO-26',
      },
    ]);
  });

  it('refuses an empty invoice, a negative price, and malformed numbers', () => {
    expect(issueProblems(doc({ lines: [] }))).toEqual([
      { field: 'lines', message: 'An invoice needs at least one line', code: 'BR-16' },
    ]);
    expect(
      fields(
        doc({
          lines: [
            { ...S21, unitPrice: '-5' },
            { ...S21, quantity: '1,5', unitPrice: '' },
          ],
        }),
      ),
    ).toEqual(['lines.0.unitPrice BR-27', 'lines.1.quantity BR-22', 'lines.1.unitPrice BR-26']);
  });

  it('refuses another currency without a usable exchange rate (art. 230)', () => {
    expect(issueProblems(doc({ currency: 'usd', exchangeRate: null }))).toEqual([
      { field: 'exchangeRate', message: 'An invoice in USD needs the exchange rate to EUR', code: 'art230' },
    ]);
    expect(fields(doc({ currency: 'USD', exchangeRate: '0' }))).toEqual(['exchangeRate art230']);
    expect(fields(doc({ currency: 'USD', exchangeRate: '-1.1' }))).toEqual(['exchangeRate art230']);
    expect(fields(doc({ currency: 'US' }))).toEqual(['currency BR-05']);
  });

  it('refuses a credit note that does not name the invoice it corrects', () => {
    expect(issueProblems(doc({ kind: 'credit_note', precedingInvoiceNumber: null }))).toEqual([
      {
        field: 'creditedInvoice',
        message: 'A credit note needs the number of the invoice it corrects',
        code: 'BR-55',
      },
    ]);
  });
});

describe('VAT rules by country (issue 23 item 4)', () => {
  const line = (over: Partial<IssueLine>): IssueLine => ({ ...S21, ...over });
  const K: IssueLine = line({ vatCode: 'K', vatRate: '0', exemptionReason: 'VATEX-EU-IC' });
  const G: IssueLine = line({ vatCode: 'G', vatRate: '0', exemptionReason: 'VATEX-EU-G' });
  const AE: IssueLine = line({ vatCode: 'AE', vatRate: '0', exemptionReason: 'VATEX-EU-AE' });

  it('checks a standard or reduced rate against the seller country’s table on the date of supply', () => {
    expect(vatRatesOn('NL', '2026-11-29')).toEqual({ from: '2019-01-01', standard: '21', reduced: ['9'] });
    expect(vatRatesOn('DE', '2020-09-15')?.standard).toBe('16');
    expect(vatRatesOn('EL')?.standard).toBe('24');
    expect(vatRatesOn('NL', '2010-01-01')).toBeUndefined();
    expect(fields(doc({ lines: [line({ vatRate: '19' })], issueDate: '2026-11-29' }))).toEqual([
      'lines.0.vatRate vat-rate-country',
    ]);
    expect(issueProblems(doc({ lines: [S21, line({ vatRate: '19' })] }))[0]?.message).toBe(
      '19 % is not a VAT rate of the Netherlands on this date: 21 % standard, 9 % reduced',
    );
    expect(fields(doc({ lines: [line({ vatRate: '9.00' }), line({ vatRate: '21' })] }))).toEqual([]);
    // 6 % was the Dutch reduced rate until 2019; the supply date decides, not the issue date.
    expect(fields(doc({ lines: [line({ vatRate: '6' })], issueDate: '2026-01-05' }))).toEqual([
      'lines.0.vatRate vat-rate-country',
    ]);
    expect(
      fields(doc({ lines: [line({ vatRate: '6' })], issueDate: '2019-01-05', supplyDate: '2018-12-20' })),
    ).toEqual([]);
    // A German seller in the second half of 2020 charged 16 %.
    const de = { ...SELLER, countryCode: 'DE', vatNumber: 'DE136695976' };
    const nlBuyer = { ...BUYER, countryCode: 'NL', vatNumber: 'NL004495445B01' };
    expect(
      fields(doc({ seller: de, buyer: nlBuyer, lines: [line({ vatRate: '16' })], issueDate: '2020-08-01' })),
    ).toEqual([]);
    expect(
      fields(doc({ seller: de, buyer: nlBuyer, lines: [line({ vatRate: '16' })], issueDate: '2021-08-01' })),
    ).toEqual(['lines.0.vatRate vat-rate-country']);
  });

  it('judges a credit note by the rates of the invoice it corrects, not of its own date', () => {
    const credit = (ratesDate: string | null) =>
      fields(
        doc({
          kind: 'credit_note',
          precedingInvoiceNumber: 'I-2018-000007',
          lines: [line({ vatRate: '6' })],
          issueDate: '2026-11-29',
          ratesDate,
        }),
      );
    expect(credit('2018-11-02')).toEqual([]);
    expect(credit(null)).toEqual(['lines.0.vatRate vat-rate-country']);
  });

  it('reverse-charges only a buyer VAT-registered in another member state than the seller', () => {
    expect(fields(doc({ lines: [AE] }))).toEqual([]);
    // A Dutch VAT number, even with a German address: domestic, so VAT is charged.
    expect(fields(doc({ buyer: { ...BUYER, vatNumber: 'NL004495445B01' }, lines: [AE] }))).toEqual([
      'buyer.vatNumber art196',
    ]);
    expect(
      fields(doc({ buyer: { ...BUYER, countryCode: 'GB', vatNumber: 'GB123456789' }, lines: [AE] })),
    ).toEqual(['buyer.vatNumber art196']);
    expect(
      defaultVat({
        dossierType: null,
        sellerCountry: 'NL',
        buyerCountry: 'DE',
        buyerVatNumber: 'NL004495445B01',
      }).vatCode,
    ).toBe('S');
  });

  it('refuses a VAT number whose check digits fail, the seller’s own included', () => {
    expect(fields(doc({ buyer: { ...BUYER, vatNumber: 'DE123456789' } }))).toEqual([
      'buyer.vatNumber vat-number',
    ]);
    expect(fields(doc({ seller: { ...SELLER, vatNumber: 'NL859437215B01' } }))).toEqual([
      'seller.vatNumber vat-number',
    ]);
  });

  it('knows K (art. 138) and G (art. 146) with their reasons, and what each needs', () => {
    expect(vatForCode('K', 'NL')).toEqual({ vatCode: 'K', vatRate: '0', exemptionReason: 'VATEX-EU-IC' });
    expect(vatForCode('G', 'NL')).toEqual({ vatCode: 'G', vatRate: '0', exemptionReason: 'VATEX-EU-G' });
    expect(VAT_EXEMPTION_TEXTS['VATEX-EU-IC']).toMatch(/art\. 138/);
    expect(VAT_EXEMPTION_TEXTS['VATEX-EU-G']).toMatch(/art\. 146/);
    expect(fields(doc({ lines: [K], supplyDate: '2026-11-20' }))).toEqual([]);
    expect(fields(doc({ lines: [K] }))).toEqual(['supplyDate BR-IC-11']);
    expect(
      fields(doc({ lines: [K], supplyDate: '2026-11-20', buyer: { ...BUYER, vatNumber: null } })),
    ).toEqual(['buyer.vatNumber BR-IC-02']);
    expect(
      fields(doc({ lines: [K], supplyDate: '2026-11-20', buyer: { ...BUYER, vatNumber: 'NL004495445B01' } })),
    ).toEqual(['buyer.vatNumber art138']);
    expect(fields(doc({ lines: [G], buyer: { ...BUYER, countryCode: 'US', vatNumber: null } }))).toEqual([]);
    expect(fields(doc({ lines: [G], seller: { ...SELLER, vatNumber: null } }))).toEqual([
      'seller.vatNumber BR-G-02',
    ]);
    expect(
      fields(doc({ lines: [line({ vatCode: 'G', vatRate: '21', exemptionReason: 'VATEX-EU-AE' })] })),
    ).toEqual(['lines.0.vatRate BR-G-05', 'lines.0.exemptionReason BR-CL-22']);
  });
});

describe('negative lines (ADR 0029 as amended; issue 23 item 5)', () => {
  it('has no negative lines: quantity above 0 and price not below 0, and the refusal says what to do', async () => {
    const { invoiceLineInputSchema } = await import('./sales-invoices.ts');
    const base = {
      chargeCode: 'OTHER',
      description: 'Volume discount',
      unit: 'LS',
      vatCode: 'S',
      vatRate: '21',
    };
    const paths = (v: Record<string, unknown>) => {
      const r = invoiceLineInputSchema.safeParse({ ...base, ...v });
      return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
    };
    expect(paths({ quantity: '-1', unitPrice: '50' })).toEqual(['quantity']);
    expect(paths({ quantity: '1', unitPrice: '-50' })).toEqual(['unitPrice']);
    expect(paths({ quantity: '1', unitPrice: '50' })).toEqual([]);
    const [problem] = issueProblems(doc({ lines: [{ ...S21, unitPrice: '-50.00' }] }));
    expect(problem).toMatchObject({ field: 'lines.0.unitPrice', code: 'BR-27' });
    // Not "enter a negative quantity": a quantity below 0 is refused as well.
    expect(problem?.message).toBe(
      'A unit price cannot be negative: lower the price of the line it discounts, or credit the issued invoice',
    );
  });
});

describe('document allowances and charges (ADR 0049)', () => {
  it('take a rate of the seller’s country and a VAT group the lines have', () => {
    const ac = (vatCode: 'S' | 'E' | 'O', vatRate: string | null) => ({ vatCode, vatRate });
    expect(fields(doc({ allowanceCharges: [ac('S', '21.00'), ac('S', '9')] }))).toEqual([
      'allowanceCharges.1.vatCode BR-CO-18',
    ]);
    expect(fields(doc({ allowanceCharges: [ac('S', '19')] }))).toEqual([
      'allowanceCharges.0.vatRate vat-rate-country',
    ]);
    expect(fields(doc({ allowanceCharges: [ac('E', '0'), ac('O', null)] }))).toEqual([
      'allowanceCharges.0.vatCode BR-CO-18',
      'allowanceCharges.1.vatCode BR-CO-18',
    ]);
    expect(fields(doc({ allowanceCharges: [ac('S', '21')] }))).toEqual([]);
  });
});
