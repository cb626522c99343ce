import { randomUUID } from 'node:crypto';

const STEPS = ['GTIN', 'LOAD', 'DISC', 'GTOT'] as const;

/**
 * `n` new DCSA equipment events (fresh eventIDs, so every batch really inserts) for containers that
 * exist in the seeded dossiers, so each event is linked to its dossier as a real feed's would be.
 */
export function dcsaEvents(n: number, containers: readonly string[], seq: number): Record<string, unknown>[] {
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => {
    const k = seq * n + i;
    const step = STEPS[k % STEPS.length] as string;
    const at = new Date(now - ((k % 5000) + 60) * 60_000).toISOString();
    return {
      eventID: randomUUID(),
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      eventDateTime: at,
      eventCreatedDateTime: at,
      equipmentEventTypeCode: step,
      equipmentReference: containers[k % containers.length],
      ISOEquipmentCode: '45G1',
      emptyIndicatorCode: 'LADEN',
      transportCall: {
        modeOfTransport: step === 'LOAD' || step === 'DISC' ? 'VESSEL' : 'TRUCK',
        UNLocationCode: 'NLRTM',
        facilityTypeCode: step === 'LOAD' || step === 'DISC' ? 'POTE' : 'DEPO',
      },
    };
  });
}
