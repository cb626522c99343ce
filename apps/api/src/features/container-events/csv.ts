import { createHash } from 'node:crypto';
import { CSV_IMPORT_COLUMNS, type CsvImportColumn, type FieldError } from '@fvg/contracts';
import { problems } from '../../http/problem.ts';

export interface CsvRecord {
  /** Line of the file where the record starts (the header is line 1). */
  line: number;
  cells: string[];
}

/**
 * RFC 4180 CSV: quoted fields with doubled quotes, line breaks inside quotes, CRLF or LF, a leading
 * BOM. The separator is a comma, or a semicolon when the header has more of those (spreadsheets in
 * many European locales save CSV with semicolons). Blank lines are skipped.
 */
export function parseCsv(input: string): CsvRecord[] {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const count = (c: string) => firstLine.split(c).length - 1;
  const sep = count(';') > count(',') ? ';' : ',';

  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let start = 1;
  let quoted = false;
  let touched = false;
  const endRecord = () => {
    cells.push(cell);
    if (touched || cells.length > 1 || cell !== '') records.push({ line: start, cells });
    cells = [];
    cell = '';
    touched = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"') {
      quoted = true;
      touched = true;
    } else if (c === sep) {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else cell += c;
  }
  if (quoted) {
    throw problems.validation([
      { field: 'file', message: `A quoted field starting on line ${start} is never closed` },
    ]);
  }
  if (cell !== '' || cells.length || touched) endRecord();
  return records;
}

const COLUMN_BY_LOWER = new Map<string, CsvImportColumn>(CSV_IMPORT_COLUMNS.map((c) => [c.toLowerCase(), c]));

/** The columns of the header row, in file order; unknown or repeated columns are a problem for the whole file. */
export function headerColumns(header: CsvRecord): CsvImportColumn[] {
  const columns: CsvImportColumn[] = [];
  const errors: FieldError[] = [];
  header.cells.forEach((raw, i) => {
    const name = raw.trim();
    const column = COLUMN_BY_LOWER.get(name.toLowerCase());
    if (!column) {
      errors.push({
        field: 'file',
        message: `Unknown column "${name}" (column ${i + 1}); the columns are ${CSV_IMPORT_COLUMNS.join(', ')}`,
      });
    } else if (columns.includes(column)) {
      errors.push({ field: 'file', message: `Column ${column} appears twice` });
    }
    columns.push(column as CsvImportColumn);
  });
  if (errors.length) throw problems.validation(errors, 'The header row of the file is not valid.');
  return columns;
}

const TYPE_COLUMNS = {
  EQUIPMENT: 'equipmentEventTypeCode',
  TRANSPORT: 'transportEventTypeCode',
  SHIPMENT: 'shipmentEventTypeCode',
} as const;

/** Columns that belong to one event type only (the rest are shared or mapped). */
const ONLY_FOR: Partial<Record<CsvImportColumn, keyof typeof TYPE_COLUMNS>> = {
  equipmentEventTypeCode: 'EQUIPMENT',
  ISOEquipmentCode: 'EQUIPMENT',
  emptyIndicatorCode: 'EQUIPMENT',
  transportEventTypeCode: 'TRANSPORT',
  shipmentEventTypeCode: 'SHIPMENT',
  documentTypeCode: 'SHIPMENT',
  documentID: 'SHIPMENT',
};

const TRANSPORT_CALL_COLUMNS = [
  'modeOfTransport',
  'UNLocationCode',
  'facilityCode',
  'facilityTypeCode',
  'carrierVoyageNumber',
  'exportVoyageNumber',
  'importVoyageNumber',
  'transportCallSequenceNumber',
] as const;
const VESSEL_COLUMNS = ['vesselIMONumber', 'vesselName', 'vesselFlag', 'vesselCallSignNumber'] as const;

export interface CsvEvent {
  /** The DCSA event the row describes (validated afterwards like any posted event). */
  event: Record<string, unknown>;
  /** Problems found while mapping the row, by column. */
  errors: FieldError[];
  /** An error path of the event → the CSV column it came from. */
  columnOf(path: string): string;
}

/**
 * A UUID derived from the row's cells (name-based, version 5 layout): a row without an eventID gets the
 * same id every time it is imported, so importing a file twice stores nothing new.
 */
export function derivedEventId(values: [string, string][]): string {
  const h = createHash('sha256')
    .update(JSON.stringify([...values].sort(([a], [b]) => a.localeCompare(b))))
    .digest('hex');
  const variant = ((Number.parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** One data row as a DCSA event: the flat columns are placed where DCSA nests them. */
export function rowToEvent(columns: CsvImportColumn[], cells: string[], importedAt: string): CsvEvent {
  const values = new Map<CsvImportColumn, string>();
  columns.forEach((c, i) => {
    const v = (cells[i] ?? '').trim();
    if (v !== '') values.set(c, v);
  });
  const get = (c: CsvImportColumn) => values.get(c);
  const errors: FieldError[] = [];
  if (cells.length > columns.length && cells.slice(columns.length).some((c) => c.trim() !== '')) {
    errors.push({
      field: 'file',
      message: `The row has ${cells.length} cells; the header has ${columns.length}`,
    });
  }

  const declared = get('eventType')?.toUpperCase();
  const inferred = (Object.keys(TYPE_COLUMNS) as (keyof typeof TYPE_COLUMNS)[]).filter((t) =>
    values.has(TYPE_COLUMNS[t]),
  );
  const eventType = declared ?? (inferred.length === 1 ? inferred[0] : undefined);
  if (!declared && inferred.length > 1) {
    errors.push({
      field: 'eventType',
      message: `Only one of ${Object.values(TYPE_COLUMNS).join(', ')} may be filled in a row`,
    });
  }
  for (const [column, only] of Object.entries(ONLY_FOR) as [CsvImportColumn, string][]) {
    if (eventType && eventType in TYPE_COLUMNS && values.has(column) && only !== eventType) {
      errors.push({ field: column, message: `${column} does not apply to ${eventType} events` });
    }
  }

  const pathColumns = new Map<string, string>();
  const transportCall: Record<string, unknown> = {};
  for (const c of TRANSPORT_CALL_COLUMNS) if (values.has(c)) transportCall[c] = get(c);
  const vessel: Record<string, unknown> = {};
  for (const c of VESSEL_COLUMNS) if (values.has(c)) vessel[c] = get(c);
  if (Object.keys(vessel).length) transportCall.vessel = vessel;
  const hasCall = Object.keys(transportCall).length > 0;
  // "transportCall is required" is answered on the column every transport call needs.
  pathColumns.set('transportCall', 'modeOfTransport');

  const documentReferences: { documentReferenceType: string; documentReferenceValue: string }[] = [];
  const addDocRef = (type: 'BKG' | 'TRD', column: CsvImportColumn) => {
    const v = get(column);
    if (v === undefined) return;
    pathColumns.set(`documentReferences.${documentReferences.length}`, column);
    documentReferences.push({ documentReferenceType: type, documentReferenceValue: v });
  };
  addDocRef('BKG', 'carrierBookingReference');
  addDocRef('TRD', 'transportDocumentReference');

  const eventID = get('eventID') ?? derivedEventId([...values].filter(([c]) => c !== 'eventCreatedDateTime'));
  const event: Record<string, unknown> = {
    eventID,
    eventType,
    eventClassifierCode: get('eventClassifierCode'),
    eventDateTime: get('eventDateTime'),
    eventCreatedDateTime: get('eventCreatedDateTime') ?? importedAt,
  };
  if (eventType === 'EQUIPMENT') {
    Object.assign(event, {
      equipmentEventTypeCode: get('equipmentEventTypeCode'),
      equipmentReference: get('equipmentReference'),
      ISOEquipmentCode: get('ISOEquipmentCode'),
      emptyIndicatorCode: get('emptyIndicatorCode'),
      transportCall: hasCall ? transportCall : undefined,
      documentReferences: documentReferences.length ? documentReferences : undefined,
    });
  } else if (eventType === 'TRANSPORT') {
    const container = get('equipmentReference');
    if (container) pathColumns.set('references.0', 'equipmentReference');
    Object.assign(event, {
      transportEventTypeCode: get('transportEventTypeCode'),
      transportCall: hasCall ? transportCall : undefined,
      documentReferences: documentReferences.length ? documentReferences : undefined,
      references: container ? [{ referenceType: 'EQ', referenceValue: container }] : undefined,
    });
  } else if (eventType === 'SHIPMENT') {
    // A shipment event has no transport call or documentReferences: the booking and BL go to references.
    const references = documentReferences.map((r) => ({
      referenceType: r.documentReferenceType,
      referenceValue: r.documentReferenceValue,
    }));
    for (let i = 0; i < references.length; i++) {
      pathColumns.set(`references.${i}`, pathColumns.get(`documentReferences.${i}`) as string);
    }
    const container = get('equipmentReference');
    if (container) {
      pathColumns.set(`references.${references.length}`, 'equipmentReference');
      references.push({ referenceType: 'EQ', referenceValue: container });
    }
    for (const c of [...TRANSPORT_CALL_COLUMNS, ...VESSEL_COLUMNS]) {
      if (values.has(c)) errors.push({ field: c, message: `${c} does not apply to SHIPMENT events` });
    }
    Object.assign(event, {
      shipmentEventTypeCode: get('shipmentEventTypeCode'),
      documentTypeCode: get('documentTypeCode'),
      documentID: get('documentID'),
      references: references.length ? references : undefined,
    });
  }
  for (const k of Object.keys(event)) if (event[k] === undefined) delete event[k];

  return {
    event,
    errors,
    columnOf(path: string) {
      const parts = path.split('.');
      const last = parts.at(-1) as string;
      if (COLUMN_BY_LOWER.has(last.toLowerCase())) return last;
      for (let n = parts.length; n > 0; n--) {
        const column = pathColumns.get(parts.slice(0, n).join('.'));
        if (column) return column;
      }
      return path;
    },
  };
}
