import {
  checkTransportRules,
  type Planning,
  TRANSPORT_TRANSITIONS,
  type Transport,
  type TransportListQuery,
  type TransportStatus,
  type transportCreateSchema,
  type transportUpdateSchema,
} from '@fvg/contracts';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { problems } from '../../http/problem.ts';
import { zodFieldErrors } from '../../http/validation.ts';
import { diff, historyOf, writeAudit } from '../../records/audit.ts';
import type { RecordEvents } from '../../records/events.ts';
import { pgConstraintProblem, versionedUpdate } from '../../records/mutation.ts';
import { requireStaff, scopeOf } from '../../records/scope.ts';
import { dossiersRepository } from '../dossiers/dossiers.repository.ts';
import type { SessionUser } from '../users/users.repository.ts';
import { type TransportRow, toTransport, transportsRepository } from './transports.repository.ts';

type Create = z.output<typeof transportCreateSchema>;
type Update = z.output<typeof transportUpdateSchema>;

const COLUMNS = {
  mode: 'mode',
  carrierId: 'carrier_id',
  truckPlate: 'truck_plate',
  trailerPlate: 'trailer_plate',
  vesselName: 'vessel_name',
  vesselImo: 'vessel_imo',
  flightNumber: 'flight_number',
  pickupLocode: 'pickup_locode',
  pickupAddress: 'pickup_address',
  pickupFrom: 'pickup_from',
  pickupTo: 'pickup_to',
  deliveryLocode: 'delivery_locode',
  deliveryAddress: 'delivery_address',
  deliveryFrom: 'delivery_from',
  deliveryTo: 'delivery_to',
  actualPickupAt: 'actual_pickup_at',
  actualDeliveryAt: 'actual_delivery_at',
  driverName: 'driver_name',
  driverPhone: 'driver_phone',
  containers: 'containers',
  notes: 'notes',
} as const;
type Field = keyof typeof COLUMNS;
const FIELDS = Object.keys(COLUMNS) as Field[];

function toColumns(input: Partial<Record<Field, unknown>>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of FIELDS) if (input[f] !== undefined) row[COLUMNS[f]] = input[f];
  return row;
}

/** A stored transport in API field terms (for diffs and merged validation). */
function fieldsOf(t: Transport): Record<Field, unknown> {
  return { ...t, carrierId: t.carrier?.id ?? null } as unknown as Record<Field, unknown>;
}

export function allowedTransportTransitions(user: SessionUser, status: TransportStatus): TransportStatus[] {
  return user.role === 'customer' ? [] : [...TRANSPORT_TRANSITIONS[status]];
}

/** The vehicle a transport uses, when it names one (truck plate, vessel IMO or name, flight). */
function vehicleOf(t: TransportRow): string | null {
  if (t.truck_plate) return `truck:${t.truck_plate.toUpperCase().replace(/[\s-]/g, '')}`;
  if (t.vessel_imo) return `vessel:${t.vessel_imo}`;
  if (t.vessel_name) return `vessel:${t.vessel_name.toUpperCase()}`;
  if (t.flight_number) return `flight:${t.flight_number}`;
  return null;
}

function span(t: TransportRow): [number, number] | null {
  const start = t.pickup_from ?? t.delivery_from;
  const end = t.delivery_to ?? t.delivery_from ?? t.pickup_to ?? start;
  return start && end ? [start.getTime(), Math.max(end.getTime(), start.getTime())] : null;
}

/** Ids of transports that share a vehicle with another over an overlapping time span. */
export function overlappingVehicles(rows: TransportRow[]): Set<string> {
  const byVehicle = new Map<string, { id: string; s: number; e: number }[]>();
  for (const t of rows) {
    const v = vehicleOf(t);
    const sp = span(t);
    if (!v || !sp) continue;
    const list = byVehicle.get(v) ?? [];
    list.push({ id: t.id, s: sp[0], e: sp[1] });
    byVehicle.set(v, list);
  }
  const hits = new Set<string>();
  for (const list of byVehicle.values()) {
    list.sort((a, b) => a.s - b.s);
    let reach: { id: string; e: number } | undefined;
    for (const cur of list) {
      if (reach && cur.s < reach.e) {
        hits.add(cur.id);
        hits.add(reach.id);
      }
      if (!reach || cur.e > reach.e) reach = { id: cur.id, e: cur.e };
    }
  }
  return hits;
}

export function transportsService(db: Db, events: RecordEvents) {
  const repo = transportsRepository(db);
  const map = (user: SessionUser) => (r: TransportRow) =>
    toTransport(r, allowedTransportTransitions(user, r.status));

  async function rowOr404(user: SessionUser, id: string): Promise<TransportRow> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw problems.notFound('This transport does not exist.');
    const row = await repo.find(scopeOf(user), id);
    if (!row) throw problems.notFound('This transport does not exist.');
    return row;
  }

  async function checkRefs(
    carrierId: string | null | undefined,
    containers: string[] | undefined,
    dossierContainers: string[],
  ) {
    if (carrierId && !(await repo.isCarrier(carrierId))) {
      throw problems.validation([{ field: 'carrierId', message: 'Choose a party with the carrier role' }]);
    }
    const foreign = (containers ?? [])
      .map((c, i) => [c, i] as const)
      .filter(([c]) => !dossierContainers.includes(c));
    if (foreign.length) {
      throw problems.validation(
        foreign.map(([c, i]) => ({
          field: `containers.${i}`,
          message: `Container ${c} is not on this dossier`,
        })),
      );
    }
  }

  const announce = (row: { id: string; customer_id: string }, action: 'created' | 'updated') =>
    events.publish({ kind: 'transport', id: row.id, action, partyIds: [row.customer_id] });

  return {
    list: (user: SessionUser, q: TransportListQuery) => repo.list(scopeOf(user), q, map(user)),
    all: (user: SessionUser, q: TransportListQuery) => repo.all(scopeOf(user), q, map(user)),
    get: async (user: SessionUser, id: string) => map(user)(await rowOr404(user, id)),

    async create(user: SessionUser, input: Create): Promise<Transport> {
      requireStaff(user);
      const dossier = await dossiersRepository(db).find(scopeOf(user), input.dossierId);
      if (!dossier) throw problems.validation([{ field: 'dossierId', message: 'No such dossier' }]);
      await checkRefs(
        input.carrierId,
        input.containers,
        dossier.containers.map((c) => c.number),
      );
      const { dossierId: _ignored, ...fields } = input;
      const id = await db
        .transaction()
        .execute(async (trx) => {
          const r = transportsRepository(trx);
          const sequence = await r.nextSequence(dossier.id);
          const row = await r.insert({
            ...toColumns(fields),
            dossier_id: dossier.id,
            sequence,
            created_by: user.id,
            updated_by: user.id,
          });
          await writeAudit(trx, {
            kind: 'transport',
            id: row.id,
            action: 'created',
            actorId: user.id,
            changes: diff({}, fields, FIELDS),
          });
          return row.id;
        })
        .catch((e: unknown) =>
          pgConstraintProblem(e, {
            transports_carrier_id_fkey: { field: 'carrierId', message: 'No such party' },
          }),
        );
      const row = await rowOr404(user, id);
      announce(row, 'created');
      return map(user)(row);
    },

    async update(user: SessionUser, id: string, input: Update): Promise<Transport> {
      const before = await rowOr404(user, id);
      requireStaff(user);
      if (before.status === 'delivered' || before.status === 'cancelled')
        throw problems.conflict(`A ${before.status} transport cannot be edited.`);
      const { version, ...changes } = input;
      const current = fieldsOf(toTransport(before));
      const merged = { ...current, ...changes };
      const check = z
        .any()
        .superRefine((v, ctx) => checkTransportRules(v, ctx))
        .safeParse(merged);
      if (!check.success) throw problems.validation(zodFieldErrors(check.error));
      await checkRefs(changes.carrierId, changes.containers, before.dossier_container_numbers);
      await db.transaction().execute(async (trx) => {
        await versionedUpdate(trx, {
          table: 'transports',
          id,
          version,
          values: toColumns(changes),
          actorId: user.id,
          what: 'transport',
        });
        await writeAudit(trx, {
          kind: 'transport',
          id,
          action: 'updated',
          actorId: user.id,
          changes: diff(current, changes, FIELDS),
        });
      });
      announce(before, 'updated');
      return map(user)(await rowOr404(user, id));
    },

    async transition(
      user: SessionUser,
      id: string,
      to: TransportStatus,
      version: number,
    ): Promise<Transport> {
      const before = await rowOr404(user, id);
      const allowed = allowedTransportTransitions(user, before.status);
      if (!allowed.includes(to)) {
        throw problems.conflict(
          `A transport in status ${before.status} cannot move to ${to}${allowed.length ? `; allowed: ${allowed.join(', ')}` : ''}.`,
          [{ field: 'to', message: `Not allowed from ${before.status}` }],
        );
      }
      // Reaching picked up / delivered records the actual time when none was entered.
      const values: Record<string, unknown> = { status: to };
      if (to === 'picked_up' && !before.actual_pickup_at) values.actual_pickup_at = new Date().toISOString();
      if (to === 'delivered' && !before.actual_delivery_at)
        values.actual_delivery_at = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        await versionedUpdate(trx, {
          table: 'transports',
          id,
          version,
          values,
          actorId: user.id,
          what: 'transport',
        });
        await writeAudit(trx, {
          kind: 'transport',
          id,
          action: 'status changed',
          actorId: user.id,
          changes: [{ field: 'status', from: before.status, to }],
        });
      });
      announce(before, 'updated');
      return map(user)(await rowOr404(user, id));
    },

    async planning(user: SessionUser, from: string, to: string): Promise<Planning> {
      const rows = await repo.inRange(scopeOf(user), from, to);
      const overlaps = overlappingVehicles(rows);
      const now = Date.now();
      const groups = new Map<string, Planning['groups'][number]>();
      for (const r of rows) {
        const t = map(user)(r);
        const flags: Planning['groups'][number]['transports'][number]['flags'] = [];
        if (!r.carrier_id) flags.push('missing_carrier');
        const pickupEnd = r.pickup_to ?? r.pickup_from;
        if (r.status === 'planned' && pickupEnd && pickupEnd.getTime() < now) flags.push('pickup_passed');
        if (overlaps.has(r.id)) flags.push('vehicle_overlap');
        const key = r.carrier_id ?? '';
        const group = groups.get(key) ?? { carrier: t.carrier, transports: [] };
        group.transports.push({ ...t, flags });
        groups.set(key, group);
      }
      const ordered = [...groups.values()].sort((a, b) =>
        a.carrier ? (b.carrier ? a.carrier.name.localeCompare(b.carrier.name) : 1) : -1,
      );
      return { from, to, groups: ordered };
    },

    async history(user: SessionUser, id: string) {
      await rowOr404(user, id);
      return historyOf(db, 'transport', id);
    },
  };
}
export type TransportsService = ReturnType<typeof transportsService>;
