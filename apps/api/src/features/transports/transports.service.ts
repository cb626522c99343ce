import {
  checkTransportRules,
  type Planning,
  type PlanningItem,
  type planningQuerySchema,
  TRANSPORT_TRANSITIONS,
  type Transport,
  type TransportListQuery,
  type TransportStatus,
  type transportCreateSchema,
  transportFieldVisibility,
  type transportUpdateSchema,
} from '@fvg/contracts';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { problems } from '../../http/problem.ts';
import { zodFieldErrors } from '../../http/validation.ts';
import { diff, historyOf, writeAudit } from '../../records/audit.ts';
import { openCursor, sealCursor } from '../../records/cursor.ts';
import type { RecordEvents } from '../../records/events.ts';
import { columnsOf, pgConstraintProblem, versionedUpdate } from '../../records/mutation.ts';
import { orNotFound, requireStaff, scopeOf } from '../../records/scope.ts';
import { withTimeZone } from '../../records/time-zone.ts';
import { redact } from '../../records/visibility.ts';
import { dossiersRepository } from '../dossiers/dossiers.repository.ts';
import type { SessionUser } from '../users/users.repository.ts';
import { type TransportRow, toTransport, transportsRepository } from './transports.repository.ts';

type Create = z.output<typeof transportCreateSchema>;
type Update = z.output<typeof transportUpdateSchema>;
type PlanningQueryOutput = z.output<typeof planningQuerySchema>;

const COLUMNS = columnsOf([
  'mode',
  'carrierId',
  'truckPlate',
  'trailerPlate',
  'vesselName',
  'vesselImo',
  'flightNumber',
  'pickupLocode',
  'pickupAddress',
  'pickupFrom',
  'pickupTo',
  'deliveryLocode',
  'deliveryAddress',
  'deliveryFrom',
  'deliveryTo',
  'actualPickupAt',
  'actualDeliveryAt',
  'driverName',
  'driverPhone',
  'containers',
  'notes',
  'customerRemark',
]);
type Field = keyof typeof COLUMNS;
const FIELDS = Object.keys(COLUMNS) as Field[];

export { FIELDS as TRANSPORT_FIELDS };

export function toColumns(input: Partial<Record<Field, unknown>>): Record<string, unknown> {
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

export function transportsService(db: Db, events: RecordEvents) {
  const repo = transportsRepository(db);
  // Every transport a user gets passes here: internal fields (notes) null for customers (ADR 0045).
  const map = (user: SessionUser) => (r: TransportRow) =>
    redact(
      scopeOf(user),
      transportFieldVisibility,
      toTransport(r, allowedTransportTransitions(user, r.status)),
    );

  async function rowOr404(user: SessionUser, id: string): Promise<TransportRow> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw problems.notFound('This transport does not exist.');
    return orNotFound(await repo.find(scopeOf(user), id), 'transport');
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
    // A zone the runtime knows but the database does not answers 400 on tz, not 500.
    list: (user: SessionUser, q: TransportListQuery) =>
      withTimeZone(() => repo.list(scopeOf(user), q, map(user))),
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
      const id = await inTransaction(db, async (trx) => {
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
      }).catch((e: unknown) =>
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
      await inTransaction(db, async (trx) => {
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
      await inTransaction(db, async (trx) => {
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

    /**
     * A page of the planning list with what needs attention flagged; the total on every page. Staff
     * only: the flags (a vehicle busy elsewhere, a passed pickup) are internal planning, and a vehicle
     * overlap would tell a customer that another party's leg uses the same truck.
     */
    async planning(user: SessionUser, q: PlanningQueryOutput): Promise<Planning> {
      requireStaff(user);
      const scope = scopeOf(user);
      // The page order is fixed (start time, id); the range, zone, size and scope are what a cursor is for.
      const binding = { list: 'planning', filter: [q.from, q.to, q.tz, q.limit, scope] };
      const after = q.cursor ? ((await openCursor(db, binding, q.cursor, 2)) as [string, string]) : null;
      const [rows, total] = await withTimeZone(() =>
        Promise.all([
          repo.planningPage(scope, q.from, q.to, q.tz, q.limit + 1, after),
          repo.planningCount(scope, q.from, q.to, q.tz),
        ]),
      );
      const more = rows.length > q.limit;
      const page = more ? rows.slice(0, q.limit) : rows;
      const now = Date.now();
      const items = page.map((r) => {
        const flags: PlanningItem['flags'] = [];
        if (!r.carrier_id) flags.push('missing_carrier');
        const pickupEnd = r.pickup_to ?? r.pickup_from;
        if (r.status === 'planned' && pickupEnd && pickupEnd.getTime() < now) flags.push('pickup_passed');
        if (r.overlapping) flags.push('vehicle_overlap');
        return { ...map(user)(r), flags };
      });
      const last = page.at(-1);
      return {
        from: q.from,
        to: q.to,
        total,
        items,
        nextCursor:
          more && last ? await sealCursor(db, binding, [last.starts_at.toISOString(), last.id]) : null,
      };
    },

    async history(user: SessionUser, id: string) {
      await rowOr404(user, id);
      return historyOf(
        db,
        'transport',
        id,
        { scope: scopeOf(user), visibility: transportFieldVisibility },
        {
          carrierId: 'party',
        },
      );
    },
  };
}
export type TransportsService = ReturnType<typeof transportsService>;
