import type { TimelineEvent, UnlinkedEvent } from '@fvg/contracts';

/* Events as the API answers them, for the component tests of this area. */

export const CONTAINER = 'MSKU6011672';
export const DOSSIER = { id: '5d0c1a52-7c1e-4a0e-8f0e-1b2c3d4e5f60', number: 'D-2026-000042' };
/** DOSSIER as a dossier claiming an event, with its customer. */
export const CANDIDATE = {
  ...DOSSIER,
  customer: { id: '0c7a1e52-7c1e-4a0e-8f0e-1b2c3d4e5f61', code: 'ACME', name: 'Acme Trading BV' },
};

let serial = 0;

export function timelineEvent(over: Partial<TimelineEvent> = {}): TimelineEvent {
  serial += 1;
  const n = String(serial).padStart(12, '0');
  return {
    id: `0190a000-0000-7000-8000-${n}`,
    eventID: `3cecb101-7a1a-43a4-9d62-${n}`,
    eventType: 'EQUIPMENT',
    eventClassifierCode: 'ACT',
    eventDateTime: '2026-03-01T10:00:00Z',
    eventCreatedDateTime: '2026-03-01T10:05:00Z',
    equipmentEventTypeCode: 'GTIN',
    transportEventTypeCode: null,
    shipmentEventTypeCode: null,
    equipmentReference: CONTAINER,
    ISOEquipmentCode: '22G1',
    emptyIndicatorCode: 'LADEN',
    documentTypeCode: null,
    documentID: null,
    transportCall: null,
    eventLocation: null,
    documentReferences: [],
    references: [],
    UNLocationCode: 'NLRTM',
    dossier: DOSSIER,
    source: 'api',
    receivedAt: '2026-03-01T10:06:00.000Z',
    superseded: false,
    previousEventDateTime: null,
    ...over,
  };
}

/** A vessel arrival (ETA) found through the bill of lading: no container of its own. */
export function arrival(over: Partial<TimelineEvent> = {}): TimelineEvent {
  return timelineEvent({
    eventType: 'TRANSPORT',
    eventClassifierCode: 'EST',
    equipmentEventTypeCode: null,
    transportEventTypeCode: 'ARRI',
    equipmentReference: null,
    ISOEquipmentCode: null,
    emptyIndicatorCode: null,
    UNLocationCode: 'CNSHA',
    transportCall: {
      modeOfTransport: 'VESSEL',
      UNLocationCode: 'CNSHA',
      facilityCode: 'SHYSH',
      facilityTypeCode: 'POTE',
      carrierVoyageNumber: '2107W',
      vessel: { vesselName: 'MAERSK EMDEN', vesselIMONumber: '9321483' },
    },
    ...over,
  });
}

export function unlinkedEvent(over: Partial<UnlinkedEvent> = {}): UnlinkedEvent {
  const { superseded: _s, previousEventDateTime: _p, ...event } = timelineEvent({ dossier: null });
  return { ...event, reason: 'unmatched', suggestedDossier: null, candidates: [], ...over };
}
