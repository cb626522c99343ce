import { randomBytes } from 'node:crypto';
import {
  type DcsaEventInput,
  dcsaEventSchema,
  EVENT_LINKING_STATUSES,
  INTEGRATION_KEY_PREFIX,
  iso6346CheckDigit,
} from '@fvg/contracts';
import { containerEventsRepository } from '../../features/container-events/container-events.repository.ts';
import { toNewEvent } from '../../features/container-events/container-events.service.ts';
import { integrationKeysRepository } from '../../features/container-events/integration-keys.repository.ts';
import { hashIntegrationKey } from '../../features/container-events/integration-keys.service.ts';
import { audit, type DemoContext, type DemoDossier, onDay, uuidFrom, valid } from './context.ts';

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
 * The terminal's event feed: an integration key an admin made (its secret was shown once and is
 * not kept) and two events it posted today for a box no dossier names yet, so the staff's
 * "Unlinked events" tab and the admin's keys list have something to show.
 */
async function terminalFeed(ctx: DemoContext, dossiers: DemoDossier[]): Promise<{ box: string }> {
  const key = `${INTEGRATION_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const created = new Date(ctx.today.getTime() - 90 * DAY);
  const keyId = await integrationKeysRepository(ctx.db).insert({
    name: 'ECT Delta Terminal event feed',
    prefix: key.slice(0, INTEGRATION_KEY_PREFIX.length + 8),
    hash: hashIntegrationKey(key),
    createdBy: ctx.users.admin,
  });
  await ctx.db
    .updateTable('integration_api_keys')
    .set({ created_at: created })
    .where('id', '=', keyId)
    .execute();
  await audit(ctx, {
    kind: 'integration-key',
    id: keyId,
    action: 'created',
    actorId: ctx.users.admin,
    changes: [{ field: 'name', from: null, to: 'ECT Delta Terminal event feed' }],
    at: created,
  });
  const box = `TGHU880011${iso6346CheckDigit('TGHU880011')}`;
  if (dossiers.some((d) => d.containers.some((c) => c.number === box)))
    throw new Error(`demo company: the unlinked box ${box} is on a dossier`);
  const now = ctx.now.getTime();
  const events = [
    { code: 'DISC', at: now - 9 * HOUR, empty: 'LADEN', mode: 'VESSEL' },
    { code: 'GTOT', at: now - 3 * HOUR, empty: 'LADEN', mode: 'TRUCK' },
  ].map((e, i) =>
    toNewEvent(
      valid(
        dcsaEventSchema,
        {
          eventID: uuidFrom(`${box}:feed:${i}`),
          eventType: 'EQUIPMENT',
          eventClassifierCode: 'ACT',
          eventDateTime: new Date(e.at).toISOString(),
          eventCreatedDateTime: new Date(e.at + 4 * 60_000).toISOString(),
          equipmentEventTypeCode: e.code,
          equipmentReference: box,
          ISOEquipmentCode: '45G1',
          emptyIndicatorCode: e.empty,
          transportCall: { modeOfTransport: e.mode, UNLocationCode: 'NLRTM', facilityTypeCode: 'POTE' },
          documentReferences: [],
        } as DcsaEventInput,
        `feed event ${i}`,
      ),
    ),
  );
  const inserted = await containerEventsRepository(ctx.db).insertBatch(events, {
    source: 'api',
    createdBy: null,
    apiKeyId: keyId,
  });
  if (inserted.some((r) => r.dossier_id)) throw new Error(`demo company: the feed's box ${box} linked`);
  return { box };
}

/**
 * For each customer, a box of an arrived dossier stripped at their site a few hours ago (after its
 * laden gate-out, before its empty return): the dashboard's "container events in the last 24 hours"
 * has an actual event for each demo customer whatever the hour the demo starts.
 */
function strippedToday(ctx: DemoContext, dossiers: DemoDossier[]): DcsaEventInput[] {
  const now = ctx.now.getTime();
  const at = now - 5 * HOUR;
  return (['ACME', 'GLOBEX'] as const).map((customer) => {
    // The box left the terminal laden (GTOT, day 2 after arrival) and is not back empty yet (GTIN, day 4).
    const d = dossiers.find(
      (x) =>
        x.customer === customer &&
        x.status === 'arrived' &&
        onDay(x.eta, 11).getTime() + 2 * DAY < at &&
        onDay(x.eta, 15).getTime() + 4 * DAY > now,
    );
    const box = d?.containers[0];
    if (!d || !box) throw new Error(`demo company: no arrived box of ${customer} to strip today`);
    return {
      eventID: uuidFrom(`${box.number}:stripped`),
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      eventDateTime: new Date(at).toISOString(),
      eventCreatedDateTime: new Date(at + 12 * 60_000).toISOString(),
      equipmentEventTypeCode: 'STRP',
      equipmentReference: box.number,
      ISOEquipmentCode: box.sizeType,
      emptyIndicatorCode: 'EMPTY',
      transportCall: { modeOfTransport: 'TRUCK', UNLocationCode: d.destination },
      documentReferences: d.bookingNumber
        ? [{ documentReferenceType: 'BKG', documentReferenceValue: d.bookingNumber }]
        : [],
    } as DcsaEventInput;
  });
}

/**
 * DCSA equipment events for the containers of the sea dossiers that capture events: the plan sent at
 * booking, estimates for the vessel moves still ahead, actuals for what happened. One container's
 * arrival estimate moved: its first estimate was replaced by a later one two days on.
 */
export async function seedContainerEvents(
  ctx: DemoContext,
): Promise<{ events: number; etaChanged: string; unlinkedBox: string }> {
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
  events.push(...strippedToday(ctx, dossiers));
  const rows = events.map((e, i) => toNewEvent(valid(dcsaEventSchema, e, `container event ${i}`)));
  const inserted = await repo.insertBatch(rows, {
    source: 'csv',
    createdBy: ctx.users.staff,
    apiKeyId: null,
  });
  const unlinked = inserted.filter((r) => !r.dossier_id).length;
  if (unlinked) throw new Error(`demo company: ${unlinked} container events did not link to their dossier`);
  const feed = await terminalFeed(ctx, dossiers);
  return { events: inserted.length, etaChanged: delayed, unlinkedBox: feed.box };
}
