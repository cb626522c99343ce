import {
  allowanceChargeLabel,
  type Company,
  type InvoiceSeller,
  SALES_UNIT_LABELS,
  type SalesInvoice,
  type SalesInvoiceWithAllowances,
  VAT_CODE_LABELS,
  VAT_EXEMPTION_TEXTS,
} from '@fvg/contracts';
import type { Content } from 'pdfmake/interfaces';
import { printDate, printDecimal, printMoney, printQuantity, printRate, printUnitPrice } from './format.ts';
import {
  addressBlock,
  addressLines,
  documentFrame,
  facts,
  header,
  type Letterhead,
  linesTable,
  totalsBox,
} from './layout.ts';
import { type RenderOptions, renderPdf } from './pdf.ts';

/** The seller as printed: the invoice's snapshot, with the company's bank and footer where it has none. */
function letterheadOf(seller: InvoiceSeller, company: Company): Letterhead {
  return {
    name: seller.name,
    street: seller.street,
    postalCode: seller.postalCode,
    city: seller.city,
    countryCode: seller.countryCode,
    vatNumber: seller.vatNumber,
    registrationNumber: seller.registrationNumber,
    email: seller.email,
    iban: seller.iban ?? company.iban,
    bic: seller.bic ?? company.bic,
    footer: seller.footer ?? company.invoiceFooter,
  };
}

/** 'S 21 %', 'E', 'AE': the code a line's VAT column and the summary show. */
export function vatLabel(code: string, rate: string | null): string {
  return code === 'S' || code === 'Z' ? `${code} ${printRate(rate)}` : code;
}

/**
 * The legal basis of every group without VAT (art. 226(11); BT-120), once per reason, named by the
 * code the lines' VAT column shows: exempt, reverse-charged, intra-Community, export, out of scope,
 * and zero-rated lines (which carry no VATEX reason, BR-Z-10, but still say why they carry no VAT).
 */
export function exemptionTexts(invoice: SalesInvoice): string[] {
  const texts = new Map<string, string>();
  for (const g of invoice.totals.vatGroups) {
    if (g.exemptionReason)
      texts.set(g.exemptionReason, `${g.vatCode}: ${VAT_EXEMPTION_TEXTS[g.exemptionReason]}`);
    else if (g.vatCode === 'Z') texts.set('Z', 'Z: Zero-rated supply: VAT charged at 0 %');
  }
  return [...texts.values()];
}

/** "invoice I-2026-000042 of 2 Nov 2026": the invoice a credit note corrects, by number and date (BT-25, BT-26). */
function correctedInvoice(invoice: SalesInvoice): string | undefined {
  const ref = invoice.creditedInvoice;
  if (invoice.kind !== 'credit_note' || !ref?.number) return undefined;
  return `invoice ${ref.number}${ref.issueDate ? ` of ${printDate(ref.issueDate)}` : ''}`;
}

/** "Invoice I-2026-000042" / "Credit note C-2026-000007" / "Draft invoice": the document's name. */
export function invoiceTitle(invoice: SalesInvoice): string {
  const kind = invoice.kind === 'credit_note' ? 'Credit note' : 'Invoice';
  return invoice.number ? `${kind} ${invoice.number}` : `Draft ${kind.toLowerCase()}`;
}

export async function renderInvoicePdf(
  invoice: SalesInvoiceWithAllowances,
  company: Company,
  options: RenderOptions = {},
): Promise<Buffer> {
  const seller = letterheadOf(invoice.seller, company);
  const buyer = invoice.buyer;
  const cur = invoice.currency;
  const isCredit = invoice.kind === 'credit_note';
  const t = invoice.totals;
  const base = company.baseCurrency;

  const content: Content[] = [
    header(
      seller,
      isCredit ? 'Credit note' : 'Invoice',
      invoice.number ?? 'Draft — no number yet',
      correctedInvoice(invoice) ? `corrects ${correctedInvoice(invoice)}` : undefined,
    ),
    {
      columns: [
        {
          width: '*',
          stack: [
            addressBlock('Bill to', [
              buyer.name,
              ...addressLines(buyer),
              buyer.vatNumber ? `VAT ${buyer.vatNumber}` : null,
              buyer.registrationNumber ? `Reg. ${buyer.registrationNumber}` : null,
            ]),
          ],
        },
        {
          width: 220,
          stack: [
            facts([
              ['Issue date', invoice.issueDate ? printDate(invoice.issueDate) : 'not issued'],
              ['Supply date', invoice.supplyDate ? printDate(invoice.supplyDate) : null],
              ['Due date', !isCredit && invoice.dueDate ? printDate(invoice.dueDate) : null],
              ['Corrects', correctedInvoice(invoice) ?? null],
              ['Our VAT number', seller.vatNumber],
              ['Customer', invoice.customer.code],
              ['Dossier', invoice.dossier?.number],
              ['Your reference', invoice.buyerReference],
              ['Order reference', invoice.orderReference],
              ['Currency', cur],
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
        { header: `Unit price`, width: 60, align: 'right' },
        { header: 'VAT', width: 42 },
        { header: `Net (${cur})`, width: 66, align: 'right' },
      ],
      invoice.lines.map((l, i) => [
        String(i + 1),
        // Line allowances and charges (BG-27/28) under the description, each with its sign.
        [
          l.description,
          ...(l.allowanceCharges ?? []).map(
            (ac) =>
              `${ac.isCharge ? 'Plus' : 'Less'} ${printDecimal(ac.amount)}: ${allowanceChargeLabel(ac)}`,
          ),
        ].join('\n'),
        printQuantity(l.quantity),
        SALES_UNIT_LABELS[l.unit] ?? l.unit,
        printUnitPrice(l.unitPrice),
        vatLabel(l.vatCode, l.vatRate),
        printDecimal(l.lineNet),
      ]),
    ),
    {
      columns: [
        {
          width: '*',
          stack: [
            { text: 'VAT summary', style: 'sectionTitle' },
            linesTable(
              [
                { header: 'VAT category', width: '*' },
                { header: `Taxable (${cur})`, width: 60, align: 'right' },
                { header: 'Rate', width: 28, align: 'right' },
                { header: `VAT (${cur})`, width: 54, align: 'right' },
              ],
              t.vatGroups.map((g) => [
                `${g.vatCode} · ${VAT_CODE_LABELS[g.vatCode]}`,
                printDecimal(g.taxableAmount),
                printRate(g.vatRate),
                printDecimal(g.vatAmount),
              ]),
            ),
            ...exemptionTexts(invoice).map(
              (text) => ({ text, style: 'small', margin: [0, 4, 0, 0] }) as Content,
            ),
          ],
        },
        {
          width: 'auto',
          margin: [0, 14, 0, 0],
          stack: [
            totalsBox([
              // Document allowances and charges (BG-20/21) between the lines' sum and the total excl. VAT.
              ...(invoice.allowanceCharges?.length
                ? [
                    { label: 'Sum of lines', amount: printMoney(t.lineExtensionAmount, cur) },
                    ...invoice.allowanceCharges.map((ac) => ({
                      label: `${allowanceChargeLabel(ac)} (${vatLabel(ac.vatCode, ac.vatRate)})`,
                      amount: printMoney(ac.isCharge ? ac.amount : `-${ac.amount}`, cur),
                    })),
                  ]
                : []),
              { label: 'Total excl. VAT', amount: printMoney(t.taxExclusiveAmount, cur) },
              { label: 'VAT', amount: printMoney(t.vatTotal, cur) },
              {
                label: isCredit ? 'Total credited' : 'Total incl. VAT',
                amount: printMoney(t.taxInclusiveAmount, cur),
                strong: true,
              },
              ...(!isCredit && Number(invoice.paidAmount) !== 0
                ? [
                    { label: 'Paid', amount: printMoney(invoice.paidAmount, cur) },
                    { label: 'Amount due', amount: printMoney(invoice.openAmount, cur), strong: true },
                  ]
                : []),
            ]),
          ],
        },
      ],
      columnGap: 18,
      unbreakable: true,
    },
  ];

  if (cur !== base && invoice.exchangeRate) {
    content.push({
      text: [
        `Exchange rate: 1 ${cur} = ${invoice.exchangeRate.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '')} ${base}. `,
        `VAT total in ${base}: `,
        { text: printMoney(t.vatTotalBase ?? '0', base), bold: true },
        ' (art. 230 VAT Directive).',
      ],
      style: 'small',
      margin: [0, 10, 0, 0],
    });
  }

  content.push({ text: isCredit ? 'Settlement' : 'Payment', style: 'sectionTitle' });
  if (isCredit) {
    content.push({
      text: `This credit note corrects ${correctedInvoice(invoice) ?? 'an invoice'}. The amount of ${printMoney(t.taxInclusiveAmount, cur)} is set off against that invoice or refunded.`,
      style: 'small',
    });
  } else {
    const bank = seller.iban ? ` to IBAN ${seller.iban}${seller.bic ? ` (BIC ${seller.bic})` : ''}` : '';
    content.push({
      text: [
        `Payment terms: ${invoice.paymentTermsDays} days${invoice.dueDate ? `, due ${printDate(invoice.dueDate)}` : ''}. `,
        `Please pay ${printMoney(invoice.openAmount ?? t.payableAmount, cur)}${bank}, quoting `,
        { text: invoice.number ?? 'the invoice number', bold: true },
        ' as payment reference.',
      ],
      style: 'small',
    });
  }

  const doc = documentFrame({
    company: seller,
    title: invoiceTitle(invoice),
    content,
    draft: invoice.number === null,
  });
  return renderPdf(doc, options);
}
