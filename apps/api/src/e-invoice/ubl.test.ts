import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SALES_UNITS } from '@fvg/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { convert } from 'xmlbuilder2';
import { allowancesChargesInvoice, COMPANY, SCENARIOS, scenarioInvoice } from './scenario-invoices.ts';
import { CUSTOMIZATION_ID, endpointOf, invoiceUbl, PROFILE_ID } from './ubl.ts';

/*
 * Each scenario's UBL is written to test-results/ubl/ (repo root), where `.ci/run` runs the official
 * Peppol validator over it; here the key values are read back through an XML parser.
 */
const OUT = path.resolve(fileURLToPath(new URL('../../../../', import.meta.url)), 'test-results/ubl');

type X = Record<string, unknown>;
const xml: Record<string, string> = {};

function parse(text: string): X {
  return convert(text, { format: 'object' }) as X;
}
/** A child (or the first of repeated children). */
function at(node: unknown, ...names: string[]): X {
  let cur = node as X | X[];
  for (const n of names) {
    const here: X = Array.isArray(cur) ? (cur[0] as X) : cur;
    cur = here?.[n] as X | X[];
    if (cur === undefined) throw new Error(`no ${names.join('/')} (stopped at ${n})`);
  }
  return cur as X;
}
function all(node: unknown, name: string): X[] {
  const v = (node as X)[name];
  return v === undefined ? [] : Array.isArray(v) ? (v as X[]) : [v as X];
}
/** The text of an element whether it has attributes ({ '@a': …, '#': text }) or not. */
function text(node: unknown): string {
  if (typeof node === 'string') return node;
  return String((node as X)['#']);
}
function has(node: unknown, name: string): boolean {
  return (node as X)[name] !== undefined;
}

const scenario = (name: string) => {
  const found = SCENARIOS[name];
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};

beforeAll(async () => {
  await mkdir(OUT, { recursive: true });
  for (const [name, invoice] of Object.entries(SCENARIOS)) {
    xml[name] = invoiceUbl(invoice, COMPANY);
    await writeFile(path.join(OUT, `print-${name}.xml`), xml[name]);
  }
});

describe('UBL of the seven scenarios', () => {
  it('writes all seven files for the conformance stage', () => {
    expect(Object.keys(xml).sort()).toEqual([
      'credit-note-partial',
      'domestic-s',
      'export-e',
      'import-e',
      'mixed-rates',
      'reverse-charge-ae',
      'usd-exchange-rate',
    ]);
  });

  it('domestic S: Peppol ids, parties with endpoints, SEPA payment, one S 21 group, totals', () => {
    const inv = at(parse(xml['domestic-s'] ?? ''), 'Invoice');
    expect(text(inv['cbc:CustomizationID'])).toBe(CUSTOMIZATION_ID);
    expect(text(inv['cbc:ProfileID'])).toBe(PROFILE_ID);
    expect(text(inv['cbc:ID'])).toBe('I-2026-000042');
    expect(text(inv['cbc:InvoiceTypeCode'])).toBe('380');
    expect(text(inv['cbc:IssueDate'])).toBe('2026-11-23');
    expect(text(inv['cbc:DueDate'])).toBe('2026-12-23');
    expect(text(inv['cbc:DocumentCurrencyCode'])).toBe('EUR');
    expect(has(inv, 'cbc:TaxCurrencyCode')).toBe(false);
    expect(text(inv['cbc:BuyerReference'])).toBe('PO-88123');

    const seller = at(inv, 'cac:AccountingSupplierParty', 'cac:Party');
    expect(at(seller, 'cbc:EndpointID')).toEqual({ '@schemeID': '0106', '#': '24481234' });
    expect(text(at(seller, 'cac:PartyTaxScheme', 'cbc:CompanyID'))).toBe('NL859437218B01');
    expect(at(seller, 'cac:PartyLegalEntity', 'cbc:CompanyID')).toEqual({
      '@schemeID': '0106',
      '#': '24481234',
    });
    expect(text(at(seller, 'cac:PostalAddress', 'cbc:PostalZone'))).toBe('3089 JH');
    const buyer = at(inv, 'cac:AccountingCustomerParty', 'cac:Party');
    expect(at(buyer, 'cbc:EndpointID')).toEqual({ '@schemeID': '9944', '#': 'NL812345678B01' });
    expect(text(at(buyer, 'cac:PartyLegalEntity', 'cbc:RegistrationName'))).toBe('Maasvlakte Trading B.V.');

    const means = at(inv, 'cac:PaymentMeans');
    expect(text(at(means, 'cbc:PaymentMeansCode'))).toBe('58');
    expect(text(at(means, 'cbc:PaymentID'))).toBe('I-2026-000042');
    expect(text(at(means, 'cac:PayeeFinancialAccount', 'cbc:ID'))).toBe('NL91ABNA0417164300');
    expect(text(at(inv, 'cac:Delivery', 'cbc:ActualDeliveryDate'))).toBe('2026-11-20');

    const taxTotals = all(inv, 'cac:TaxTotal');
    expect(taxTotals).toHaveLength(1);
    expect(at(taxTotals[0], 'cbc:TaxAmount')).toEqual({ '@currencyID': 'EUR', '#': '262.71' });
    const subs = all(taxTotals[0], 'cac:TaxSubtotal');
    expect(subs).toHaveLength(1);
    expect(text(at(subs[0], 'cbc:TaxableAmount'))).toBe('1251.00');
    expect(text(at(subs[0], 'cac:TaxCategory', 'cbc:ID'))).toBe('S');
    expect(text(at(subs[0], 'cac:TaxCategory', 'cbc:Percent'))).toBe('21');
    expect(has(at(subs[0], 'cac:TaxCategory'), 'cbc:TaxExemptionReasonCode')).toBe(false);

    const money = at(inv, 'cac:LegalMonetaryTotal');
    expect(text(money['cbc:LineExtensionAmount'])).toBe('1251.00');
    expect(text(money['cbc:TaxExclusiveAmount'])).toBe('1251.00');
    expect(text(money['cbc:TaxInclusiveAmount'])).toBe('1513.71');
    expect(text(money['cbc:PayableAmount'])).toBe('1513.71');
    expect(has(money, 'cbc:PrepaidAmount')).toBe(false);

    const lines = all(inv, 'cac:InvoiceLine');
    expect(lines).toHaveLength(3);
    expect(at(lines[1], 'cbc:InvoicedQuantity')).toEqual({ '@unitCode': 'XCN', '#': '2' });
    expect(text(at(lines[1], 'cbc:LineExtensionAmount'))).toBe('371.00');
    expect(text(at(lines[1], 'cac:Item', 'cbc:Name'))).toBe('Terminal handling ECT Delta');
    expect(text(at(lines[1], 'cac:Item', 'cac:ClassifiedTaxCategory', 'cbc:Percent'))).toBe('21');
    expect(text(at(lines[1], 'cac:Price', 'cbc:PriceAmount'))).toBe('185.5');
  });

  it.each([
    ['export-e', 'E', 'VATEX-EU-146-1E', 'export of goods'],
    ['import-e', 'E', 'VATEX-EU-144', 'import of goods'],
    ['reverse-charge-ae', 'AE', 'VATEX-EU-AE', 'Reverse charge'],
  ])('%s: category %s at 0 %% with %s and its wording', (name, code, reason, wording) => {
    const inv = at(parse(xml[name] ?? ''), 'Invoice');
    const subs = all(at(inv, 'cac:TaxTotal'), 'cac:TaxSubtotal');
    expect(subs).toHaveLength(1);
    const cat = at(subs[0], 'cac:TaxCategory');
    expect(text(cat['cbc:ID'])).toBe(code);
    expect(text(cat['cbc:Percent'])).toBe('0');
    expect(text(cat['cbc:TaxExemptionReasonCode'])).toBe(reason);
    expect(text(cat['cbc:TaxExemptionReason'])).toContain(wording);
    expect(text(at(inv, 'cac:TaxTotal', 'cbc:TaxAmount'))).toBe('0.00');
    for (const line of all(inv, 'cac:InvoiceLine'))
      expect(text(at(line, 'cac:Item', 'cac:ClassifiedTaxCategory', 'cbc:ID'))).toBe(code);
  });

  it('reverse charge carries both VAT numbers and the German buyer under scheme 9930', () => {
    const inv = at(parse(xml['reverse-charge-ae'] ?? ''), 'Invoice');
    const buyer = at(inv, 'cac:AccountingCustomerParty', 'cac:Party');
    expect(at(buyer, 'cbc:EndpointID')).toEqual({ '@schemeID': '9930', '#': 'DE136695976' });
    expect(text(at(buyer, 'cac:PartyTaxScheme', 'cbc:CompanyID'))).toBe('DE136695976');
    const seller = at(inv, 'cac:AccountingSupplierParty', 'cac:Party');
    expect(text(at(seller, 'cac:PartyTaxScheme', 'cbc:CompanyID'))).toBe('NL859437218B01');
    // No order or buyer reference given: the dossier number stands in (Peppol R003).
    expect(text(inv['cbc:BuyerReference'])).toBe('D-2026-000118');
  });

  it('mixed rates: one subtotal per group in the order S 21, S 9, E', () => {
    const inv = at(parse(xml['mixed-rates'] ?? ''), 'Invoice');
    const subs = all(at(inv, 'cac:TaxTotal'), 'cac:TaxSubtotal').map((s) => [
      text(at(s, 'cac:TaxCategory', 'cbc:ID')),
      text(at(s, 'cac:TaxCategory', 'cbc:Percent')),
      text(s['cbc:TaxableAmount']),
      text(s['cbc:TaxAmount']),
    ]);
    expect(subs).toEqual([
      ['S', '21', '655.70', '137.70'],
      ['S', '9', '74.85', '6.74'],
      ['E', '0', '1875.00', '0.00'],
    ]);
    expect(text(at(inv, 'cac:TaxTotal', 'cbc:TaxAmount'))).toBe('144.44');
    expect(text(at(inv, 'cac:LegalMonetaryTotal', 'cbc:PayableAmount'))).toBe('2749.99');
  });

  it('USD: amounts in USD, TaxCurrencyCode EUR and a second TaxTotal with the VAT in EUR', () => {
    const source = scenario('usd-exchange-rate');
    const inv = at(parse(xml['usd-exchange-rate'] ?? ''), 'Invoice');
    expect(text(inv['cbc:DocumentCurrencyCode'])).toBe('USD');
    expect(text(inv['cbc:TaxCurrencyCode'])).toBe('EUR');
    expect(text(inv['cbc:Note'])).toBe('Exchange rate: 1 USD = 0.92135 EUR');
    const totals = all(inv, 'cac:TaxTotal');
    expect(totals).toHaveLength(2);
    expect(at(totals[0], 'cbc:TaxAmount')).toEqual({ '@currencyID': 'USD', '#': source.totals.vatTotal });
    expect(at(totals[1], 'cbc:TaxAmount')).toEqual({ '@currencyID': 'EUR', '#': source.totals.vatTotalBase });
    expect(has(totals[1], 'cac:TaxSubtotal')).toBe(false);
    // 420 kg × 3.85 = 1,617.00 + 145.00 = 1,762.00; VAT 370.02; in EUR 370.02 × 0.92135 = 340.92.
    expect(source.totals.vatTotal).toBe('370.02');
    expect(source.totals.vatTotalBase).toBe('340.92');
  });

  it('partial credit note: CreditNote 381 referencing the invoice, credited quantity, no payment means', () => {
    const cn = at(parse(xml['credit-note-partial'] ?? ''), 'CreditNote');
    expect(text(cn['cbc:CreditNoteTypeCode'])).toBe('381');
    expect(text(cn['cbc:ID'])).toBe('C-2026-000007');
    expect(has(cn, 'cbc:DueDate')).toBe(false);
    expect(text(at(cn, 'cac:BillingReference', 'cac:InvoiceDocumentReference', 'cbc:ID'))).toBe(
      'I-2026-000042',
    );
    expect(text(at(cn, 'cac:BillingReference', 'cac:InvoiceDocumentReference', 'cbc:IssueDate'))).toBe(
      '2026-11-02',
    );
    expect(has(cn, 'cac:PaymentMeans')).toBe(false);
    const lines = all(cn, 'cac:CreditNoteLine');
    expect(lines).toHaveLength(1);
    expect(at(lines[0], 'cbc:CreditedQuantity')).toEqual({ '@unitCode': 'XCN', '#': '1' });
    expect(text(at(cn, 'cac:LegalMonetaryTotal', 'cbc:PayableAmount'))).toBe('224.46');
  });
});

/** Written next to the scenarios, so the Peppol stage validates these cases too. */
async function written(name: string, ubl: string): Promise<string> {
  await writeFile(path.join(OUT, `print-${name}.xml`), ubl);
  return ubl;
}

describe('UBL rules the scenarios do not reach', () => {
  it('writes a prepaid amount when the payable amount is below the total (BR-CO-16)', async () => {
    const inv = scenarioInvoice({
      number: 'I-2026-000050',
      lines: [['FREIGHT', 'Road transport', '1', 'LS', '100.00', 'S', '21', null]],
    });
    inv.totals.payableAmount = '21.00';
    const money = at(
      parse(await written('prepaid', invoiceUbl(inv, COMPANY))),
      'Invoice',
      'cac:LegalMonetaryTotal',
    );
    expect(text(money['cbc:PrepaidAmount'])).toBe('100.00');
    expect(text(money['cbc:PayableAmount'])).toBe('21.00');
  });

  it('writes a discount line with a positive price and the sign on the quantity (BR-27)', async () => {
    const inv = scenarioInvoice({
      number: 'I-2026-000053',
      lines: [
        ['FREIGHT', 'Road transport', '1', 'LS', '500.00', 'S', '21', null],
        ['OTHER', 'Volume discount', '1', 'LS', '-50.00', 'S', '21', null],
      ],
    });
    const lines = all(
      at(parse(await written('discount-line', invoiceUbl(inv, COMPANY))), 'Invoice'),
      'cac:InvoiceLine',
    );
    expect(at(lines[1], 'cbc:InvoicedQuantity')).toEqual({ '@unitCode': 'LS', '#': '-1' });
    expect(text(at(lines[1], 'cac:Price', 'cbc:PriceAmount'))).toBe('50');
    expect(text(at(lines[1], 'cbc:LineExtensionAmount'))).toBe('-50.00');
  });

  it('writes every unit of SALES_UNITS as its UN/ECE code (BR-CL-23 checks them in the stage)', async () => {
    const inv = scenarioInvoice({
      number: 'I-2026-000054',
      lines: SALES_UNITS.map((unit) => ['OTHER', `One ${unit}`, '2', unit, '10.00', 'S', '21', null]),
    });
    const lines = all(
      at(parse(await written('every-unit', invoiceUbl(inv, COMPANY))), 'Invoice'),
      'cac:InvoiceLine',
    );
    expect(lines.map((l) => (at(l, 'cbc:InvoicedQuantity') as X)['@unitCode'])).toEqual([...SALES_UNITS]);
  });

  it('category O: no rate and neither VAT number (BR-O-02, BR-O-05)', async () => {
    const inv = scenarioInvoice({
      number: 'I-2026-000051',
      lines: [
        ['FREIGHT', 'Transport within the United States', '1', 'LS', '900.00', 'O', null, 'VATEX-EU-O'],
      ],
    });
    const doc = at(parse(await written('outside-scope-o', invoiceUbl(inv, COMPANY))), 'Invoice');
    const cat = at(doc, 'cac:TaxTotal', 'cac:TaxSubtotal', 'cac:TaxCategory');
    expect(text(cat['cbc:ID'])).toBe('O');
    expect(has(cat, 'cbc:Percent')).toBe(false);
    expect(text(cat['cbc:TaxExemptionReason'])).toBe('Not subject to VAT');
    expect(has(at(doc, 'cac:AccountingSupplierParty', 'cac:Party'), 'cac:PartyTaxScheme')).toBe(false);
    expect(has(at(doc, 'cac:AccountingCustomerParty', 'cac:Party'), 'cac:PartyTaxScheme')).toBe(false);
  });

  it('escapes text and never writes empty elements', () => {
    const inv = scenarioInvoice({
      number: 'I-2026-000052',
      buyerReference: 'A&B <1>',
      lines: [['OTHER', 'Crates "fragile" & <heavy>', '1', 'C62', '10.00', 'S', '21', null]],
    });
    inv.buyer = { ...inv.buyer, street: '', email: null };
    const out = invoiceUbl(inv, COMPANY);
    expect(out).toContain('A&amp;B &lt;1&gt;');
    expect(out).not.toMatch(/<cbc:StreetName\s*\/>|<cbc:StreetName><\/cbc:StreetName>/);
    expect(out).toContain('<cbc:Name>Crates "fragile" &amp; &lt;heavy&gt;</cbc:Name>');
  });

  it('finds the electronic address from the Peppol id, else the VAT number, else none', () => {
    const base = { ...scenario('domestic-s').buyer };
    expect(endpointOf({ ...base, peppolScheme: '0088', peppolId: '5790000435968' })).toEqual({
      scheme: '0088',
      id: '5790000435968',
    });
    expect(endpointOf({ ...base, vatNumber: 'fr 40 303265045' })).toEqual({
      scheme: '9957',
      id: 'FR40303265045',
    });
    expect(endpointOf({ ...base, vatNumber: 'BE0411905847' })).toEqual({
      scheme: '9925',
      id: 'BE0411905847',
    });
    expect(endpointOf({ ...base, vatNumber: null })).toBeNull();
    expect(endpointOf({ ...base, vatNumber: 'SE556036079301' })).toBeNull();
  });

  it('refuses a draft: an e-invoice needs the number and issue date', () => {
    const draft = scenarioInvoice({
      number: null,
      lines: [['OTHER', 'x', '1', 'C62', '1.00', 'S', '21', null]],
    });
    expect(() => invoiceUbl(draft, COMPANY)).toThrow(/issued/);
  });
});

describe('allowances and charges (EN 16931 BG-20, BG-21, BG-27, BG-28)', () => {
  it('writes document and line allowances and charges, with totals that add up (BR-CO-10..13, BR-CO-18)', async () => {
    const inv = allowancesChargesInvoice();

    const doc = at(parse(await written('allowances-charges', invoiceUbl(inv, COMPANY))), 'Invoice');
    const acs = all(doc, 'cac:AllowanceCharge');
    expect(acs.map((ac) => text(at(ac, 'cbc:ChargeIndicator')))).toEqual(['false', 'true']);
    expect(acs.map((ac) => text(at(ac, 'cbc:AllowanceChargeReasonCode')))).toEqual(['95', 'ABL']);
    expect(acs.map((ac) => text(at(ac, 'cbc:Amount')))).toEqual(['100.00', '30.00']);
    expect(text(at(acs[0], 'cac:TaxCategory', 'cbc:ID'))).toBe('S');
    expect(text(at(acs[0], 'cac:TaxCategory', 'cbc:Percent'))).toBe('21');

    const lines = all(doc, 'cac:InvoiceLine');
    expect(text(at(lines[0], 'cbc:LineExtensionAmount'))).toBe('975.00');
    const lineAcs = all(lines[0], 'cac:AllowanceCharge');
    expect(lineAcs.map((ac) => text(at(ac, 'cbc:Amount')))).toEqual(['50.00', '25.00']);
    expect(has(lineAcs[0], 'cac:TaxCategory')).toBe(false);

    const subtotals = all(at(doc, 'cac:TaxTotal'), 'cac:TaxSubtotal');
    expect(subtotals.map((s) => text(at(s, 'cbc:TaxableAmount')))).toEqual(['905.00', '80.00']);
    expect(subtotals.map((s) => text(at(s, 'cbc:TaxAmount')))).toEqual(['190.05', '7.20']);
    const money = at(doc, 'cac:LegalMonetaryTotal');
    expect(text(money['cbc:LineExtensionAmount'])).toBe('1055.00');
    expect(text(money['cbc:AllowanceTotalAmount'])).toBe('100.00');
    expect(text(money['cbc:ChargeTotalAmount'])).toBe('30.00');
    expect(text(money['cbc:TaxExclusiveAmount'])).toBe('985.00');
    expect(text(money['cbc:TaxInclusiveAmount'])).toBe('1182.25');
    expect(text(money['cbc:PayableAmount'])).toBe('1182.25');
  });
});
