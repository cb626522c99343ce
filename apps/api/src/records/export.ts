import { PassThrough, Readable } from 'node:stream';
import { DEFAULT_USER_PREFERENCES, type FieldVisibility, formatForDisplay } from '@fvg/contracts';
import type { FastifyReply } from 'fastify';
import { ZipFile } from 'yazl';
import type { Scope } from './scope.ts';
import { withTimeZone } from './time-zone.ts';
import { canSee } from './visibility.ts';

export interface ExportColumn<T> {
  header: string;
  value: (item: T) => string | number | null | undefined;
  /** The API field the column shows, when the area's visibility may hide it: then the column goes too. */
  field?: string;
  /**
   * A date (`day`, YYYY-MM-DD) or a moment (`instant`, ISO 8601): written as the screen shows it, in
   * the reader's date format (and zone and time format), followed by a column "… (ISO 8601)" with the
   * value as the API gives it, for a machine (issue 27 item 7).
   */
  time?: 'day' | 'instant';
}

/** How the reader sees dates and times: the export request's, else UTC and the default formats. */
export interface ExportDisplay {
  timeZone: string;
  dateFormat: string;
  timeFormat: string;
}

export const DEFAULT_EXPORT_DISPLAY: ExportDisplay = {
  timeZone: 'UTC',
  dateFormat: DEFAULT_USER_PREFERENCES.dateFormat,
  timeFormat: DEFAULT_USER_PREFERENCES.timeFormat,
};

/** A date or time column as two: the screen's words, then ISO 8601 for a machine. */
function displayed<T>(columns: ExportColumn<T>[], display: ExportDisplay): ExportColumn<T>[] {
  return columns.flatMap((c) => {
    if (!c.time) return [c];
    const raw = (item: T) => {
      const v = c.value(item);
      return v === null || v === undefined ? null : String(v);
    };
    return [
      { header: c.header, value: (item: T) => formatForDisplay(raw(item), display) },
      { header: `${c.header} (ISO 8601)`, value: raw },
    ];
  });
}

/** Who exports what: the columns of fields the viewer cannot see are left out (not just emptied). */
export interface ExportViewer {
  scope: Scope;
  visibility: FieldVisibility;
}

/** Spreadsheet programs run cells that start like a formula; such text gets a leading apostrophe. */
function safeText(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

function csvCell(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return String(v);
  const s = safeText(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

async function* csvLines<T>(columns: ExportColumn<T>[], batches: AsyncIterable<T[]>): AsyncGenerator<string> {
  yield `\uFEFF${columns.map((c) => csvCell(c.header)).join(',')}\r\n`;
  for await (const batch of batches) {
    yield batch.map((item) => `${columns.map((c) => csvCell(c.value(item))).join(',')}\r\n`).join('');
  }
}

function xml(s: string): string {
  return s
    .replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] as string)
    .replace(
      // characters XML 1.0 forbids
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g,
      '',
    );
}

function column(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function xlsxCell(ref: string, v: string | number | null | undefined): string {
  if (v === null || v === undefined || v === '') return '';
  if (typeof v === 'number' && Number.isFinite(v)) return `<c r="${ref}"><v>${v}</v></c>`;
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xml(String(v))}</t></is></c>`;
}

async function* sheetXml<T>(columns: ExportColumn<T>[], batches: AsyncIterable<T[]>): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
  yield `<row r="1">${columns.map((c, i) => xlsxCell(`${column(i)}1`, c.header)).join('')}</row>`;
  let r = 1;
  for await (const batch of batches) {
    let chunk = '';
    for (const item of batch) {
      r++;
      chunk += `<row r="${r}">${columns.map((c, i) => xlsxCell(`${column(i)}${r}`, c.value(item))).join('')}</row>`;
    }
    yield chunk;
  }
  yield '</sheetData></worksheet>';
}

const XLSX_PARTS: [string, string][] = [
  [
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  ],
  [
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  ],
  [
    'xl/workbook.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Export" sheetId="1" r:id="rId1"/></sheets></workbook>',
  ],
  [
    'xl/_rels/workbook.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
  ],
];

/**
 * The batches with the first one already read: a refused sort, filter or cursor is thrown here, while
 * the answer can still be a 400 problem, instead of breaking a download that has started.
 */
async function startedEarly<T>(batches: AsyncIterable<T[]>): Promise<AsyncIterable<T[]>> {
  const it = batches[Symbol.asyncIterator]();
  const first = await it.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  })();
}

/**
 * Streams a list as CSV or XLSX: rows arrive in batches (keyset pages) and leave at once, so memory
 * stays flat whatever the size. XLSX is written by hand (inline strings, one sheet) into a zip stream.
 */
export async function sendExport<T>(
  reply: FastifyReply,
  format: 'csv' | 'xlsx',
  basename: string,
  allColumns: ExportColumn<T>[],
  allBatches: AsyncIterable<T[]>,
  viewer: ExportViewer,
  display: ExportDisplay = DEFAULT_EXPORT_DISPLAY,
): Promise<FastifyReply> {
  const columns = displayed(
    allColumns.filter((c) => !c.field || canSee(viewer.scope, viewer.visibility, c.field)),
    display,
  );
  // The first batch is read before the headers go: a filter the database refuses (a time zone the
  // runtime knows and PostgreSQL does not, 'US/Pacific-New') is then a 400 on tz, as on the list.
  const batches = await withTimeZone(() => startedEarly(allBatches));
  const stamp = new Date().toISOString().slice(0, 10);
  const filename = `${basename}-${stamp}.${format}`;
  reply
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store');
  if (format === 'csv') {
    return reply.type('text/csv; charset=utf-8').send(Readable.from(csvLines(columns, batches)));
  }
  const zip = new ZipFile();
  for (const [name, content] of XLSX_PARTS) zip.addBuffer(Buffer.from(content), name);
  const sheet = new PassThrough();
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml');
  zip.end();
  Readable.from(sheetXml(columns, batches))
    .on('error', (e) => sheet.destroy(e))
    .pipe(sheet);
  return reply
    .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .send(zip.outputStream);
}
