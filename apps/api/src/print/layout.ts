import type {
  Content,
  DynamicContent,
  StyleDictionary,
  TableCell,
  TDocumentDefinitions,
} from 'pdfmake/interfaces';

/*
 * The pieces every printed document of the company shares (offers, invoices, credit notes), so they
 * read as one company's papers: the header with the company's name and address, address blocks, the
 * lines table, the totals box and the footer with the company's legal data and "page / pages".
 */

/** Who prints the document: the company (offers) or the seller snapshot of an issued invoice. */
export interface Letterhead {
  name: string;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  countryCode: string;
  vatNumber: string | null;
  registrationNumber: string | null;
  email: string | null;
  iban: string | null;
  bic: string | null;
  footer: string | null;
}

export const GREY = '#5f6b7a';
const RULE = '#c9d1db';
const HEAD_FILL = '#eef1f5';

export const STYLES: StyleDictionary = {
  company: { fontSize: 15, bold: true },
  title: { fontSize: 17, bold: true, alignment: 'right' },
  label: { fontSize: 7.5, color: GREY },
  small: { fontSize: 8 },
  muted: { fontSize: 8, color: GREY },
  th: { fontSize: 8, bold: true },
  sectionTitle: { fontSize: 10, bold: true, margin: [0, 12, 0, 4] },
};

/** '3089 JH Rotterdam' / 'NL' etc.: the lines of an address, the empty ones left out. */
export function addressLines(p: {
  street: string | null;
  postalCode: string | null;
  city: string | null;
  countryCode: string;
}): string[] {
  const place = [p.postalCode, p.city].filter(Boolean).join(' ');
  return [p.street, place, p.countryCode].filter((s): s is string => !!s && s.trim() !== '');
}

/** The top of the first page: the company on the left, the document's title and number on the right. */
export function header(company: Letterhead, title: string, number: string, subtitle?: string): Content {
  return {
    columns: [
      {
        width: '*',
        stack: [
          { text: company.name, style: 'company' },
          { text: addressLines(company).join('\n'), style: 'small', margin: [0, 2, 0, 0] },
          ...(company.email ? [{ text: company.email, style: 'small' }] : []),
        ],
      },
      {
        width: 'auto',
        stack: [
          { text: title, style: 'title' },
          { text: number, fontSize: 11, bold: true, alignment: 'right', margin: [0, 2, 0, 0] },
          ...(subtitle ? [{ text: subtitle, style: 'small', alignment: 'right' as const }] : []),
        ],
      },
    ],
    margin: [0, 0, 0, 18],
  };
}

/** A labelled block of lines: "Bill to" with the buyer, "Customer" with the contact, … */
export function addressBlock(label: string, lines: (string | null | undefined)[]): Content {
  const shown = lines.filter((s): s is string => !!s && s.trim() !== '');
  return {
    stack: [
      { text: label.toUpperCase(), style: 'label', margin: [0, 0, 0, 2] },
      ...shown.map((s, i) => (i === 0 ? { text: s, bold: true } : { text: s, style: 'small' })),
    ],
  };
}

/** A two-column list of facts ("Issue date  23 Nov 2026"); rows without a value are left out. */
export function facts(rows: [string, string | null | undefined][]): Content {
  const body: TableCell[][] = rows
    .filter((r): r is [string, string] => !!r[1])
    .map(([k, v]) => [
      { text: k, style: 'label', margin: [0, 1, 8, 1] },
      { text: v, style: 'small' },
    ]);
  if (body.length === 0) return { text: '' };
  return { table: { widths: ['auto', '*'], body }, layout: 'noBorders' };
}

export interface Column {
  header: string;
  width: number | '*' | 'auto';
  align?: 'left' | 'right';
}

/** The lines table: a header row repeated on every page, thin rules, and rows that never split. */
export function linesTable(columns: Column[], rows: string[][]): Content {
  const head: TableCell[] = columns.map((c) => ({
    text: c.header,
    style: 'th',
    alignment: c.align ?? 'left',
    fillColor: HEAD_FILL,
  }));
  const body: TableCell[][] = rows.map((r) =>
    r.map((cell, i) => ({ text: cell, fontSize: 8, lineHeight: 1, alignment: columns[i]?.align ?? 'left' })),
  );
  return {
    table: { headerRows: 1, dontBreakRows: true, widths: columns.map((c) => c.width), body: [head, ...body] },
    layout: {
      hLineWidth: (i) => (i === 0 ? 0 : 0.5),
      vLineWidth: () => 0,
      hLineColor: () => RULE,
      paddingTop: () => 2,
      paddingBottom: () => 1.5,
    },
  };
}

/** The totals box on the right: label/amount rows, the last (or a `strong` one) in bold. */
export function totalsBox(rows: { label: string; amount: string; strong?: boolean }[]): Content {
  return {
    columns: [
      { width: '*', text: '' },
      {
        width: 'auto',
        table: {
          widths: [84, 80],
          body: rows.map((r) => [
            { text: r.label, bold: !!r.strong, fontSize: r.strong ? 10 : 9 },
            { text: r.amount, bold: !!r.strong, fontSize: r.strong ? 10 : 9, alignment: 'right' },
          ]),
        },
        layout: {
          hLineWidth: (i, node) => (i === node.table.body.length - 1 ? 0.8 : 0),
          vLineWidth: () => 0,
          hLineColor: () => RULE,
        },
      },
    ],
    margin: [0, 8, 0, 0],
    unbreakable: true,
  };
}

/**
 * Every page's foot: the company's own footer text (terms, conditions), its legal data and
 * "page / pages" on the right.
 */
export function footer(company: Letterhead): DynamicContent {
  const legal = [
    company.name,
    company.vatNumber ? `VAT ${company.vatNumber}` : null,
    company.registrationNumber ? `Reg. ${company.registrationNumber}` : null,
    company.iban ? `IBAN ${company.iban}${company.bic ? ` · BIC ${company.bic}` : ''}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const terms: Content[] = company.footer
    ? [{ text: company.footer, fontSize: 7, color: GREY, margin: [0, 0, 0, 3] }]
    : [];
  return (currentPage, pageCount): Content => ({
    margin: [40, 8, 40, 0],
    stack: [
      ...terms,
      {
        columns: [
          { width: '*', text: legal, style: 'muted' },
          { width: 'auto', text: `${currentPage} / ${pageCount}`, style: 'muted', alignment: 'right' },
        ],
      },
    ],
  });
}

/** The frame every document uses: A4, Roboto, the shared styles and footer, a DRAFT watermark on request. */
export function documentFrame(input: {
  company: Letterhead;
  title: string;
  content: Content[];
  draft?: boolean;
}): TDocumentDefinitions {
  return {
    pageSize: 'A4',
    pageMargins: [40, 36, 40, input.company.footer ? 70 : 50],
    info: { title: input.title, author: input.company.name, creator: 'FVG', producer: 'FVG' },
    defaultStyle: { font: 'Roboto', fontSize: 9, lineHeight: 1.15 },
    styles: STYLES,
    footer: footer(input.company),
    ...(input.draft ? { watermark: { text: 'DRAFT', opacity: 0.08, bold: true, angle: -40 } } : {}),
    content: input.content,
  };
}
