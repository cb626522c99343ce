import {
  type ContainerEvent,
  type ContainerEventSource,
  type ContainerListQuery,
  type ContainerSummary,
  containerEventFieldVisibility,
  type DcsaEvent,
  EVENT_LINKING_STATUSES,
  type FacilityTypeCode,
  type LinkCandidate,
  type UnlinkedEvent,
  type UnlinkedListQuery,
} from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { defineListSpec, filter, type ListSource, listReader } from '../../records/list.ts';
import type { Scope } from '../../records/scope.ts';

/** An event as the list and timeline queries select it. */
export interface EventRow {
  id: string;
  event_id: string;
  event_type: ContainerEvent['eventType'];
  classifier: ContainerEvent['eventClassifierCode'];
  equipment_event_type_code: ContainerEvent['equipmentEventTypeCode'];
  transport_event_type_code: ContainerEvent['transportEventTypeCode'];
  shipment_event_type_code: ContainerEvent['shipmentEventTypeCode'];
  equipment_reference: string | null;
  iso_equipment_code: string | null;
  empty_indicator_code: ContainerEvent['emptyIndicatorCode'];
  document_type_code: ContainerEvent['documentTypeCode'];
  document_id: string | null;
  un_location_code: string | null;
  raw: DcsaEvent;
  dossier_id: string | null;
  dossier_number: string | null;
  source: ContainerEventSource;
  created_at: Date;
}

/** The columns of an event row (`e` is container_events, `d` the linked dossier). */
const EVENT_COLUMNS = sql`e.id, e.event_id, e.event_type, e.classifier, e.equipment_event_type_code,
  e.transport_event_type_code, e.shipment_event_type_code, e.equipment_reference, e.iso_equipment_code,
  e.empty_indicator_code, e.document_type_code, e.document_id, e.un_location_code, e.raw, e.dossier_id,
  d.number as dossier_number, e.source, e.created_at`;

export function toContainerEvent(r: EventRow): ContainerEvent {
  const raw = r.raw as DcsaEvent & {
    transportCall?: ContainerEvent['transportCall'];
    eventLocation?: ContainerEvent['eventLocation'];
    documentReferences?: ContainerEvent['documentReferences'];
  };
  return {
    id: r.id,
    eventID: r.event_id,
    eventType: r.event_type,
    eventClassifierCode: r.classifier,
    eventDateTime: raw.eventDateTime,
    eventCreatedDateTime: raw.eventCreatedDateTime,
    equipmentEventTypeCode: r.equipment_event_type_code,
    transportEventTypeCode: r.transport_event_type_code,
    shipmentEventTypeCode: r.shipment_event_type_code,
    equipmentReference: r.equipment_reference,
    ISOEquipmentCode: r.iso_equipment_code,
    emptyIndicatorCode: r.empty_indicator_code,
    documentTypeCode: r.document_type_code,
    documentID: r.document_id,
    transportCall: raw.transportCall ?? null,
    eventLocation: raw.eventLocation ?? null,
    documentReferences: raw.documentReferences ?? [],
    references: raw.references ?? [],
    UNLocationCode: r.un_location_code,
    dossier: r.dossier_id && r.dossier_number ? { id: r.dossier_id, number: r.dossier_number } : null,
    source: r.source,
    receivedAt: r.created_at.toISOString(),
  };
}

/** One validated event, flattened into the columns it is stored and searched by. */
export interface NewEvent {
  event_id: string;
  event_type: string;
  classifier: string;
  event_date_time: string;
  event_created_date_time: string;
  equipment_event_type_code: string | null;
  transport_event_type_code: string | null;
  shipment_event_type_code: string | null;
  equipment_reference: string | null;
  iso_equipment_code: string | null;
  empty_indicator_code: string | null;
  un_location_code: string | null;
  facility_code: string | null;
  facility_type_code: string | null;
  mode_of_transport: string | null;
  vessel_imo: string | null;
  vessel_name: string | null;
  voyage: string | null;
  document_type_code: string | null;
  document_id: string | null;
  /** Booking and BL values, upper case. */
  document_references: string[];
  raw: DcsaEvent;
}

export interface InsertedEvent {
  id: string;
  event_id: string;
  equipment_reference: string | null;
  dossier_id: string | null;
  /** The linked dossier's customer. */
  customer_id: string | null;
}

/** Dossiers that capture events (ADR 0015): literals, so the planner sees a constant list. */
const ACTIVE = sql`d.status in (${sql.join(EVENT_LINKING_STATUSES.map((s) => sql.lit(s)))})`;

/**
 * The window of a dossier's dates that its events fall in (ADR 0015), in days, UTC calendar days:
 * from two weeks before departure (empty pick-up, stuffing, gate-in before the cut-off) to a month
 * after arrival (gate-out, stripping, the empty's return). With only one end known, the other is
 * a long voyage away. A dossier without any dates has no window yet: it claims by reference and by
 * container number at any time (the status and the one-claimant rule still apply) until staff give it dates.
 */
export const LINK_WINDOW_DAYS = {
  beforeDeparture: 14,
  afterArrival: 30,
  /** The start when only the arrival is known. */
  beforeArrival: 60,
  /** The end when only the departure is known. */
  afterDeparture: 90,
} as const;

/** Whether `at` falls in the window of dossier `d` (actual dates before estimated ones). */
function fitsWindow(at: RawBuilder<unknown>): RawBuilder<boolean> {
  const w = LINK_WINDOW_DAYS;
  const departure = sql`coalesce(d.atd, d.etd)`;
  const arrival = sql`coalesce(d.ata, d.eta)`;
  return sql<boolean>`(${at} >= (coalesce(${departure} - ${sql.lit(w.beforeDeparture)}, ${arrival} - ${sql.lit(w.beforeArrival)},
      '-infinity'::date)::timestamp at time zone 'UTC')
    and ${at} < (coalesce(${arrival} + ${sql.lit(w.afterArrival + 1)}, ${departure} + ${sql.lit(w.afterDeparture + 1)},
      'infinity'::date)::timestamp at time zone 'UTC'))`;
}

/**
 * The dossiers that claim an event (ADR 0015): active ones whose window fits the event's time and
 * that name its booking or bill of lading (`by_ref` 1, a shipment's identifier) or its container
 * (0, a box reused voyage after voyage); `best` is the best kind any of them has. Only the best
 * kind claims. Each branch runs on its own index (btree on the upper-cased references, GIN on the
 * container numbers); the union keeps the planner from walking a sort index instead. The container
 * is cast to the default collation: the GIN index serves only that, and container_events keeps its
 * numbers in "C". This is the one place the rule lives: ingest, CSV import, manual entry and the
 * unlinked list's suggestions all go through it.
 */
function claimingDossiers(
  container: RawBuilder<unknown>,
  refs: RawBuilder<unknown>,
  at: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`(select m.*, max(m.by_ref) over () as best from (
      select d.id, d.number, d.customer_id, 1 as by_ref from dossiers d
       where cardinality(${refs}) > 0 and ${ACTIVE} and ${fitsWindow(at)}
         and (upper(d.master_bl) = any(${refs}) or upper(d.house_bl) = any(${refs}) or upper(d.booking_number) = any(${refs}))
      union all
      select d.id, d.number, d.customer_id, 0 from dossiers d
       where ${container} is not null and ${ACTIVE} and ${fitsWindow(at)}
         and d.container_numbers @> array[${container}::text collate "default"]
    ) m)`;
}

/** The dossier an event links to: the only one that claims it; none when several do. Never "last updated". */
function linkedDossier(
  container: RawBuilder<unknown>,
  refs: RawBuilder<unknown>,
  at: RawBuilder<unknown>,
): RawBuilder<string | null> {
  return sql<string | null>`(select case when count(*) = 1 then (array_agg(c.id))[1] end
      from ${claimingDossiers(container, refs, at)} c where c.by_ref = c.best)`;
}

/** `(ACT first, later eventDateTime, later eventCreatedDateTime)`: which event is a container's latest. */
const BETTER = sql`(excluded.latest_is_act, excluded.latest_event_date_time, excluded.latest_event_created_date_time)
  > (s.latest_is_act, s.latest_event_date_time, s.latest_event_created_date_time)`;
const LATEST_COLUMNS = [
  'latest_event_id',
  'latest_is_act',
  'latest_event_date_time',
  'latest_event_created_date_time',
  'latest_event_type',
  'latest_type_code',
] as const;

/**
 * Upserts the summary rows of the events in `source` (a CTE or table with container_events' columns):
 * counts add up, the latest event is kept if it is better. Rows go in key order, so concurrent ingests
 * lock summary rows in the same order and never deadlock.
 */
function upsertSummaries(source: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    insert into container_summaries as s (equipment_reference, dossier_id, iso_equipment_code, event_count,
      latest_event_id, latest_is_act, latest_event_date_time, latest_event_created_date_time, latest_event_type, latest_type_code)
    select b.equipment_reference, b.dossier_id, b.iso, b.n, b.id, b.is_act, b.event_date_time, b.event_created_date_time,
           b.event_type, b.type_code
    from (
      select distinct on (x.equipment_reference, x.dossier_id) x.equipment_reference, x.dossier_id, x.id,
             x.classifier = 'ACT' as is_act, x.event_date_time, x.event_created_date_time, x.event_type,
             coalesce(x.equipment_event_type_code, x.transport_event_type_code, x.shipment_event_type_code) as type_code,
             count(*) over w as n, max(x.iso_equipment_code) over w as iso
      from ${source} x
      where x.equipment_reference is not null
      window w as (partition by x.equipment_reference, x.dossier_id)
      order by x.equipment_reference, x.dossier_id, x.classifier = 'ACT' desc, x.event_date_time desc,
               x.event_created_date_time desc
    ) b
    order by b.equipment_reference, b.dossier_id
    on conflict (equipment_reference, dossier_id) do update set
      event_count = s.event_count + excluded.event_count,
      iso_equipment_code = coalesce(excluded.iso_equipment_code, s.iso_equipment_code),
      ${sql.join(
        LATEST_COLUMNS.map(
          (c) =>
            sql`${sql.ref(c)} = case when ${BETTER} then excluded.${sql.ref(c)} else s.${sql.ref(c)} end`,
        ),
      )},
      updated_at = now()`;
}

// ------------------------------------------------------------------------------------------------
// Lists
// ------------------------------------------------------------------------------------------------

export interface ContainerRow extends EventRow {
  summary_id: string;
  summary_reference: string;
  summary_iso: string | null;
  summary_dossier_id: string | null;
  summary_dossier_number: string | null;
  customer_id: string | null;
  customer_code: string | null;
  customer_name: string | null;
  event_count: number;
  latest_event_date_time: Date;
  latest_type_code: ContainerSummary['status'];
  summary_updated_at: Date;
  facility_code: string | null;
  facility_type_code: FacilityTypeCode | null;
}

export function toContainerSummary(r: ContainerRow): ContainerSummary {
  const event = toContainerEvent(r);
  return {
    id: r.summary_id,
    containerNumber: r.summary_reference,
    ISOEquipmentCode: r.summary_iso,
    dossier:
      r.summary_dossier_id && r.summary_dossier_number && r.customer_id && r.customer_code && r.customer_name
        ? {
            id: r.summary_dossier_id,
            number: r.summary_dossier_number,
            customer: { id: r.customer_id, code: r.customer_code, name: r.customer_name },
          }
        : null,
    status: r.latest_type_code,
    emptyIndicatorCode: r.empty_indicator_code,
    location:
      r.un_location_code || r.facility_code
        ? {
            UNLocationCode: r.un_location_code,
            facilityCode: r.facility_code,
            facilityTypeCode: r.facility_type_code ?? null,
          }
        : null,
    eventCount: r.event_count,
    lastEventAt: r.latest_event_date_time.toISOString(),
    updatedAt: r.summary_updated_at.toISOString(),
    latestEvent: event,
  };
}

/** Upper case without spaces or dashes, and LIKE's wildcards escaped: a container-number prefix. */
function numberPrefix(q: string): string {
  return `${q
    .toUpperCase()
    .replace(/[\s.-]/g, '')
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export const containerListSpec = defineListSpec({
  name: 'containers',
  visibility: containerEventFieldVisibility,
  // The latest event's dossier is the summary's (the summary is per container and dossier).
  from: sql`container_summaries s
    join container_events e on e.id = s.latest_event_id
    left join dossiers d on d.id = s.dossier_id
    left join parties c on c.id = d.customer_id`,
  id: { expr: 's.id', type: 'uuid', nullable: false },
  sortable: {
    containerNumber: { expr: 's.equipment_reference', type: 'text', nullable: false },
    lastEventAt: { expr: 's.latest_event_date_time', type: 'timestamptz', nullable: false },
  },
  defaultSort: '-lastEventAt',
  searchPrefix: (q) => sql`s.equipment_reference like ${numberPrefix(q)}`,
  searchFields: ['containerNumber'],
  // The scope filter needs the summary's dossier; the latest event and the customer never change the count.
  countFrom: sql`container_summaries s left join dossiers d on d.id = s.dossier_id`,
});
const CONTAINER_SELECT = sql`${EVENT_COLUMNS}, e.facility_code, e.facility_type_code,
  s.id as summary_id, s.equipment_reference as summary_reference, s.iso_equipment_code as summary_iso,
  s.dossier_id as summary_dossier_id, d.number as summary_dossier_number, c.id as customer_id,
  c.code as customer_code, c.name as customer_name, s.event_count, s.latest_event_date_time,
  s.latest_type_code, s.updated_at as summary_updated_at`;

const containerList: ListSource<ContainerListQuery, ContainerRow, ContainerSummary> = {
  spec: containerListSpec,
  select: CONTAINER_SELECT,
  scope: (scope) => (scope.all ? [] : [sql`d.customer_id = ${scope.partyId}`]),
  filters: {
    dossierId: filter.equals('s.dossier_id'),
    eventType: filter.anyOf('s.latest_event_type'),
    status: filter.anyOf('s.latest_type_code'),
    from: filter.atLeast('s.latest_event_date_time', 'timestamptz'),
    to: filter.atMost('s.latest_event_date_time', 'timestamptz'),
  },
  map: toContainerSummary,
};

export const unlinkedListSpec = defineListSpec({
  name: 'unlinked-events',
  visibility: containerEventFieldVisibility,
  from: sql`container_events e left join dossiers d on d.id = e.dossier_id`,
  id: { expr: 'e.id', type: 'uuid', nullable: false },
  sortable: {
    eventDateTime: { expr: 'e.event_date_time', type: 'timestamptz', nullable: false },
    receivedAt: { expr: 'e.created_at', type: 'timestamptz', nullable: false },
  },
  defaultSort: '-receivedAt',
  // A container-number prefix, or a booking/BL the event names.
  searchPrefix: (q) =>
    sql`(e.equipment_reference like ${numberPrefix(q)} or e.document_references @> array[${q.trim().toUpperCase()}::text])`,
  searchFields: ['equipmentReference', 'documentReferences'],
  countFrom: sql`container_events e`,
});
/** The dossiers that claim the event now, by number, with their customers (the rule of linkedDossier). */
const UNLINKED_SELECT = sql`${EVENT_COLUMNS},
  (select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'number', c.number,
            'customer', jsonb_build_object('id', p.id, 'code', p.code, 'name', p.name)) order by c.number), '[]')
     from ${claimingDossiers(sql`e.equipment_reference`, sql`e.document_references`, sql`e.event_date_time`)} c
     join parties p on p.id = c.customer_id
    where c.by_ref = c.best) as candidates`;

type UnlinkedRow = EventRow & { candidates: LinkCandidate[] };

function toUnlinked(r: UnlinkedRow): UnlinkedEvent {
  const [only, ...more] = r.candidates;
  return {
    ...toContainerEvent(r),
    reason: !only ? 'unmatched' : more.length ? 'ambiguous' : 'matched',
    suggestedDossier: only && !more.length ? { id: only.id, number: only.number } : null,
    candidates: r.candidates,
  };
}

const unlinkedList: ListSource<UnlinkedListQuery, UnlinkedRow, UnlinkedEvent> = {
  spec: unlinkedListSpec,
  select: UNLINKED_SELECT,
  where: () => [sql`e.dossier_id is null`],
  filters: { eventType: filter.anyOf('e.event_type') },
  map: toUnlinked,
};

export interface InsertMeta {
  source: ContainerEventSource;
  createdBy: string | null;
  apiKeyId: string | null;
}

/**
 * One statement for a whole batch: the events in, each linked to the one dossier that claims it (linkedDossier), duplicates (by eventID)
 * skipped, the containers' summaries brought up to date; it returns the events actually inserted.
 */
export function insertQuery(rows: NewEvent[], meta: InsertMeta): RawBuilder<InsertedEvent> {
  // eventID order: concurrent batches with the same events take their locks in the same order.
  const sorted = [...rows].sort((a, b) => (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0));
  return sql<InsertedEvent>`
        with v as (
          select * from jsonb_to_recordset(${JSON.stringify(sorted)}::jsonb) as v(
            event_id uuid, event_type text, classifier text, event_date_time timestamptz,
            event_created_date_time timestamptz, equipment_event_type_code text, transport_event_type_code text,
            shipment_event_type_code text, equipment_reference text, iso_equipment_code text,
            empty_indicator_code text, un_location_code text, facility_code text, facility_type_code text,
            mode_of_transport text, vessel_imo text, vessel_name text, voyage text, document_type_code text,
            document_id text, document_references text[], raw jsonb)
        ), ins as (
          insert into container_events (event_id, event_type, classifier, event_date_time, event_created_date_time,
            equipment_event_type_code, transport_event_type_code, shipment_event_type_code, equipment_reference,
            iso_equipment_code, empty_indicator_code, un_location_code, facility_code, facility_type_code,
            mode_of_transport, vessel_imo, vessel_name, voyage, document_type_code, document_id,
            document_references, raw, dossier_id, source, created_by, api_key_id)
          select v.event_id, v.event_type, v.classifier, v.event_date_time, v.event_created_date_time,
            v.equipment_event_type_code, v.transport_event_type_code, v.shipment_event_type_code, v.equipment_reference,
            v.iso_equipment_code, v.empty_indicator_code, v.un_location_code, v.facility_code, v.facility_type_code,
            v.mode_of_transport, v.vessel_imo, v.vessel_name, v.voyage, v.document_type_code, v.document_id,
            coalesce(v.document_references, '{}'), v.raw,
            ${linkedDossier(sql`v.equipment_reference`, sql`coalesce(v.document_references, '{}')`, sql`v.event_date_time`)},
            ${meta.source}, ${meta.createdBy}::uuid, ${meta.apiKeyId}::uuid
          from v order by v.event_id
          on conflict (event_id) do nothing
          returning *
        ), summaries as (${upsertSummaries(sql`ins`)})
        select ins.id, ins.event_id, ins.equipment_reference, ins.dossier_id, d.customer_id
        from ins left join dossiers d on d.id = ins.dossier_id`;
}

// ------------------------------------------------------------------------------------------------

export function containerEventsRepository(db: Db) {
  const containers = listReader(db, containerList);
  const unlinked = listReader(db, unlinkedList);
  return {
    /** Stores a batch in one statement (see insertQuery); answers the events actually inserted. */
    async insertBatch(rows: NewEvent[], meta: InsertMeta): Promise<InsertedEvent[]> {
      if (!rows.length) return [];
      return (await insertQuery(rows, meta).execute(db)).rows;
    },

    /** Which of these eventIDs are stored already. */
    async existingEventIds(ids: string[]): Promise<Set<string>> {
      if (!ids.length) return new Set();
      const r = await sql<{ event_id: string }>`
        select event_id from container_events where event_id = any(${ids}::uuid[])`.execute(db);
      return new Set(r.rows.map((x) => x.event_id));
    },

    listContainers: containers.page,
    allContainers: containers.all,

    /** Staff only (the service checks): unlinked events belong to no party yet. */
    listUnlinked: unlinked.page,
    allUnlinked: unlinked.all,

    /**
     * A container's events, newest `limit` (+1 to tell truncation), newest first: its own events, and
     * the transport and shipment events (no container of their own, e.g. a vessel's ETA) of the
     * dossiers it travels in. A customer sees only what is linked to their party's dossiers.
     */
    async timeline(
      scope: Scope,
      containerNumber: string,
      opts: { dossierId?: string | undefined; limit: number },
    ): Promise<EventRow[]> {
      const r = await sql<EventRow>`
        select ${EVENT_COLUMNS}
        from (
          select * from container_events where equipment_reference = ${containerNumber}
          union all
          select x.* from dossiers cd join container_events x on x.dossier_id = cd.id
           where cd.container_numbers @> array[${containerNumber}::text] and x.equipment_reference is null
        ) e left join dossiers d on d.id = e.dossier_id
        where true
          ${scope.all ? sql`` : sql`and d.customer_id = ${scope.partyId}`}
          ${opts.dossierId ? sql`and e.dossier_id = ${opts.dossierId}` : sql``}
        order by e.event_date_time desc, e.id desc
        limit ${opts.limit + 1}`.execute(db);
      return r.rows;
    },

    /** Whether the user may know this container: a dossier of theirs lists it, or (staff) events name it. */
    async containerKnown(scope: Scope, containerNumber: string): Promise<boolean> {
      const r = await sql<{ known: boolean }>`
        select exists (
          select 1 from dossiers d where d.container_numbers @> array[${containerNumber}::text]
            ${scope.all ? sql`` : sql`and d.customer_id = ${scope.partyId}`}
        ) ${scope.all ? sql`or exists (select 1 from container_summaries where equipment_reference = ${containerNumber})` : sql``}
        as known`.execute(db);
      return !!r.rows[0]?.known;
    },

    /** A dossier's events, newest `limit` (+1), newest first. */
    async dossierEvents(dossierId: string, limit: number): Promise<EventRow[]> {
      const r = await sql<EventRow>`
        select ${EVENT_COLUMNS}
        from container_events e left join dossiers d on d.id = e.dossier_id
        where e.dossier_id = ${dossierId}
        order by e.event_date_time desc, e.id desc
        limit ${limit + 1}`.execute(db);
      return r.rows;
    },

    async findEvent(
      scope: Scope,
      id: string,
      lock = false,
    ): Promise<(EventRow & { customer_id: string | null }) | undefined> {
      const r = await sql<EventRow & { customer_id: string | null }>`
        select ${EVENT_COLUMNS}, d.customer_id
        from container_events e left join dossiers d on d.id = e.dossier_id
        where e.id = ${id}
          ${scope.all ? sql`` : sql`and d.customer_id = ${scope.partyId}`}
        ${lock ? sql`for update of e` : sql``}`.execute(db);
      return r.rows[0];
    },

    /**
     * The container's other unlinked events that may follow a hand link to `dossierId`, locked: those
     * in that dossier's window (the rule's window, ADR 0015) that no other active dossier claims. A
     * container is reused voyage after voyage: another voyage's events, and events several dossiers
     * claim, stay unlinked for staff to decide one by one.
     */
    async unlinkedOfContainer(containerNumber: string, except: string, dossierId: string): Promise<string[]> {
      const r = await sql<{ id: string }>`
        select e.id from container_events e cross join dossiers d
        where d.id = ${dossierId} and e.equipment_reference = ${containerNumber} and e.dossier_id is null
          and e.id <> ${except} and ${fitsWindow(sql`e.event_date_time`)}
          and not exists (
            select 1 from ${claimingDossiers(sql`e.equipment_reference`, sql`e.document_references`, sql`e.event_date_time`)} c
             where c.by_ref = c.best and c.id <> ${dossierId})
        order by e.id for update of e`.execute(db);
      return r.rows.map((x) => x.id);
    },

    /** How many of a container's events no dossier has. */
    async unlinkedCount(containerNumber: string): Promise<number> {
      const r = await sql<{ n: number }>`
        select count(*)::int as n from container_events
        where equipment_reference = ${containerNumber} and dossier_id is null`.execute(db);
      return r.rows[0]?.n ?? 0;
    },

    async setDossier(ids: string[], dossierId: string | null): Promise<void> {
      await sql`update container_events set dossier_id = ${dossierId}::uuid where id = any(${ids}::uuid[])`.execute(
        db,
      );
    },

    /**
     * Recomputes the summary rows of these (container, dossier) pairs from their events: after events
     * move between dossiers, counts and latest events are exact again; a pair left without events goes.
     */
    async recomputeSummaries(pairs: { container: string; dossierId: string | null }[]): Promise<void> {
      const seen = new Set<string>();
      const unique = pairs
        .filter((p) => {
          const k = `${p.container}|${p.dossierId}`;
          if (seen.has(k)) return false;
          seen.add(k);
          return true;
        })
        .sort((a, b) => `${a.container}|${a.dossierId}`.localeCompare(`${b.container}|${b.dossierId}`));
      for (const p of unique) {
        const sameDossier = p.dossierId ? sql`dossier_id = ${p.dossierId}` : sql`dossier_id is null`;
        await sql`
          delete from container_summaries
          where equipment_reference = ${p.container} and ${sameDossier}`.execute(db);
        await upsertSummaries(
          sql`(select * from container_events where equipment_reference = ${p.container} and ${sameDossier})`,
        ).execute(db);
      }
    },
  };
}
export type ContainerEventsRepository = ReturnType<typeof containerEventsRepository>;

// ------------------------------------------------------------------------------------------------
// Volume: generated events for the dossiers' containers (seed:scale, bench:api)
// ------------------------------------------------------------------------------------------------

export interface SeedContainerEventsOptions {
  /** Equipment events per container of every dossier (a voyage's gate-out, gate-in, load, discharge…). */
  eventsPerDossierContainer: number;
  /** Dossiers per INSERT … SELECT (default 20 000). */
  batchSize?: number;
  /** Leave out dossiers that have events already (the demo company's, an earlier run's). */
  onlyDossiersWithoutEvents?: boolean;
  log?: (line: string) => void;
}

/** The steps of a container's voyage, cycled through when more events per container are asked for. */
const VOYAGE_STEPS = ['GTOT', 'STUF', 'GTIN', 'LOAD', 'DISC', 'GTOT', 'STRP', 'GTIN'] as const;

/**
 * Generates DCSA-shaped equipment events for every container of every dossier inside PostgreSQL
 * (INSERT … SELECT, in batches of dossiers): linked to the dossier, the voyage's steps in order around
 * its ETD, actual for the past and estimated for the future, with deterministic eventIDs (md5 of
 * dossier, container and step), so running it again adds nothing. Then the containers' summaries.
 * Returns the number of events inserted.
 */
export async function seedContainerEvents(
  db: Db,
  opts: SeedContainerEventsOptions,
): Promise<{ events: number; summaries: number; seconds: number }> {
  const t0 = performance.now();
  const n = Math.max(1, Math.floor(opts.eventsPerDossierContainer));
  const batch = opts.batchSize ?? 20_000;
  const log = opts.log ?? (() => {});
  const without = opts.onlyDossiersWithoutEvents
    ? sql`and not exists (select 1 from container_events x where x.dossier_id = d.id)`
    : sql``;
  let last = '00000000-0000-0000-0000-000000000000';
  let events = 0;
  for (;;) {
    const bounds = await sql<{ upto: string }>`
      select id::text as upto from (
        select id from dossiers d where id > ${last}::uuid and cardinality(container_numbers) > 0 ${without}
        order by id limit ${batch}) b
      order by id desc limit 1`.execute(db);
    const upto = bounds.rows[0]?.upto;
    if (!upto) break;
    const r = await sql`
      insert into container_events (event_id, event_type, classifier, event_date_time, event_created_date_time,
        equipment_event_type_code, equipment_reference, iso_equipment_code, empty_indicator_code, un_location_code,
        facility_type_code, mode_of_transport, vessel_imo, vessel_name, voyage, document_references, raw,
        dossier_id, source, created_at)
      select g.event_id, 'EQUIPMENT', g.classifier, g.at, g.created, g.step, g.container, '45G1', g.empty, g.locode,
             g.facility, g.mode, g.imo, g.vessel, g.voyage, g.refs,
             jsonb_strip_nulls(jsonb_build_object(
               'eventID', g.event_id::text, 'eventType', 'EQUIPMENT', 'eventClassifierCode', g.classifier,
               'eventDateTime', to_char(g.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
               'eventCreatedDateTime', to_char(g.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
               'equipmentEventTypeCode', g.step, 'equipmentReference', g.container, 'ISOEquipmentCode', '45G1',
               'emptyIndicatorCode', g.empty,
               'transportCall', jsonb_strip_nulls(jsonb_build_object(
                 'modeOfTransport', g.mode, 'UNLocationCode', g.locode, 'facilityTypeCode', g.facility,
                 'carrierVoyageNumber', g.voyage,
                 'vessel', case when g.mode = 'VESSEL' then jsonb_build_object('vesselIMONumber', g.imo, 'vesselName', g.vessel) end)),
               'documentReferences', case when g.bkg is not null then jsonb_build_array(
                 jsonb_build_object('documentReferenceType', 'BKG', 'documentReferenceValue', g.bkg)) end)),
             g.dossier_id, 'api', g.created
      from (
        select s.*,
               case when s.at <= now() then 'ACT' else 'EST' end as classifier,
               least(s.at, now()) - interval '5 minutes' as created,
               case when s.idx in (0, ${VOYAGE_STEPS.length - 1}) then 'EMPTY' else 'LADEN' end as empty,
               case when s.step in ('LOAD', 'DISC') then 'VESSEL' else 'TRUCK' end as mode,
               case when s.step in ('LOAD', 'DISC') then 'POTE' when s.step in ('STUF', 'STRP') then 'CLOC' else 'DEPO' end as facility,
               case when s.step in ('LOAD', 'DISC') then '9321483' end as imo,
               case when s.step in ('LOAD', 'DISC') then 'FVG EXPRESS' end as vessel,
               case when s.step in ('LOAD', 'DISC') then 'V' || (abs(hashtext(s.number)) % 900 + 100)::text || 'E' end as voyage,
               case when s.booking_number is not null then array[upper(s.booking_number)] else '{}'::text[] end as refs,
               s.booking_number as bkg
        from (
          select d.id as dossier_id, d.number, d.booking_number, c.container, k, (k - 1) % ${VOYAGE_STEPS.length} as idx,
                 md5(d.id::text || c.container || k::text)::uuid as event_id,
                 (array[${sql.join(VOYAGE_STEPS.map((s) => sql`${s}`))}])[1 + (k - 1) % ${VOYAGE_STEPS.length}] as step,
                 case when (k - 1) % ${VOYAGE_STEPS.length} < 4 then coalesce(d.origin_locode, 'NLRTM') else coalesce(d.destination_locode, 'CNSHA') end as locode,
                 coalesce(d.etd, current_date)::timestamp at time zone 'UTC'
                   + make_interval(hours => ((k - 1) * (24 * coalesce(d.eta - d.etd, 28))) / ${n} - 72) as at
          from dossiers d
          cross join lateral unnest(d.container_numbers) as c(container)
          cross join generate_series(1, ${n}) k
          where d.id > ${last}::uuid and d.id <= ${upto}::uuid and cardinality(d.container_numbers) > 0 ${without}
        ) s
      ) g
      on conflict (event_id) do nothing`.execute(db);
    events += Number(r.numAffectedRows ?? 0);
    last = upto;
    log(`  container_events ${events.toLocaleString('en-US')}`);
  }
  // The summaries from scratch for the seeded containers: one pass over the events, not one upsert per batch.
  const summaries = await sql`
    insert into container_summaries as s (equipment_reference, dossier_id, iso_equipment_code, event_count,
      latest_event_id, latest_is_act, latest_event_date_time, latest_event_created_date_time, latest_event_type, latest_type_code)
    select distinct on (e.equipment_reference, e.dossier_id) e.equipment_reference, e.dossier_id,
           max(e.iso_equipment_code) over w, count(*) over w, e.id, e.classifier = 'ACT', e.event_date_time,
           e.event_created_date_time, e.event_type,
           coalesce(e.equipment_event_type_code, e.transport_event_type_code, e.shipment_event_type_code)
    from container_events e
    where e.equipment_reference is not null
    window w as (partition by e.equipment_reference, e.dossier_id)
    order by e.equipment_reference, e.dossier_id, e.classifier = 'ACT' desc, e.event_date_time desc,
             e.event_created_date_time desc
    on conflict (equipment_reference, dossier_id) do update set
      event_count = excluded.event_count, iso_equipment_code = excluded.iso_equipment_code,
      ${sql.join(LATEST_COLUMNS.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`))},
      updated_at = now()`.execute(db);
  for (const t of ['container_events', 'container_summaries'])
    await sql.raw(`vacuum (analyze) ${t}`).execute(db);
  return {
    events,
    summaries: Number(summaries.numAffectedRows ?? 0),
    seconds: (performance.now() - t0) / 1000,
  };
}
