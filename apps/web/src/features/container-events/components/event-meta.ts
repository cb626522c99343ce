import {
  type ContainerEvent,
  DCSA_EVENT_TYPES,
  type DcsaEventType,
  EMPTY_INDICATOR_CODES,
  type EmptyIndicatorCode,
  EQUIPMENT_EVENT_TYPE_CODES,
  EQUIPMENT_EVENT_TYPE_LABELS,
  EVENT_CLASSIFIER_LABELS,
  type EventTypeCode,
  FACILITY_TYPE_LABELS,
  type ModeOfTransport,
  SHIPMENT_EVENT_TYPE_CODES,
  SHIPMENT_EVENT_TYPE_LABELS,
  TRANSPORT_EVENT_TYPE_CODES,
  TRANSPORT_EVENT_TYPE_LABELS,
  type UnlinkedEvent,
} from '@fvg/contracts';
import { formatDateTime, formatWallDateTime } from '../../../lib/format-date.ts';

/** Every type code's label (the contracts' maps together): the `status` of a container is one of them. */
export const EVENT_TYPE_LABELS: Record<EventTypeCode, string> = {
  ...EQUIPMENT_EVENT_TYPE_LABELS,
  ...TRANSPORT_EVENT_TYPE_LABELS,
  ...SHIPMENT_EVENT_TYPE_LABELS,
};

export const EVENT_KIND_LABELS: Record<DcsaEventType, string> = {
  EQUIPMENT: 'Equipment',
  TRANSPORT: 'Transport',
  SHIPMENT: 'Shipment',
};
export const EVENT_KIND_OPTIONS = DCSA_EVENT_TYPES.map((t) => ({ value: t, label: EVENT_KIND_LABELS[t] }));

/** The statuses a container can have, equipment moves first (what a list is filtered by most). */
export const STATUS_OPTIONS = [
  ...EQUIPMENT_EVENT_TYPE_CODES,
  ...TRANSPORT_EVENT_TYPE_CODES,
  ...SHIPMENT_EVENT_TYPE_CODES,
].map((code) => ({ value: code, label: `${EVENT_TYPE_LABELS[code]} (${code})` }));

export const EMPTY_LABELS: Record<EmptyIndicatorCode, string> = { EMPTY: 'Empty', LADEN: 'Laden' };
export const EMPTY_OPTIONS = EMPTY_INDICATOR_CODES.map((c) => ({ value: c, label: EMPTY_LABELS[c] }));

export const MODE_LABELS: Record<ModeOfTransport, string> = {
  VESSEL: 'Vessel',
  RAIL: 'Rail',
  TRUCK: 'Truck',
  BARGE: 'Barge',
};

export { EVENT_CLASSIFIER_LABELS as CLASSIFIER_LABELS };

type EventCodes = Pick<
  ContainerEvent,
  'equipmentEventTypeCode' | 'transportEventTypeCode' | 'shipmentEventTypeCode'
>;

/** The type code of a stored event, whichever of the three fields carries it. */
export function typeCodeOf(e: EventCodes): EventTypeCode | null {
  return e.equipmentEventTypeCode ?? e.transportEventTypeCode ?? e.shipmentEventTypeCode;
}

/** 'Gated in', 'Arrived', 'Issued'…; the code itself for a code this version does not know. */
export function eventLabel(e: EventCodes): string {
  const code = typeCodeOf(e);
  return code ? (EVENT_TYPE_LABELS[code] ?? code) : '—';
}

const PLACE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * An event's time as every other time of the app shows: in the reader's zone, the profile's (issue 27
 * item 7). The place's own wall time is `formatPlaceTime`, shown beside it where it helps.
 */
export function formatEventTime(value: string | null | undefined): string {
  return value ? formatDateTime(value) : '—';
}

/**
 * A DCSA date-time as the event sent it: the local time at the place of the event with its offset
 * ('20 Mar 2026, 08:00 UTC+01:00'), what the terminal's own papers say; anything else falls back to
 * the reader's local time.
 */
export function formatPlaceTime(value: string | null | undefined): string {
  if (!value) return '—';
  const match = PLACE_TIME.exec(value.trim());
  if (!match) return formatDateTime(value);
  const [, date = '', time = '', zone = 'Z'] = match;
  const offset = zone.toUpperCase() === 'Z' || /^[+-]00:?00$/.test(zone) ? '' : zone;
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  const wall = {
    year: year ?? 0,
    month: month ?? 1,
    day: day ?? 1,
    hour: hour ?? 0,
    minute: minute ?? 0,
    second: 0,
  };
  return `${formatWallDateTime(wall)} UTC${offset}`;
}

/** Where the event happened: UN/LOCODE, facility (code and type) and the place's name, as known. */
export function placeOf(e: Pick<ContainerEvent, 'UNLocationCode' | 'transportCall' | 'eventLocation'>): {
  locode: string | null;
  facility: string | null;
  name: string | null;
} {
  const call = e.transportCall;
  const facilityCode = call?.facilityCode ?? e.eventLocation?.facilityCode ?? null;
  const facilityType = call?.facilityTypeCode ? FACILITY_TYPE_LABELS[call.facilityTypeCode] : null;
  const facility =
    [facilityCode, facilityType && (facilityCode ? `(${facilityType})` : facilityType)]
      .filter(Boolean)
      .join(' ') ||
    (call?.otherFacility ?? null);
  return {
    locode: e.UNLocationCode,
    facility,
    name: e.eventLocation?.locationName ?? call?.location?.locationName ?? null,
  };
}

/** 'NLRTM · ECTDE (Port terminal)'; '—' when the event names no place. */
export function placeText(e: Pick<ContainerEvent, 'UNLocationCode' | 'transportCall' | 'eventLocation'>) {
  const p = placeOf(e);
  return [p.locode, p.facility, p.name].filter(Boolean).join(' · ') || '—';
}

/** 'MAERSK EMDEN (IMO 9321483) · voyage 123W', for the events that travel on a vessel or other carrier. */
export function vesselText(e: Pick<ContainerEvent, 'transportCall'>): string | null {
  const call = e.transportCall;
  if (!call) return null;
  const v = call.vessel;
  const vessel = v?.vesselName
    ? `${v.vesselName}${v.vesselIMONumber ? ` (IMO ${v.vesselIMONumber})` : ''}`
    : v?.vesselIMONumber
      ? `IMO ${v.vesselIMONumber}`
      : null;
  const voyage = call.carrierVoyageNumber ?? call.exportVoyageNumber ?? call.importVoyageNumber;
  const parts = [vessel, voyage ? `voyage ${voyage}` : null].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

/**
 * What a moved plan or estimate is called: ETA for arrivals, ETD for departures, the time of the step
 * otherwise.
 */
export function milestoneName(e: EventCodes & Pick<ContainerEvent, 'eventClassifierCode'>): string {
  const planned = e.eventClassifierCode === 'PLN';
  if (e.transportEventTypeCode === 'ARRI') return planned ? 'Planned arrival' : 'ETA';
  if (e.transportEventTypeCode === 'DEPA') return planned ? 'Planned departure' : 'ETD';
  return planned ? 'Planned time' : 'Estimated time';
}

/** A dossier that claims an event, as staff read it: its number and its customer's code. */
const candidateText = (c: UnlinkedEvent['candidates'][number]) => `${c.number} (${c.customer.code})`;

/**
 * Why an event waits for staff, in words (ADR 0015): no active dossier names it within its dates,
 * several do (staff choose), or one does now (it gained the container or was confirmed later).
 */
export function unlinkedReasonText(e: Pick<UnlinkedEvent, 'reason' | 'candidates'>): string {
  switch (e.reason) {
    case 'matched':
      return `${e.candidates.map(candidateText).join('')} matches this event now.`;
    case 'ambiguous':
      return `Ambiguous: ${e.candidates.length} dossiers claim this event (${e.candidates.map(candidateText).join(', ')}). Choose one.`;
    case 'unmatched':
      return 'No active dossier names its container, booking or BL within its dates.';
  }
}
