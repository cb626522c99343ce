import { type DcsaEventInput, dcsaEventSchema, EVENT_LINKING_STATUSES } from '@fvg/contracts';
import { containerEventsRepository } from '../../features/container-events/container-events.repository.ts';
import { toNewEvent } from '../../features/container-events/container-events.service.ts';
import { type DemoContext, type DemoDossier, onDay, uuidFrom, valid } from './context.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A container's voyage: empty out, gate in, load, discharge, out to the consignee, empty back. */
const STEPS = [
  { code: 'GTOT', at: 'origin', day: -4, hour: 10, empty: 'EMPTY', mode: 'TRUCK', facility: 'DEPO' },
  { code: 'GTIN', at: 'origin', day: -2, hour: 14, empty: 'LADEN', mode: 'TRUCK', facility: 'POTE' },
  { code: 'LOAD', at: 'origin', day: 0, hour: 6, empty: 'LADEN', mode: 'VESSEL', facility: 'POTE' },
  { code: 'DISC', at: 'destination', day: 0, hour: 8, empty: 'LADEN', mode: 'VESSEL', facility: 'POTE' },
  { code: 'GTOT', at: 'destination', day: 2, hour: 10, empty: 'LADEN', mode: 'TRUCK', facility: 'POTE' },
  { code: 'GTIN', at: 'destination', day: 4, hour: 15, empty: 'EMPTY', mode: 'TRUCK', facility: 'DEPO' },
] as const;

/**
 * DCSA equipment events for the containers of the sea dossiers that capture events: the plan sent at
 * booking, estimates for the vessel moves still ahead, actuals for what happened. One container's
 * arrival estimate moved: its first estimate was replaced by a later one two days on.
 */
export async function seedContainerEvents(ctx: DemoContext): Promise<{ events: number; etaChanged: string }> {
  const repo = containerEventsRepository(ctx.db);
  const active = new Set<string>(EVENT_LINKING_STATUSES);
  const dossiers = ctx.dossiers.filter((d) => d.vessel && d.containers.length && active.has(d.status));
  const delayed = dossiers.find((d) => d.status === 'in_transit')?.containers[0]?.number;
  if (!delayed) throw new Error('demo company: no sea dossier under way for the changed ETA');
  const now = ctx.now.getTime();
  const events: DcsaEventInput[] = [];
  for (const d of dossiers) {
    const vessel = d.vessel as NonNullable<DemoDossier['vessel']>;
    const booking = d.bookingNumber
      ? [{ documentReferenceType: 'BKG' as const, documentReferenceValue: d.bookingNumber }]
      : [];
    const planned = Math.min(d.createdAt.getTime() + HOUR, now - 2 * DAY);
    for (const c of d.containers) {
      STEPS.forEach((s, i) => {
        const day = s.at === 'origin' ? d.etd : d.eta;
        const time = onDay(day, s.hour).getTime() + s.day * DAY;
        const base = {
          eventType: 'EQUIPMENT' as const,
          equipmentEventTypeCode: s.code,
          equipmentReference: c.number,
          ISOEquipmentCode: c.sizeType,
          emptyIndicatorCode: s.empty,
          transportCall: {
            modeOfTransport: s.mode,
            UNLocationCode: s.at === 'origin' ? d.origin : d.destination,
            facilityTypeCode: s.facility,
            ...(s.mode === 'VESSEL'
              ? {
                  carrierVoyageNumber: vessel.voyage,
                  vessel: { vesselIMONumber: vessel.imo, vesselName: vessel.name },
                }
              : {}),
          },
          documentReferences: booking,
        };
        const event = (classifier: 'PLN' | 'EST' | 'ACT', eventTime: number, created: number, n = 0) =>
          events.push({
            ...base,
            eventID: uuidFrom(`${c.number}:${i}:${classifier}:${n}`),
            eventClassifierCode: classifier,
            eventDateTime: new Date(eventTime).toISOString(),
            eventCreatedDateTime: new Date(created).toISOString(),
          } as DcsaEventInput);
        const isDelayed = c.number === delayed && s.code === 'DISC';
        // The plan as the carrier confirmed the booking (for the delayed box: two days earlier than now expected).
        event('PLN', isDelayed ? time - 2 * DAY : time, planned);
        if (time + 15 * 60_000 <= now) {
          event(
            'ACT',
            time + ((i * 37) % 90) * 60_000,
            Math.min(time + (((i * 37) % 90) + 20) * 60_000, now),
          );
        } else if (s.mode === 'VESSEL') {
          const departed = onDay(d.etd, 12).getTime();
          if (isDelayed) {
            event('EST', time - 2 * DAY, Math.min(departed + DAY, now - 3 * DAY));
            event('EST', time, now - 20 * HOUR, 1);
          } else event('EST', time, Math.max(planned + HOUR, now - 6 * HOUR));
        }
      });
    }
  }
  const rows = events.map((e, i) => toNewEvent(valid(dcsaEventSchema, e, `container event ${i}`)));
  const inserted = await repo.insertBatch(rows, {
    source: 'csv',
    createdBy: ctx.users.staff,
    apiKeyId: null,
  });
  const unlinked = inserted.filter((r) => !r.dossier_id).length;
  if (unlinked) throw new Error(`demo company: ${unlinked} container events did not link to their dossier`);
  return { events: inserted.length, etaChanged: delayed };
}
