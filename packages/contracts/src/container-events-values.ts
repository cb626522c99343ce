/**
 * The container events values that screens and the router read without the schemas (no zod here:
 * importing a value must not pull in the area's schemas; ADR 0023).
 */

export const DCSA_EVENT_TYPES = ['EQUIPMENT', 'TRANSPORT', 'SHIPMENT'] as const;

export const EQUIPMENT_EVENT_TYPE_CODES = [
  'LOAD',
  'DISC',
  'GTIN',
  'GTOT',
  'STUF',
  'STRP',
  'PICK',
  'DROP',
  'INSP',
  'RSEA',
  'RMVD',
] as const;

export const TRANSPORT_EVENT_TYPE_CODES = ['ARRI', 'DEPA'] as const;

export const SHIPMENT_EVENT_TYPE_CODES = [
  'RECE',
  'DRFT',
  'PENA',
  'PENU',
  'REJE',
  'APPR',
  'ISSU',
  'SURR',
  'SUBM',
  'VOID',
  'CONF',
  'REQS',
  'CMPL',
  'HOLD',
  'RELS',
] as const;

/** Every type code of every event type (the `status` of a container is one of them). */
export const EVENT_TYPE_CODES = [
  ...EQUIPMENT_EVENT_TYPE_CODES,
  ...TRANSPORT_EVENT_TYPE_CODES,
  ...SHIPMENT_EVENT_TYPE_CODES,
] as const;

export const CONTAINER_SORT_FIELDS = ['containerNumber', 'lastEventAt'] as const;

export const UNLINKED_SORT_FIELDS = ['eventDateTime', 'receivedAt'] as const;
