import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import {
  allowancesChargesInvoice,
  COMPANY,
  SCENARIOS,
  scenarioInvoice,
  scenarioOffer,
} from '../e-invoice/scenario-invoices.ts';
import { printDate, printDecimal, printQuantity, printRate, printUnitPrice } from './format.ts';
import { renderInvoicePdf, vatLabel } from './invoice-pdf.ts';
import { renderOfferPdf } from './offer-pdf.ts';

/** The text of each page, as a PDF reader extracts it (pdf.js), whitespace collapsed. */
async function pdfPages(pdf: Buffer): Promise<string[]> {
  const task = getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, verbosity: 0 });
  const doc = await task.promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    // Runs of one line are joined as they sit: a space only where the page shows a gap between them.
    let text = '';
    let last: { x: number; y: number } | null = null;
    for (const item of content.items) {
      if (!('str' in item)) continue;
      const [x, y] = [item.transform[4] as number, item.transform[5] as number];
      const gap = last === null || Math.abs(y - last.y) > 1 || x - last.x > 0.5;
      text += (gap ? ' ' : '') + item.str;
      last = { x: x + item.width, y };
    }
    pages.push(text.replace(/\s+/g, ' ').trim());
  }
  await task.destroy();
  return pages;
}

const uncompressed = { compress: false };
const invoice = (name: string) => {
  const found = SCENARIOS[name];
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};

describe('print formats', () => {
  it('prints dates as the web does and numbers exactly', () => {
    expect(printDate('2026-11-23')).toBe('23 Nov 2026');
    // An instant is read in the company's zone: 23:30 UTC is already the next day in Amsterdam.
    expect(printDate('2026-01-05T23:30:00.000Z')).toBe('6 Jan 2026');
    expect(printDate('2026-07-05T21:59:00.000Z')).toBe('5 Jul 2026');
    expect(printDate('not a date')).toBe('not a date');
    expect(printDate(null)).toBe('—');
    expect(printDecimal('1234567.005')).toBe('1,234,567.01');
    expect(printDecimal('-0.5')).toBe('-0.50');
    expect(printQuantity('2.000')).toBe('2');
    expect(printQuantity('3.250')).toBe('3.25');
    expect(printQuantity('12000')).toBe('12,000');
    expect(printUnitPrice('1.2500')).toBe('1.25');
    expect(printUnitPrice('0.1235')).toBe('0.1235');
    expect(printRate('21.00')).toBe('21 %');
    expect(printRate('5.50')).toBe('5.5 %');
    expect(printRate(null)).toBe('—');
  });
});

describe('invoice PDF', () => {
  it('carries what art. 226 asks: number, dates, both parties with VAT numbers, lines, VAT summary, totals, payment', async () => {
    const inv = invoice('domestic-s');
    const pdf = await renderInvoicePdf(inv, COMPANY, uncompressed);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // Compression off: the content streams are plain operators, no deflate filter.
    expect(pdf.toString('latin1')).not.toContain('/FlateDecode');
    const [page, ...rest] = await pdfPages(pdf);
    expect(rest).toHaveLength(0);
    for (const text of [
      'Invoice',
      'I-2026-000042',
      'FVG Forwarding B.V.',
      'Waalhaven Zuidzijde 19',
      'NL859437218B01',
      'Maasvlakte Trading B.V.',
      'VAT NL812345678B01',
      'Issue date',
      '23 Nov 2026',
      'Supply date 20 Nov 2026',
      'Due date 23 Dec 2026',
      'Terminal handling ECT Delta',
      'container',
      '185.50',
      'S 21 %',
      'VAT summary',
      'Total incl. VAT',
      'NL91ABNA0417164300',
      'ABNANL2A',
      'FENEX',
      '1 / 1',
    ])
      expect(page, text).toContain(text);
    // The VAT group: taxable 1,251.00 at 21 % = 262.71; total 1,513.71.
    expect(inv.totals.vatGroups).toHaveLength(1);
    expect(page).toContain(`${printDecimal(inv.totals.vatGroups[0]?.taxableAmount ?? '')} 21 % 262.71`);
    expect(page).toContain('1,513.71 EUR');
    expect(page).toContain('quoting I-2026-000042 as payment reference');
    // Staff notes are internal: never on the customer's paper.
    expect(page).not.toContain('Internal');
    expect(page).not.toContain('DRAFT');
  });

  it('prints the reverse-charge wording and the buyer VAT number on an AE invoice', async () => {
    const [page] = await pdfPages(
      await renderInvoicePdf(invoice('reverse-charge-ae'), COMPANY, uncompressed),
    );
    expect(page).toContain('Reverse charge (art. 196 VAT Directive)');
    expect(page).toContain('AE · Reverse charge');
    expect(page).toContain('VAT DE136695976');
    expect(page).toContain('NL859437218B01');
  });

  it('prints each exemption once and a summary row per rate group', async () => {
    const [page] = await pdfPages(await renderInvoicePdf(invoice('mixed-rates'), COMPANY, uncompressed));
    expect(page).toContain('S · Standard rate 655.70 21 % 137.70');
    expect(page).toContain('S · Standard rate 74.85 9 % 6.74');
    expect(page).toContain('E · Exempt 1,875.00 0 % 0.00');
    const exemption = 'Exempt: transport services connected with the export of goods';
    expect(page?.split(exemption)).toHaveLength(2);
    const [imp] = await pdfPages(await renderInvoicePdf(invoice('import-e'), COMPANY, uncompressed));
    expect(imp).toContain('services connected with the import of goods (art. 144');
  });

  it('states the exchange rate and the VAT total in EUR for a USD invoice (art. 230)', async () => {
    const inv = invoice('usd-exchange-rate');
    const [page] = await pdfPages(await renderInvoicePdf(inv, COMPANY, uncompressed));
    expect(page).toContain('Exchange rate: 1 USD = 0.92135 EUR');
    expect(page).toContain(`VAT total in EUR: ${printDecimal(inv.totals.vatTotalBase)} EUR`);
    expect(page).toContain(`${printDecimal(inv.totals.taxInclusiveAmount)} USD`);
  });

  it('names a credit note and the invoice it corrects', async () => {
    const [page] = await pdfPages(
      await renderInvoicePdf(invoice('credit-note-partial'), COMPANY, uncompressed),
    );
    expect(page).toContain('Credit note');
    expect(page).toContain('C-2026-000007');
    expect(page).toContain('corrects invoice I-2026-000042');
    expect(page).toContain('Total credited');
    expect(page).not.toContain('Due date');
  });

  it('prints the date of the invoice a credit note corrects (BT-26; issue 23 item 4)', async () => {
    const [page] = await pdfPages(
      await renderInvoicePdf(invoice('credit-note-partial'), COMPANY, uncompressed),
    );
    expect(page).toContain('Corrects invoice I-2026-000042 of 2 Nov 2026');
    expect(page).toContain('This credit note corrects invoice I-2026-000042 of 2 Nov 2026.');
  });

  it('prints the legal basis of zero-rated, intra-Community and export lines (issue 23 item 4)', async () => {
    const inv = scenarioInvoice({
      number: 'I-2026-000050',
      lines: [
        ['OTHER', 'Machine parts to Düsseldorf', '2', 'C62', '400.00', 'K', '0', 'VATEX-EU-IC'],
        ['OTHER', 'Machine parts to Houston', '1', 'C62', '900.00', 'G', '0', 'VATEX-EU-G'],
        ['OTHER', 'Zero-rated item', '1', 'C62', '10.00', 'Z', '0', null],
      ],
    });
    const [page] = await pdfPages(await renderInvoicePdf(inv, COMPANY, uncompressed));
    expect(page).toContain('K: Exempt: intra-Community supply of goods (art. 138 VAT Directive)');
    expect(page).toContain('G: Exempt: export of goods outside the EU (art. 146 VAT Directive)');
    expect(page).toContain('Z: Zero-rated supply: VAT charged at 0 %');
    expect(page).toContain('K · Intra-Community supply of goods 800.00');
  });

  it('marks a draft with a DRAFT watermark and no number', async () => {
    const draft = scenarioInvoice({
      number: null,
      lines: [['FREIGHT', 'Road transport', '1', 'LS', '100.00', 'S', '21', null]],
    });
    const [page] = await pdfPages(await renderInvoicePdf(draft, COMPANY, uncompressed));
    expect(page).toContain('DRAFT');
    expect(page).toContain('Draft — no number yet');
    expect(page).toContain('not issued');
  });

  it('runs 80 lines over two pages, repeating the table header and numbering the pages', async () => {
    const lines = Array.from(
      { length: 80 },
      (_, i) =>
        ['HANDLING', `Handling of pallet ${i + 1}`, '1', 'C62', '12.50', 'S', '21', null] as Parameters<
          typeof scenarioInvoice
        >[0]['lines'][number],
    );
    const pages = await pdfPages(
      await renderInvoicePdf(scenarioInvoice({ number: 'I-2026-000099', lines }), COMPANY),
    );
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('1 / 2');
    expect(pages[1]).toContain('2 / 2');
    expect(pages[1]).toContain('Description');
    expect(pages[1]).toContain('Handling of pallet 80');
    // 80 × 12.50 = 1,000.00 net, 210.00 VAT.
    expect(pages[1]).toContain('1,210.00 EUR');
  });
});

describe('offer PDF', () => {
  it('shows number, validity, customer and contact, route, Incoterms, cargo, lines and totals per currency', async () => {
    const [page] = await pdfPages(await renderOfferPdf(scenarioOffer(), COMPANY, uncompressed));
    for (const text of [
      'Offer',
      'O-2026-000015',
      'Valid until 15 Dec 2026',
      'Maasvlakte Trading B.V.',
      'Pieter Jansen',
      'Route NLRTM – CNSHA',
      'Sea',
      'FOB Rotterdam',
      '12 pallets · 4,200 kg · 18.5 m³ · Machine parts',
      'Sea freight Rotterdam – Shanghai, 40ft HC',
      'USD 1,650.00 0.00 1,650.00',
      'EUR 275.00 0.00 275.00',
      'FVG Forwarding B.V.',
      '1 / 1',
    ])
      expect(page, text).toContain(text);
    expect(page).not.toContain('margin');
    expect(page).not.toContain('DRAFT');
  });

  it('marks a draft offer', async () => {
    const [page] = await pdfPages(await renderOfferPdf(scenarioOffer('draft'), COMPANY, uncompressed));
    expect(page).toContain('DRAFT');
  });
});

describe('invoice PDF: allowances and charges (ADR 0049)', () => {
  it('prints line allowances and charges under their line and the document ones before the total excl. VAT', async () => {
    const [page] = await pdfPages(await renderInvoicePdf(allowancesChargesInvoice(), COMPANY, uncompressed));
    expect(page).toContain('Less 50.00: Volume discount');
    expect(page).toContain('Plus 25.00: Freight service');
    expect(page).toContain('975.00');
    expect(page).toContain(`Sum of lines ${printDecimal('1055.00')} EUR`);
    expect(page).toContain(`Loyalty discount (${vatLabel('S', '21')}) ${printDecimal('-100.00')} EUR`);
    expect(page).toContain(`Additional packaging (${vatLabel('S', '21')}) ${printDecimal('30.00')} EUR`);
    expect(page).toContain(`Total excl. VAT ${printDecimal('985.00')} EUR`);
    expect(page).toContain(`${printDecimal('1182.25')} EUR`);
  });
});
