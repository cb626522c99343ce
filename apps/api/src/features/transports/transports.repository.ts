import { type Transport, type TransportListQuery, transportFieldVisibility } from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { defineListSpec, filter, type ListSource, listReader } from '../../records/list.ts';
import type { Scope } from '../../records/scope.ts';
import { dayStart } from '../../records/time-zone.ts';

export interface TransportRow {
  id: string;
  dossier_id: string;
  dossier_number: string;
  dossier_container_numbers: string[];
  customer_id: string;
  customer_code: string;
  customer_name: string;
  sequence: number;
  status: Transport['status'];
  mode: Transport['mode'];
  carrier_id: string | null;
  carrier_code: string | null;
  carrier_name: string | null;
  truck_plate: string | null;
  trailer_plate: string | null;
  vessel_name: string | null;
  vessel_imo: string | null;
  flight_number: string | null;
  pickup_locode: string | null;
  pickup_address: string | null;
  pickup_from: Date | null;
  pickup_to: Date | null;
  delivery_locode: string | null;
  delivery_address: string | null;
  delivery_from: Date | null;
  delivery_to: Date | null;
  actual_pickup_at: Date | null;
  actual_delivery_at: Date | null;
  driver_name: string | null;
  driver_phone: string | null;
  containers: string[];
  notes: string | null;
  customer_remark: string | null;
  version: number;
  updated_at: Date;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toTransport(
  r: TransportRow,
  allowedTransitions: Transport['allowedTransitions'] = [],
): Transport {
  return {
    id: r.id,
    dossier: {
      id: r.dossier_id,
      number: r.dossier_number,
      customer: { id: r.customer_id, code: r.customer_code, name: r.customer_name },
    },
    sequence: r.sequence,
    status: r.status,
    mode: r.mode,
    carrier:
      r.carrier_id && r.carrier_code && r.carrier_name
        ? { id: r.carrier_id, code: r.carrier_code, name: r.carrier_name }
        : null,
    truckPlate: r.truck_plate,
    trailerPlate: r.trailer_plate,
    vesselName: r.vessel_name,
    vesselImo: r.vessel_imo,
    flightNumber: r.flight_number,
    pickupLocode: r.pickup_locode,
    pickupAddress: r.pickup_address,
    pickupFrom: iso(r.pickup_from),
    pickupTo: iso(r.pickup_to),
    deliveryLocode: r.delivery_locode,
    deliveryAddress: r.delivery_address,
    deliveryFrom: iso(r.delivery_from),
    deliveryTo: iso(r.delivery_to),
    actualPickupAt: iso(r.actual_pickup_at),
    actualDeliveryAt: iso(r.actual_delivery_at),
    driverName: r.driver_name,
    driverPhone: r.driver_phone,
    containers: r.containers,
    notes: r.notes,
    customerRemark: r.customer_remark,
    version: r.version,
    updatedAt: r.updated_at.toISOString(),
    allowedTransitions,
  };
}

const FROM = sql`transports t join dossiers d on d.id = t.dossier_id join parties c on c.id = d.customer_id left join parties k on k.id = t.carrier_id`;
const SELECT = sql`t.*, d.number as dossier_number, d.container_numbers as dossier_container_numbers, d.customer_id,
  c.code as customer_code, c.name as customer_name, k.code as carrier_code, k.name as carrier_name`;

export const transportListSpec = defineListSpec({
  name: 'transports',
  visibility: transportFieldVisibility,
  from: FROM,
  id: { expr: 't.id', type: 'uuid', nullable: false },
  sortable: {
    pickupFrom: { expr: 't.pickup_from', type: 'timestamptz', nullable: true },
    deliveryFrom: { expr: 't.delivery_from', type: 'timestamptz', nullable: true },
    status: { expr: 't.status', type: 'text', nullable: false },
    updatedAt: { expr: 't.updated_at', type: 'timestamptz', nullable: false },
    dossier: { expr: 'd.number', type: 'text', nullable: false },
  },
  defaultSort: 'pickupFrom',
  search: sql`(d.number || ' ' || coalesce(t.truck_plate, '') || ' ' || coalesce(t.vessel_name, '') || ' ' || coalesce(t.flight_number, ''))`,
  searchFields: ['dossier', 'truckPlate', 'vesselName', 'flightNumber'],
  // The driver is internal: staff find a leg by the driver's name, a customer's q never matches it.
  staffSearch: sql`coalesce(t.driver_name, '')`,
});

/** The map is the caller's: a transport's item depends on who reads it (its allowed transitions). */
const transportList: Omit<ListSource<TransportListQuery, TransportRow, Transport>, 'map'> = {
  spec: transportListSpec,
  select: SELECT,
  scope: (scope) => (scope.all ? [] : [sql`d.customer_id = ${scope.partyId}`]),
  filters: {
    status: filter.anyOf('t.status'),
    mode: filter.equals('t.mode'),
    carrierId: filter.equals('t.carrier_id'),
    dossierId: (dossier) =>
      /^[0-9a-f-]{36}$/i.test(dossier) ? sql`t.dossier_id = ${dossier}` : sql`d.number = ${dossier}`,
    // With a zone, the days are that zone's (the dashboard's "today" links here); without, the database's.
    pickupFrom: (from, q) =>
      q.tz ? sql`t.pickup_from >= ${dayStart(from, q.tz)}` : sql`t.pickup_from >= ${from}::date`,
    pickupTo: (to, q) =>
      q.tz ? sql`t.pickup_from < ${dayStart(to, q.tz, 1)}` : sql`t.pickup_from < ${to}::date + 1`,
  },
};

/** Live legs whose span touches the days [from, to] (the span's GiST index answers it). */
function inPlanningRange(from: string, to: string, tz: string): RawBuilder<unknown> {
  return sql`t.span && tstzrange(${dayStart(from, tz)}, ${dayStart(to, tz, 1)}, '[)')
    and not lower_inf(t.span) and t.status <> 'cancelled'`;
}

export function transportsRepository(db: Db) {
  return {
    list: (scope: Scope, q: TransportListQuery, map: (r: TransportRow) => Transport) =>
      listReader(db, { ...transportList, map }).page(scope, q),
    all: (scope: Scope, q: TransportListQuery, map: (r: TransportRow) => Transport) =>
      listReader(db, { ...transportList, map }).all(scope, q),

    async find(scope: Scope, id: string): Promise<TransportRow | undefined> {
      const r =
        await sql<TransportRow>`select ${SELECT} from ${FROM} where t.id = ${id} ${scope.all ? sql`` : sql`and d.customer_id = ${scope.partyId}`}`.execute(
          db,
        );
      return r.rows[0];
    },

    /**
     * A page of the planning list: transports whose span (pickup start to delivery end) touches the
     * days [from, to], in order of their start, then id; `after` is the last row's (start, id).
     * Whether another leg of the same vehicle overlaps is decided over all legs of the range (not
     * only the page): sorted by vehicle and start, a leg overlaps when an earlier one ends after it
     * starts or the next one starts before it ends. The span index covers (span, status, id,
     * vehicle), so this reads no table rows; "C" ordering keeps the sort cheap.
     */
    async planningPage(
      scope: Scope,
      from: string,
      to: string,
      tz: string,
      limit: number,
      after: [string, string] | null,
    ): Promise<(TransportRow & { starts_at: Date; overlapping: boolean })[]> {
      const r = await sql<TransportRow & { starts_at: Date; overlapping: boolean }>`
        with r as (
          select t.id, t.vehicle collate "C" as vehicle, lower(t.span) as s, upper(t.span) as e
          from transports t
          ${scope.all ? sql`` : sql`join dossiers d on d.id = t.dossier_id`}
          where ${inPlanningRange(from, to, tz)}
            ${scope.all ? sql`` : sql`and d.customer_id = ${scope.partyId}`}
        ), o as (
          select id, s, vehicle is not null and (
              coalesce(max(e) over earlier > s, false)
              or coalesce(lead(s) over (partition by vehicle order by s, id) < e, false)) as overlapping
          from r
          window earlier as (partition by vehicle order by s, id rows between unbounded preceding and 1 preceding)
        ), page as (
          select id, s as starts_at, overlapping from o
          ${after ? sql`where (s, id) > (${after[0]}::timestamptz, ${after[1]}::uuid)` : sql``}
          order by s, id
          limit ${limit})
        select ${SELECT}, p.starts_at, p.overlapping
        from page p join ${FROM} on t.id = p.id
        order by p.starts_at, t.id`.execute(db);
      return r.rows;
    },

    /** How many transports the planning range holds (all pages). */
    async planningCount(scope: Scope, from: string, to: string, tz: string): Promise<number> {
      const r = await sql<{ n: number }>`
        select count(*)::int as n from transports t
        ${scope.all ? sql`` : sql`join dossiers d on d.id = t.dossier_id`}
        where ${inPlanningRange(from, to, tz)}
          ${scope.all ? sql`` : sql`and d.customer_id = ${scope.partyId}`}`.execute(db);
      return r.rows[0]?.n ?? 0;
    },

    /** The next leg number of a dossier; the dossier row is locked so two creates never share one. */
    async nextSequence(dossierId: string): Promise<number> {
      await sql`select 1 from dossiers where id = ${dossierId} for update`.execute(db);
      const r = await sql<{
        n: number;
      }>`select coalesce(max(sequence), 0)::int + 1 as n from transports where dossier_id = ${dossierId}`.execute(
        db,
      );
      return r.rows[0]?.n ?? 1;
    },

    insert: (values: Record<string, unknown>) =>
      db
        .insertInto('transports')
        .values(values as never)
        .returning('id')
        .executeTakeFirstOrThrow(),

    isCarrier: async (partyId: string) =>
      !!(await db
        .selectFrom('parties')
        .select('id')
        .where('id', '=', partyId)
        .where(sql<boolean>`'carrier' = any(kinds)`)
        .executeTakeFirst()),
  };
}
