import { randomUUID } from 'node:crypto';
import type { Json } from '../../test/helpers.ts';

/** A valid DCSA T&T 2.2 gate-in of `container` with a fresh eventID; `over` replaces fields. */
export function gateIn(container: string, over: Json = {}): Json {
  return {
    eventID: randomUUID(),
    eventType: 'EQUIPMENT',
    eventClassifierCode: 'ACT',
    eventDateTime: '2026-03-01T14:12:56+01:00',
    eventCreatedDateTime: '2026-03-01T14:20:00+01:00',
    equipmentEventTypeCode: 'GTIN',
    equipmentReference: container,
    ISOEquipmentCode: '45G1',
    emptyIndicatorCode: 'LADEN',
    transportCall: {
      modeOfTransport: 'TRUCK',
      UNLocationCode: 'NLRTM',
      facilityCode: 'ECTDE',
      facilityTypeCode: 'POTE',
    },
    ...over,
  };
}
