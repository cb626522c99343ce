import { type Company, SALES_UNIT_LABELS, type SalesOffer } from '@fvg/contracts';
import type { Content } from 'pdfmake/interfaces';
import { printDate, printDecimal, printQuantity, printUnitPrice } from './format.ts';
import { vatLabel } from './invoice-pdf.ts';
import { addressBlock, documentFrame, facts, header, type Letterhead, linesTable } from './layout.ts';
import { type RenderOptions, renderPdf } from './pdf.ts';

const MODE_LABELS: Record<string, string> = {
  sea: 'Sea',
  air: 'Air',
  road: 'Road',
  rail: 'Rail',
  multimodal: 'Multimodal',
};

export function companyLetterhead(company: Company): Letterhead {
  return {
    name: company.legalName,
    street: company.street,
    postalCode: company.postalCode,
    city: company.city,
    countryCode: company.countryCode,
    vatNumber: company.vatNumber,
    registrationNumber: company.registrationNumber,
    email: company.email,
    iban: company.iban,
    bic: company.bic,
    footer: company.invoiceFooter,
  };
}

/** The cargo in one line: '12 pallets · 4,200 kg · 18.5 m³ · machine parts'. */
function cargoLine(offer: SalesOffer): string | null {
  const parts = [
    offer.packages ? `${offer.packages}${offer.packageType ? ` ${offer.packageType}` : ' packages'}` : null,
    offer.grossWeightKg ? `${printQuantity(offer.grossWeightKg)} kg` : null,
    offer.volumeM3 ? `${printQuantity(offer.volumeM3)} m³` : null,
    offer.cargoDescription,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

export async function renderOfferPdf(
  offer: SalesOffer,
  company: Company,
  options: RenderOptions = {},
): Promise<Buffer> {
  const letterhead = companyLetterhead(company);
  const route =
    offer.originLocode || offer.destinationLocode
      ? `${offer.originLocode ?? '—'} – ${offer.destinationLocode ?? '—'}`
      : null;
  const incoterms = offer.incoterm ? [offer.incoterm, offer.incotermPlace].filter(Boolean).join(' ') : null;

  const content: Content[] = [
    header(letterhead, 'Offer', offer.number, `Valid until ${printDate(offer.validUntil)}`),
    {
      columns: [
        {
          width: '*',
          stack: [addressBlock('Offer to', [offer.customer.name, offer.contactName, offer.contactEmail])],
        },
        {
          width: 220,
          stack: [
            facts([
              ['Date', printDate(offer.sentAt ?? offer.createdAt)],
              ['Valid until', printDate(offer.validUntil)],
              ['Route', route],
              ['Mode', offer.mode ? (MODE_LABELS[offer.mode] ?? offer.mode) : null],
              ['Incoterms', incoterms],
              ['Cargo', cargoLine(offer)],
            ]),
          ],
        },
      ],
      columnGap: 20,
      margin: [0, 0, 0, 16],
    },
    linesTable(
      [
        { header: '#', width: 16 },
        { header: 'Description', width: '*' },
        { header: 'Quantity', width: 48, align: 'right' },
        { header: 'Unit', width: 48 },
        { header: 'Unit price', width: 60, align: 'right' },
        { header: 'Currency', width: 40 },
        { header: 'VAT', width: 42 },
        { header: 'Net', width: 62, align: 'right' },
      ],
      offer.lines.map((l, i) => [
        String(i + 1),
        l.description,
        printQuantity(l.quantity),
        SALES_UNIT_LABELS[l.unit] ?? l.unit,
        printUnitPrice(l.unitPrice),
        l.currency,
        vatLabel(l.vatCode, l.vatRate),
        printDecimal(l.lineNet),
      ]),
    ),
    {
      columns: [
        { width: '*', text: '' },
        {
          width: 300,
          stack: [
            { text: 'Totals', style: 'sectionTitle' },
            linesTable(
              [
                { header: 'Currency', width: '*' },
                { header: 'Net', width: 70, align: 'right' },
                { header: 'VAT', width: 60, align: 'right' },
                { header: 'Total', width: 76, align: 'right' },
              ],
              offer.totals.map((t) => [
                t.currency,
                printDecimal(t.net),
                printDecimal(t.vat),
                printDecimal(t.gross),
              ]),
            ),
          ],
        },
      ],
      unbreakable: true,
    },
    {
      text: `This offer is valid until ${printDate(offer.validUntil)}. Prices are net of VAT unless stated; VAT is charged as shown per line. Quote ${offer.number} when you accept.`,
      style: 'small',
      margin: [0, 16, 0, 0],
    },
  ];

  return renderPdf(
    documentFrame({
      company: letterhead,
      title: `Offer ${offer.number}`,
      content,
      draft: offer.status === 'draft',
    }),
    options,
  );
}
