import { z } from 'zod';
import {
  DCSA_EVENT_TYPES,
  EQUIPMENT_EVENT_TYPE_CODES,
  EVENT_TYPE_CODES,
  SHIPMENT_EVENT_TYPE_CODES,
  TRANSPORT_EVENT_TYPE_CODES,
} from './container-events-values.ts';
import type { DossierStatus } from './dossiers.ts';
import { partyRefSchema } from './parties.ts';
import { dateTime as instant, queryBoolean, queryInt } from './primitives.ts';
import { fieldErrorSchema, issueParams } from './problem.ts';
import { type FieldVisibility, listQueryBaseSchema, uuidSchema } from './records.ts';
import { containerNumberProblem, iso6346CheckDigit, normalizeContainerNumber } from './validators/iso6346.ts';
import { isCountryCode, isImoNumber, isUnLocode } from './validators/places.ts';

export * from './container-events-values.ts';

/*
 * Container events in the DCSA Track & Trace 2.2 event model. Field names are DCSA's, spelled as DCSA
 * spells them (`eventID`, `ISOEquipmentCode`, `UNLocationCode`), so a carrier's or terminal's feed can
 * be posted as it is. Code lists: domain-standards.md (DCSA T&T section).
 */

export type DcsaEventType = (typeof DCSA_EVENT_TYPES)[number];

export const EVENT_CLASSIFIER_CODES = ['PLN', 'EST', 'ACT'] as const;
export type EventClassifierCode = (typeof EVENT_CLASSIFIER_CODES)[number];
export const EVENT_CLASSIFIER_LABELS: Record<EventClassifierCode, string> = {
  PLN: 'Planned',
  EST: 'Estimated',
  ACT: 'Actual',
};

export type EquipmentEventTypeCode = (typeof EQUIPMENT_EVENT_TYPE_CODES)[number];
export const EQUIPMENT_EVENT_TYPE_LABELS: Record<EquipmentEventTypeCode, string> = {
  LOAD: 'Loaded on board',
  DISC: 'Discharged',
  GTIN: 'Gated in',
  GTOT: 'Gated out',
  STUF: 'Stuffed',
  STRP: 'Stripped',
  PICK: 'Picked up at customer',
  DROP: 'Dropped at customer',
  INSP: 'Inspected',
  RSEA: 'Resealed',
  RMVD: 'Removed',
};

export type TransportEventTypeCode = (typeof TRANSPORT_EVENT_TYPE_CODES)[number];
export const TRANSPORT_EVENT_TYPE_LABELS: Record<TransportEventTypeCode, string> = {
  ARRI: 'Arrived',
  DEPA: 'Departed',
};

export type ShipmentEventTypeCode = (typeof SHIPMENT_EVENT_TYPE_CODES)[number];
export const SHIPMENT_EVENT_TYPE_LABELS: Record<ShipmentEventTypeCode, string> = {
  RECE: 'Received',
  DRFT: 'Drafted',
  PENA: 'Pending approval',
  PENU: 'Pending update',
  REJE: 'Rejected',
  APPR: 'Approved',
  ISSU: 'Issued',
  SURR: 'Surrendered',
  SUBM: 'Submitted',
  VOID: 'Void',
  CONF: 'Confirmed',
  REQS: 'Requested',
  CMPL: 'Completed',
  HOLD: 'On hold',
  RELS: 'Released',
};

export type EventTypeCode = (typeof EVENT_TYPE_CODES)[number];

/** What `documentID` of a shipment event points to. */
export const DOCUMENT_TYPE_CODES = [
  'CBR',
  'BKG',
  'SHI',
  'SRM',
  'TRD',
  'ARN',
  'VGM',
  'CAS',
  'CUS',
  'DGD',
  'OOG',
] as const;
export type DocumentTypeCode = (typeof DOCUMENT_TYPE_CODES)[number];

export const EMPTY_INDICATOR_CODES = ['EMPTY', 'LADEN'] as const;
export type EmptyIndicatorCode = (typeof EMPTY_INDICATOR_CODES)[number];

export const MODES_OF_TRANSPORT = ['VESSEL', 'RAIL', 'TRUCK', 'BARGE'] as const;
export type ModeOfTransport = (typeof MODES_OF_TRANSPORT)[number];

export const FACILITY_TYPE_CODES = [
  'BORD',
  'CLOC',
  'COFS',
  'OFFD',
  'DEPO',
  'INTE',
  'POTE',
  'RAMP',
  'WAYP',
] as const;
export type FacilityTypeCode = (typeof FACILITY_TYPE_CODES)[number];
export const FACILITY_TYPE_LABELS: Record<FacilityTypeCode, string> = {
  BORD: 'Border',
  CLOC: 'Customer location',
  COFS: 'Container freight station',
  OFFD: 'Off-dock storage',
  DEPO: 'Depot',
  INTE: 'Inland terminal',
  POTE: 'Port terminal',
  RAMP: 'Ramp',
  WAYP: 'Waypoint',
};

export const FACILITY_CODE_LIST_PROVIDERS = ['SMDG', 'BIC'] as const;
export const CARRIER_CODE_LIST_PROVIDERS = ['SMDG', 'NMFTA'] as const;

/** DCSA `documentReferences`: the booking (BKG) or transport document, i.e. bill of lading (TRD). */
export const DOCUMENT_REFERENCE_TYPES = ['BKG', 'TRD'] as const;

/**
 * DCSA `references` types. BKG and TRD are accepted here as well, since feeds often carry the booking
 * and the bill of lading among the references; EQ names a container the event concerns.
 */
export const REFERENCE_TYPES = [
  'FF',
  'SI',
  'PO',
  'SPO',
  'CPO',
  'CR',
  'AAO',
  'ECR',
  'CSI',
  'BPR',
  'BID',
  'EQ',
  'SAC',
  'BKG',
  'TRD',
] as const;

export const SEAL_SOURCES = ['CAR', 'SHI', 'PHY', 'VET', 'CUS'] as const;
export const SEAL_TYPES = ['KLP', 'BLT', 'WIR'] as const;

/** How an event reached us. */
export const CONTAINER_EVENT_SOURCES = ['api', 'csv', 'manual'] as const;
export type ContainerEventSource = (typeof CONTAINER_EVENT_SOURCES)[number];

/** Events per ingest request (one JSON array). */
export const MAX_EVENTS_PER_REQUEST = 1000;

// ---------------------------------------------------------------------------------------------
// Field builders: every message names the DCSA field, so a feed's developer sees what to fix.
// ---------------------------------------------------------------------------------------------

type Issue = { input?: unknown };
const required = (field: string, otherwise: string) => (issue: Issue) =>
  issue.input === undefined || issue.input === null ? `${field} is required` : `${field} ${otherwise}`;

function text(field: string, max: number) {
  return z
    .string({ error: required(field, 'must be text') })
    .trim()
    .min(1, `${field} cannot be empty`)
    .max(max, `${field} has at most ${max} characters`);
}

function code<const T extends readonly [string, ...string[]]>(field: string, values: T) {
  return z
    .string({ error: required(field, `must be one of ${values.join(', ')}`) })
    .trim()
    .toUpperCase()
    .pipe(z.enum(values, { error: `${field} must be one of ${values.join(', ')}` }));
}

function dateTime(field: string) {
  return z
    .string({ error: required(field, 'must be a date-time text') })
    .trim()
    .pipe(
      z.iso.datetime({
        offset: true,
        error: `${field} must be an ISO 8601 date-time with a time zone, e.g. 2026-03-01T14:12:56+01:00 or 2026-03-01T13:12:56Z`,
      }),
    )
    .refine((s) => {
      const y = new Date(s).getUTCFullYear();
      return y >= 1970 && y <= 2100;
    }, `${field} must lie between the years 1970 and 2100`);
}

const unLocationCode = (field: string) =>
  z
    .string({ error: required(field, 'must be text') })
    .trim()
    .toUpperCase()
    .refine(isUnLocode, {
      message: `${field} must be a UN/LOCODE: ISO country + 3 characters, e.g. NLRTM`,
      params: issueParams('unlocode'),
    });

/** ISO 6346 container number: spaces and dashes are dropped, the check digit must match. */
export const equipmentReferenceSchema = z
  .string({ error: required('equipmentReference', 'must be text') })
  .transform(normalizeContainerNumber)
  .superRefine((n, ctx) => {
    const problem = containerNumberProblem(n);
    if (problem === 'format') {
      ctx.addIssue({
        code: 'custom',
        message:
          'equipmentReference must be an ISO 6346 container number: 4 letters (the 4th U, J or Z) and 7 digits, e.g. MSKU6011672',
        params: issueParams('container_number'),
      });
    } else if (problem === 'check-digit') {
      ctx.addIssue({
        code: 'custom',
        message: `equipmentReference ${n} fails the ISO 6346 check digit: ${n.slice(0, 10)} needs ${iso6346CheckDigit(n.slice(0, 10))}`,
        params: issueParams('container_check_digit', { expected: iso6346CheckDigit(n.slice(0, 10)) }),
      });
    }
  });

export const vesselIMONumberSchema = z
  .union([z.string(), z.number().int()], { error: required('vesselIMONumber', 'must be 7 digits') })
  .transform((v) => String(v).trim())
  .superRefine((v, ctx) => {
    if (!/^\d{7}$/.test(v))
      ctx.addIssue({
        code: 'custom',
        message: 'vesselIMONumber must be 7 digits',
        params: issueParams('imo_number'),
      });
    else if (!isImoNumber(v)) {
      let sum = 0;
      for (let i = 0; i < 6; i++) sum += Number(v[i]) * (7 - i);
      ctx.addIssue({
        code: 'custom',
        message: `vesselIMONumber ${v} fails the IMO check digit: ${v.slice(0, 6)} needs ${sum % 10}`,
        params: issueParams('imo_number'),
      });
    }
  });

const isoEquipmentCode = z
  .string({ error: required('ISOEquipmentCode', 'must be text') })
  .trim()
  .toUpperCase()
  .regex(/^[0-9A-Z]{4}$/, 'ISOEquipmentCode is the 4-character ISO 6346 size-type code, e.g. 22G1 or 45G1');

const coordinate = (field: string) =>
  z
    .union([z.string(), z.number()], { error: `${field} must be a number or text` })
    .transform((v) => String(v).trim())
    .refine((v) => v.length > 0 && v.length <= 12, `${field} has 1 to 12 characters`);

export const dcsaAddressSchema = z.strictObject({
  name: text('address.name', 100).optional(),
  street: text('address.street', 100).optional(),
  streetNumber: text('address.streetNumber', 50).optional(),
  floor: text('address.floor', 50).optional(),
  postCode: text('address.postCode', 10).optional(),
  city: text('address.city', 65).optional(),
  stateRegion: text('address.stateRegion', 65).optional(),
  country: text('address.country', 75).optional(),
});

export const dcsaLocationSchema = z.strictObject({
  locationID: text('locationID', 100).optional(),
  locationName: text('locationName', 100).optional(),
  latitude: coordinate('latitude').optional(),
  longitude: coordinate('longitude').optional(),
  UNLocationCode: unLocationCode('UNLocationCode').optional(),
  facilityCode: text('facilityCode', 6).optional(),
  facilityCodeListProvider: code('facilityCodeListProvider', FACILITY_CODE_LIST_PROVIDERS).optional(),
  address: dcsaAddressSchema.optional(),
});

export const dcsaVesselSchema = z.strictObject({
  vesselIMONumber: vesselIMONumberSchema.optional(),
  vesselName: text('vesselName', 35).optional(),
  vesselFlag: z
    .string({ error: 'vesselFlag must be text' })
    .trim()
    .toUpperCase()
    .refine(isCountryCode, 'vesselFlag must be an ISO 3166-1 alpha-2 country code, e.g. NL')
    .optional(),
  vesselCallSignNumber: text('vesselCallSignNumber', 10).optional(),
  vesselOperatorCarrierCode: text('vesselOperatorCarrierCode', 10).optional(),
  vesselOperatorCarrierCodeListProvider: code(
    'vesselOperatorCarrierCodeListProvider',
    CARRIER_CODE_LIST_PROVIDERS,
  ).optional(),
});

export const dcsaTransportCallSchema = z.strictObject(
  {
    transportCallID: text('transportCallID', 100).optional(),
    transportCallReference: text('transportCallReference', 100).optional(),
    carrierServiceCode: text('carrierServiceCode', 11).optional(),
    carrierVoyageNumber: text('carrierVoyageNumber', 50).optional(),
    exportVoyageNumber: text('exportVoyageNumber', 50).optional(),
    importVoyageNumber: text('importVoyageNumber', 50).optional(),
    transportCallSequenceNumber: z
      .union(
        [
          z.number(),
          z
            .string()
            .trim()
            .regex(/^\d{1,7}$/)
            .transform(Number),
        ],
        {
          error: 'transportCallSequenceNumber must be a whole number',
        },
      )
      .pipe(
        z
          .number()
          .int('transportCallSequenceNumber must be a whole number')
          .min(0, 'transportCallSequenceNumber cannot be negative')
          .max(1_000_000, 'transportCallSequenceNumber is at most 1000000'),
      )
      .optional(),
    UNLocationCode: unLocationCode('UNLocationCode').optional(),
    facilityCode: text('facilityCode', 6).optional(),
    facilityCodeListProvider: code('facilityCodeListProvider', FACILITY_CODE_LIST_PROVIDERS).optional(),
    facilityTypeCode: code('facilityTypeCode', FACILITY_TYPE_CODES).optional(),
    otherFacility: text('otherFacility', 50).optional(),
    modeOfTransport: code('modeOfTransport', MODES_OF_TRANSPORT),
    location: dcsaLocationSchema.optional(),
    vessel: dcsaVesselSchema.optional(),
  },
  { error: required('transportCall', 'must be an object') },
);
export type DcsaTransportCall = z.output<typeof dcsaTransportCallSchema>;

export const dcsaDocumentReferenceSchema = z.strictObject({
  documentReferenceType: code('documentReferenceType', DOCUMENT_REFERENCE_TYPES),
  documentReferenceValue: text('documentReferenceValue', 100),
});

export const dcsaReferenceSchema = z.strictObject({
  referenceType: code('referenceType', REFERENCE_TYPES),
  referenceValue: text('referenceValue', 100),
});

export const dcsaSealSchema = z.strictObject({
  sealNumber: text('sealNumber', 15),
  sealSource: code('sealSource', SEAL_SOURCES).optional(),
  sealType: code('sealType', SEAL_TYPES).optional(),
});

/** DCSA eventIDs are UUIDs; kept lower case so that the idempotency key ignores case. */
const eventID = z
  .string({ error: required('eventID', 'must be a UUID (it is the idempotency key)') })
  .trim()
  .toLowerCase()
  .pipe(
    z.uuid({
      error: 'eventID must be a UUID, e.g. 3cecb101-7a1a-43a4-9d62-e88a131651e2 (it is the idempotency key)',
    }),
  );

const common = {
  eventID,
  eventClassifierCode: code('eventClassifierCode', EVENT_CLASSIFIER_CODES),
  eventDateTime: dateTime('eventDateTime'),
  eventCreatedDateTime: dateTime('eventCreatedDateTime'),
  references: z.array(dcsaReferenceSchema).max(50, 'At most 50 references').optional(),
};

export const dcsaEquipmentEventSchema = z.strictObject({
  eventType: z.literal('EQUIPMENT'),
  ...common,
  equipmentEventTypeCode: code('equipmentEventTypeCode', EQUIPMENT_EVENT_TYPE_CODES),
  equipmentReference: equipmentReferenceSchema,
  ISOEquipmentCode: isoEquipmentCode.optional(),
  emptyIndicatorCode: code('emptyIndicatorCode', EMPTY_INDICATOR_CODES),
  transportCall: dcsaTransportCallSchema.optional(),
  eventLocation: dcsaLocationSchema.optional(),
  documentReferences: z.array(dcsaDocumentReferenceSchema).max(50).optional(),
  seals: z.array(dcsaSealSchema).max(20).optional(),
  /** Deprecated by DCSA (the transportCall carries it); accepted and kept. */
  transportCallID: text('transportCallID', 100).optional(),
});

export const dcsaTransportEventSchema = z.strictObject({
  eventType: z.literal('TRANSPORT'),
  ...common,
  transportEventTypeCode: code('transportEventTypeCode', TRANSPORT_EVENT_TYPE_CODES),
  transportCall: dcsaTransportCallSchema,
  delayReasonCode: text('delayReasonCode', 3).optional(),
  changeRemark: text('changeRemark', 250).optional(),
  vesselScheduleChangeRemark: text('vesselScheduleChangeRemark', 250).optional(),
  documentReferences: z.array(dcsaDocumentReferenceSchema).max(50).optional(),
  transportCallID: text('transportCallID', 100).optional(),
});

export const dcsaShipmentEventSchema = z.strictObject({
  eventType: z.literal('SHIPMENT'),
  ...common,
  shipmentEventTypeCode: code('shipmentEventTypeCode', SHIPMENT_EVENT_TYPE_CODES),
  documentTypeCode: code('documentTypeCode', DOCUMENT_TYPE_CODES),
  documentID: text('documentID', 100),
  reason: text('reason', 250).optional(),
});

/** Hours an actual (ACT) event may lie after its creation: clocks drift, the future is not actual. */
export const ACT_FUTURE_TOLERANCE_HOURS = 24;

/** One DCSA T&T event, discriminated by `eventType`. */
export const dcsaEventSchema = z
  .discriminatedUnion(
    'eventType',
    [dcsaEquipmentEventSchema, dcsaTransportEventSchema, dcsaShipmentEventSchema],
    {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? `eventType must be one of ${DCSA_EVENT_TYPES.join(', ')}`
          : undefined,
    },
  )
  .superRefine((e, ctx) => {
    if (
      e.eventClassifierCode === 'ACT' &&
      Date.parse(e.eventDateTime) >
        Date.parse(e.eventCreatedDateTime) + ACT_FUTURE_TOLERANCE_HOURS * 3_600_000
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['eventDateTime'],
        message:
          'eventDateTime of an actual (ACT) event cannot lie after eventCreatedDateTime; use EST or PLN for the future',
        params: issueParams('act_after_recorded'),
      });
    }
  });
export type DcsaEvent = z.output<typeof dcsaEventSchema>;
export type DcsaEventInput = z.input<typeof dcsaEventSchema>;
export type DcsaEquipmentEvent = z.output<typeof dcsaEquipmentEventSchema>;
export type DcsaTransportEvent = z.output<typeof dcsaTransportEventSchema>;
export type DcsaShipmentEvent = z.output<typeof dcsaShipmentEventSchema>;

/** The type code of an event, whichever of the three fields carries it. */
export function eventTypeCodeOf(e: DcsaEvent): EventTypeCode {
  switch (e.eventType) {
    case 'EQUIPMENT':
      return e.equipmentEventTypeCode;
    case 'TRANSPORT':
      return e.transportEventTypeCode;
    case 'SHIPMENT':
      return e.shipmentEventTypeCode;
  }
}

/**
 * The booking and bill-of-lading values an event names, upper case: what links it to a dossier's
 * booking number, master BL or house BL.
 */
export function linkReferencesOf(e: DcsaEvent): string[] {
  const values = new Set<string>();
  if ('documentReferences' in e)
    for (const r of e.documentReferences ?? []) values.add(r.documentReferenceValue);
  for (const r of e.references ?? []) {
    if (r.referenceType === 'BKG' || r.referenceType === 'TRD') values.add(r.referenceValue);
  }
  if (e.eventType === 'SHIPMENT' && (e.documentTypeCode === 'BKG' || e.documentTypeCode === 'TRD'))
    values.add(e.documentID);
  return [...values].map((v) => v.toUpperCase());
}

/**
 * The container an event concerns: the `equipmentReference` of an equipment event; for the others a
 * valid ISO 6346 number among the `EQ` references, if any.
 */
export function containerOf(e: DcsaEvent): string | null {
  if (e.eventType === 'EQUIPMENT') return e.equipmentReference;
  for (const r of e.references ?? []) {
    if (r.referenceType !== 'EQ') continue;
    const n = normalizeContainerNumber(r.referenceValue);
    if (!containerNumberProblem(n)) return n;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Ingest: POST /api/container-events
// ---------------------------------------------------------------------------------------------

export const INGEST_STATUSES = ['created', 'duplicate', 'invalid'] as const;

export const ingestResultSchema = z.object({
  /** Position of the event in the request (0 for a single event). */
  index: z.number().int(),
  /** The eventID as sent (lower case), or null when it was missing. */
  eventID: z.string().nullable(),
  status: z.enum(INGEST_STATUSES),
  /** Our id of a created event. */
  id: z.string().optional(),
  /** Paths relative to the event, e.g. `transportCall.UNLocationCode`. */
  errors: z.array(fieldErrorSchema).optional(),
});
export type IngestResult = z.infer<typeof ingestResultSchema>;

export const ingestResponseSchema = z.object({
  created: z.number().int(),
  duplicates: z.number().int(),
  invalid: z.number().int(),
  results: z.array(ingestResultSchema),
});
export type IngestResponse = z.infer<typeof ingestResponseSchema>;

// ---------------------------------------------------------------------------------------------
// CSV import: POST /api/container-events/import?mode=preview|commit&validRowsOnly=
// ---------------------------------------------------------------------------------------------

/**
 * Columns of the CSV import (header row, any order, case-insensitive; comma or semicolon separated).
 * `eventType` may be left out when one of the three type-code columns says it; `eventID` may be left
 * out (then derived from the row, so importing the same file twice stores nothing new);
 * `eventCreatedDateTime` defaults to the time of the import. `carrierBookingReference` and
 * `transportDocumentReference` become documentReferences BKG and TRD.
 */
export const CSV_IMPORT_COLUMNS = [
  'eventID',
  'eventType',
  'eventClassifierCode',
  'eventDateTime',
  'eventCreatedDateTime',
  'equipmentEventTypeCode',
  'transportEventTypeCode',
  'shipmentEventTypeCode',
  'equipmentReference',
  'ISOEquipmentCode',
  'emptyIndicatorCode',
  'documentTypeCode',
  'documentID',
  'modeOfTransport',
  'UNLocationCode',
  'facilityCode',
  'facilityTypeCode',
  'vesselIMONumber',
  'vesselName',
  'vesselFlag',
  'vesselCallSignNumber',
  'carrierVoyageNumber',
  'exportVoyageNumber',
  'importVoyageNumber',
  'transportCallSequenceNumber',
  'carrierBookingReference',
  'transportDocumentReference',
] as const;
export type CsvImportColumn = (typeof CSV_IMPORT_COLUMNS)[number];

export const MAX_CSV_IMPORT_ROWS = 20_000;

export const csvImportQuerySchema = z.object({
  mode: z.enum(['preview', 'commit']).default('preview'),
  validRowsOnly: queryBoolean.default(false),
});

export const csvImportRowSchema = z.object({
  /** Line number in the file (the header is line 1). */
  row: z.number().int(),
  eventID: z.string().nullable(),
  equipmentReference: z.string().nullable(),
  /** `valid` in a preview; `created`/`skipped` after a commit (skipped: invalid, left out). */
  status: z.enum(['valid', 'created', 'duplicate', 'invalid', 'skipped']),
  /** Field is the CSV column. */
  errors: z.array(fieldErrorSchema).optional(),
});
export type CsvImportRow = z.infer<typeof csvImportRowSchema>;

export const csvImportResponseSchema = z.object({
  mode: z.enum(['preview', 'commit']),
  committed: z.boolean(),
  total: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  duplicates: z.number().int(),
  created: z.number().int(),
  rows: z.array(csvImportRowSchema),
});
export type CsvImportResponse = z.infer<typeof csvImportResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Stored events as the API answers them (plain shapes: no transforms in responses)
// ---------------------------------------------------------------------------------------------

const str = z.string();
const locationOut = z.object({
  locationID: str.optional(),
  locationName: str.optional(),
  latitude: str.optional(),
  longitude: str.optional(),
  UNLocationCode: str.optional(),
  facilityCode: str.optional(),
  facilityCodeListProvider: str.optional(),
  address: z.record(z.string(), z.string()).optional(),
});
const transportCallOut = z.object({
  transportCallID: str.optional(),
  transportCallReference: str.optional(),
  carrierServiceCode: str.optional(),
  carrierVoyageNumber: str.optional(),
  exportVoyageNumber: str.optional(),
  importVoyageNumber: str.optional(),
  transportCallSequenceNumber: z.number().int().optional(),
  UNLocationCode: str.optional(),
  facilityCode: str.optional(),
  facilityCodeListProvider: str.optional(),
  facilityTypeCode: z.enum(FACILITY_TYPE_CODES).optional(),
  otherFacility: str.optional(),
  modeOfTransport: z.enum(MODES_OF_TRANSPORT),
  location: locationOut.optional(),
  vessel: z
    .object({
      vesselIMONumber: str.optional(),
      vesselName: str.optional(),
      vesselFlag: str.optional(),
      vesselCallSignNumber: str.optional(),
      vesselOperatorCarrierCode: str.optional(),
      vesselOperatorCarrierCodeListProvider: str.optional(),
    })
    .optional(),
});

export const dossierLinkSchema = z.object({ id: z.string(), number: z.string() });

export const containerEventSchema = z.object({
  /** Our id (the DCSA eventID is `eventID`). */
  id: z.string(),
  eventID: z.string(),
  eventType: z.enum(DCSA_EVENT_TYPES),
  eventClassifierCode: z.enum(EVENT_CLASSIFIER_CODES),
  /** As sent, with its offset: the local time at the place of the event. */
  eventDateTime: z.string(),
  eventCreatedDateTime: z.string(),
  equipmentEventTypeCode: z.enum(EQUIPMENT_EVENT_TYPE_CODES).nullable(),
  transportEventTypeCode: z.enum(TRANSPORT_EVENT_TYPE_CODES).nullable(),
  shipmentEventTypeCode: z.enum(SHIPMENT_EVENT_TYPE_CODES).nullable(),
  /** The container; for transport and shipment events the `EQ` reference, if any. */
  equipmentReference: z.string().nullable(),
  ISOEquipmentCode: z.string().nullable(),
  emptyIndicatorCode: z.enum(EMPTY_INDICATOR_CODES).nullable(),
  documentTypeCode: z.enum(DOCUMENT_TYPE_CODES).nullable(),
  documentID: z.string().nullable(),
  transportCall: transportCallOut.nullable(),
  eventLocation: locationOut.nullable(),
  documentReferences: z.array(z.object({ documentReferenceType: str, documentReferenceValue: str })),
  references: z.array(z.object({ referenceType: str, referenceValue: str })),
  /** Where it happened: the transport call's UN/LOCODE, else the event location's. */
  UNLocationCode: z.string().nullable(),
  dossier: dossierLinkSchema.nullable(),
  source: z.enum(CONTAINER_EVENT_SOURCES),
  receivedAt: z.string(),
});
export type ContainerEvent = z.infer<typeof containerEventSchema>;

/** A timeline entry: planned and estimated events say whether a later one replaced them. */
export const timelineEventSchema = containerEventSchema.extend({
  /** A later estimate or plan, or the actual event, exists for the same step. */
  superseded: z.boolean(),
  /** The eventDateTime of the estimate or plan this one replaced (an ETA change), if it differed. */
  previousEventDateTime: z.string().nullable(),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;

export const MAX_TIMELINE_EVENTS = 1000;

export const timelineQuerySchema = z.object({
  /** Only the events linked to this dossier. */
  dossierId: uuidSchema.optional(),
  limit: queryInt({ min: 1, max: MAX_TIMELINE_EVENTS }).default(500),
});

/** Events ordered by eventDateTime (oldest first); the latest `limit` when there are more. */
export const containerTimelineSchema = z.object({
  containerNumber: z.string(),
  items: z.array(timelineEventSchema),
  truncated: z.boolean(),
});
export type ContainerTimeline = z.infer<typeof containerTimelineSchema>;

export const dossierEventsSchema = z.object({
  dossierId: z.string(),
  items: z.array(timelineEventSchema),
  truncated: z.boolean(),
});
export type DossierEvents = z.infer<typeof dossierEventsSchema>;

function codeList<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim().toUpperCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values)).max(20));
}

/**
 * A container in the list: one row per container and dossier (a container number is reused from
 * voyage to voyage), plus one for its events no dossier claims yet. The latest event is the latest
 * actual one; a container with only planned or estimated events shows the latest of those.
 */
export const containerSummarySchema = z.object({
  id: z.string(),
  containerNumber: z.string(),
  ISOEquipmentCode: z.string().nullable(),
  dossier: dossierLinkSchema.extend({ customer: partyRefSchema }).nullable(),
  /** The type code of the latest event, e.g. DISC. */
  status: z.enum(EVENT_TYPE_CODES),
  emptyIndicatorCode: z.enum(EMPTY_INDICATOR_CODES).nullable(),
  location: z
    .object({
      UNLocationCode: z.string().nullable(),
      facilityCode: z.string().nullable(),
      facilityTypeCode: z.enum(FACILITY_TYPE_CODES).nullable(),
    })
    .nullable(),
  eventCount: z.number().int(),
  lastEventAt: z.string(),
  updatedAt: z.string(),
  latestEvent: containerEventSchema,
});
export type ContainerSummary = z.infer<typeof containerSummarySchema>;

export const containerListQuerySchema = listQueryBaseSchema.extend({
  dossierId: uuidSchema.optional(),
  /** The DCSA eventType of the latest event. */
  eventType: codeList(DCSA_EVENT_TYPES).optional(),
  /** The type code of the latest event (status), e.g. DISC,GTOT. */
  status: codeList(EVENT_TYPE_CODES).optional(),
  /** The latest event happened at or after / at or before this instant (the dashboard's last 24 hours). */
  from: instant.optional(),
  to: instant.optional(),
});
export type ContainerListQuery = z.infer<typeof containerListQuerySchema>;

/**
 * The dossier statuses that capture carrier events (ADR 0015): confirmed and not finished. A
 * `requested` booking is a customer's claim staff have not confirmed; closed and cancelled dossiers
 * are done. A delivered one still captures: the empty container's return follows the delivery.
 */
export const EVENT_LINKING_STATUSES = [
  'booked',
  'in_transit',
  'arrived',
  'cleared',
  'delivered',
] as const satisfies readonly DossierStatus[];

/**
 * What the linking rule says about an unlinked event now: no dossier claims it, several claim it
 * equally (staff decide), or exactly one does (it gained the container or was confirmed after the
 * event arrived, or staff unlinked the event by hand): that one is the suggestion.
 */
export const UNLINKED_REASONS = ['unmatched', 'ambiguous', 'matched'] as const;
export type UnlinkedReason = (typeof UNLINKED_REASONS)[number];

/** A dossier that claims an event, with its customer (staff compare the parties when they decide). */
export const linkCandidateSchema = dossierLinkSchema.extend({ customer: partyRefSchema });
export type LinkCandidate = z.infer<typeof linkCandidateSchema>;

/** An event no dossier claims: why, the dossiers that claim it now, and the one to suggest (if one). */
export const unlinkedEventSchema = containerEventSchema.extend({
  reason: z.enum(UNLINKED_REASONS),
  /** The only dossier the rule links it to now; null when none or several claim it. */
  suggestedDossier: dossierLinkSchema.nullable(),
  /** Every dossier that claims it now, by dossier number: one when matched, several when ambiguous. */
  candidates: z.array(linkCandidateSchema),
});
export type UnlinkedEvent = z.infer<typeof unlinkedEventSchema>;

export const unlinkedListQuerySchema = listQueryBaseSchema.extend({
  eventType: codeList(DCSA_EVENT_TYPES).optional(),
});
export type UnlinkedListQuery = z.infer<typeof unlinkedListQuerySchema>;

/**
 * A customer sees every field of their events, but not staff linking them by hand: a link's change
 * names the dossier it came from or went to, which may be another party's.
 */
export const containerEventFieldVisibility = {
  internal: [],
  internalActions: ['linked', 'unlinked'],
} as const satisfies FieldVisibility;

/** Link an event to a dossier by hand (id or number), or unlink it (null). */
export const containerEventLinkSchema = z.strictObject({
  dossierId: z.string().trim().min(1, 'Choose a dossier').max(64).nullable(),
  /**
   * Also link the container's other unlinked events that belong to this dossier's voyage: those in its
   * window (ADR 0015) that no other active dossier claims. Other voyages' and contested events stay.
   */
  applyToContainer: z.boolean().default(false),
});
export type ContainerEventLink = z.input<typeof containerEventLinkSchema>;

export const containerEventLinkResponseSchema = z.object({
  /** The events whose link changed (the one addressed first). */
  linked: z.array(containerEventSchema),
  /** The container's events still unlinked afterwards (other voyages', contested ones); 0 without a container. */
  leftUnlinked: z.number().int().nonnegative(),
});
export type ContainerEventLinkResult = z.infer<typeof containerEventLinkResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Integration API keys (admin): POST/GET /api/integration-keys, DELETE /api/integration-keys/{id}
// ---------------------------------------------------------------------------------------------

/** Every key starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const INTEGRATION_KEY_PREFIX = 'fvg_';

export const integrationKeyCreateSchema = z.strictObject({
  name: z.string().trim().min(1, 'Name the integration, e.g. "Terminal ECT feed"').max(100),
});

export const integrationKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the key, to tell keys apart; the key itself is never shown again. */
  prefix: z.string(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type IntegrationKey = z.infer<typeof integrationKeySchema>;

/** The answer of a create: the only time the key is shown. */
export const integrationKeyCreatedSchema = integrationKeySchema.extend({ key: z.string() });
export type IntegrationKeyCreated = z.infer<typeof integrationKeyCreatedSchema>;
