import {
  type ContainerEvent,
  type ContainerEventLinkResult,
  type ContainerEventSource,
  type ContainerListQuery,
  type ContainerTimeline,
  type CsvImportResponse,
  type CsvImportRow,
  containerEventFieldVisibility,
  type containerEventLinkSchema,
  containerNumberProblem,
  containerOf,
  type DcsaEvent,
  type DossierEvents,
  dcsaEventSchema,
  type FieldError,
  type IngestResponse,
  type IngestResult,
  iso6346CheckDigit,
  linkReferencesOf,
  MAX_CSV_IMPORT_ROWS,
  MAX_EVENTS_PER_REQUEST,
  normalizeContainerNumber,
  type TimelineEvent,
  type UnlinkedListQuery,
} from '@fvg/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { problems } from '../../http/problem.ts';
import { zodFieldErrors } from '../../http/validation.ts';
import { historyOf, writeAudit } from '../../records/audit.ts';
import type { RecordEvents } from '../../records/events.ts';
import { orNotFound, requireStaff, type Scope, scopeOf } from '../../records/scope.ts';
import { dossiersRepository } from '../dossiers/dossiers.repository.ts';
import type { SessionUser } from '../users/users.repository.ts';
import {
  containerEventsRepository,
  type EventRow,
  type InsertedEvent,
  type NewEvent,
  toContainerEvent,
} from './container-events.repository.ts';
import { headerColumns, parseCsv, rowToEvent } from './csv.ts';

/** Who posts events: an integration by its API key, or a staff user by hand. */
export type IngestActor = { kind: 'key'; keyId: string } | { kind: 'user'; user: SessionUser };

/** Events per INSERT statement (a CSV import commits several in one transaction). */
const INSERT_CHUNK = 1000;

/** Zod issues as field errors; an unknown field is reported on the field itself, as the route validation does. */
export function eventFieldErrors(error: z.ZodError): FieldError[] {
  return zodFieldErrors(
    new z.ZodError(
      error.issues.flatMap((issue): z.core.$ZodIssue[] =>
        issue.code === 'unrecognized_keys'
          ? issue.keys.map((k) => ({ ...issue, path: [...issue.path, k], message: 'Unknown field' }))
          : [issue],
      ),
    ),
  );
}

/** A validated event in the columns it is stored and searched by. */
export function toNewEvent(e: DcsaEvent): NewEvent {
  const call = e.eventType === 'SHIPMENT' ? undefined : e.transportCall;
  const location = e.eventType === 'EQUIPMENT' ? e.eventLocation : undefined;
  return {
    event_id: e.eventID,
    event_type: e.eventType,
    classifier: e.eventClassifierCode,
    event_date_time: e.eventDateTime,
    event_created_date_time: e.eventCreatedDateTime,
    equipment_event_type_code: e.eventType === 'EQUIPMENT' ? e.equipmentEventTypeCode : null,
    transport_event_type_code: e.eventType === 'TRANSPORT' ? e.transportEventTypeCode : null,
    shipment_event_type_code: e.eventType === 'SHIPMENT' ? e.shipmentEventTypeCode : null,
    equipment_reference: containerOf(e),
    iso_equipment_code: e.eventType === 'EQUIPMENT' ? (e.ISOEquipmentCode ?? null) : null,
    empty_indicator_code: e.eventType === 'EQUIPMENT' ? e.emptyIndicatorCode : null,
    un_location_code:
      call?.UNLocationCode ?? location?.UNLocationCode ?? call?.location?.UNLocationCode ?? null,
    facility_code: call?.facilityCode ?? location?.facilityCode ?? null,
    facility_type_code: call?.facilityTypeCode ?? null,
    mode_of_transport: call?.modeOfTransport ?? null,
    vessel_imo: call?.vessel?.vesselIMONumber ?? null,
    vessel_name: call?.vessel?.vesselName ?? null,
    voyage: call?.carrierVoyageNumber ?? call?.exportVoyageNumber ?? call?.importVoyageNumber ?? null,
    document_type_code: e.eventType === 'SHIPMENT' ? e.documentTypeCode : null,
    document_id: e.eventType === 'SHIPMENT' ? e.documentID : null,
    document_references: linkReferencesOf(e),
    raw: e,
  };
}

/** What makes two events "the same step" of a timeline: a newer plan or estimate replaces an older one. */
function stepOf(e: ContainerEvent): string {
  const call = e.transportCall;
  return [
    e.eventType,
    e.equipmentEventTypeCode ?? e.transportEventTypeCode ?? e.shipmentEventTypeCode,
    e.equipmentReference ?? '',
    e.UNLocationCode ?? '',
    call?.facilityCode ?? '',
    call?.carrierVoyageNumber ?? call?.exportVoyageNumber ?? call?.importVoyageNumber ?? '',
    e.documentID ?? '',
  ].join('|');
}

/**
 * Marks the plans and estimates a later message replaced (superseded) and, for each event, the
 * differing time the previous plan or estimate of the same step gave: how an ETA moved, and how the
 * actual time compares with the last estimate.
 */
export function annotateTimeline(events: ContainerEvent[]): TimelineEvent[] {
  const steps = new Map<string, ContainerEvent[]>();
  for (const e of events) {
    const key = stepOf(e);
    const list = steps.get(key);
    if (list) list.push(e);
    else steps.set(key, [e]);
  }
  const notes = new Map<string, { superseded: boolean; previousEventDateTime: string | null }>();
  for (const list of steps.values()) {
    list.sort(
      (a, b) =>
        Date.parse(a.eventCreatedDateTime) - Date.parse(b.eventCreatedDateTime) ||
        a.receivedAt.localeCompare(b.receivedAt),
    );
    const hasActual = list.some((e) => e.eventClassifierCode === 'ACT');
    let previous: ContainerEvent | undefined;
    list.forEach((e, i) => {
      const isPlan = e.eventClassifierCode !== 'ACT';
      const moved = previous && Date.parse(previous.eventDateTime) !== Date.parse(e.eventDateTime);
      notes.set(e.id, {
        superseded: isPlan && (hasActual || i < list.length - 1),
        previousEventDateTime: moved && previous ? previous.eventDateTime : null,
      });
      if (isPlan) previous = e;
    });
  }
  return events.map((e) => ({
    ...e,
    ...(notes.get(e.id) ?? { superseded: false, previousEventDateTime: null }),
  }));
}

/** Newest-first rows (limit + 1) as an oldest-first timeline, and whether older events were left out. */
function timelineOf(rows: EventRow[], limit: number): { items: TimelineEvent[]; truncated: boolean } {
  const truncated = rows.length > limit;
  const events = (truncated ? rows.slice(0, limit) : rows).map(toContainerEvent).reverse();
  return { items: annotateTimeline(events), truncated };
}

export function containerEventsService(db: Db, events: RecordEvents) {
  const repo = containerEventsRepository(db);
  const dossiers = dossiersRepository(db);

  /**
   * Every accepted event announces its container (or itself, without one) to staff and to the linked
   * dossier's customer, and the linked dossiers change (their events tab): open timelines refresh live.
   */
  function announce(
    inserted: {
      id: string;
      equipment_reference: string | null;
      dossier_id: string | null;
      customer_id: string | null;
    }[],
    action: 'created' | 'updated',
  ) {
    const sent = new Set<string>();
    const touched = new Map<string, string | null>();
    for (const r of inserted) {
      const id = r.equipment_reference ?? r.id;
      const key = `${id}|${r.customer_id ?? ''}`;
      if (!sent.has(key)) {
        sent.add(key);
        events.publish({
          kind: 'container-event',
          id,
          action,
          partyIds: r.customer_id ? [r.customer_id] : [],
        });
      }
      if (r.dossier_id) touched.set(r.dossier_id, r.customer_id);
    }
    for (const [id, customer] of touched)
      events.publish({ kind: 'dossier', id, action: 'updated', partyIds: customer ? [customer] : [] });
  }

  /**
   * ADR 0022: an actual discharge (DISC) or vessel arrival (ARRI) at a dossier's destination, linked
   * to that dossier while it is in transit, is its arrival: the dossier moves to `arrived` with the
   * event's day (UTC) as ATA, audited as coming from the event. Earlier ports (transhipment), planned
   * or estimated events, and dossiers not in transit are left alone; an arrival before the recorded
   * departure is not taken (another voyage's event). Answers the dossiers that arrived.
   */
  async function recordArrivals(eventIds: string[], actorId: string | null) {
    if (!eventIds.length) return [];
    const day = sql`(e.event_date_time at time zone 'UTC')::date`;
    const candidates = (
      await sql<{
        dossier_id: string;
        customer_id: string;
        ata: string;
        code: string;
        container: string | null;
        locode: string;
      }>`
        select distinct on (d.id) d.id as dossier_id, d.customer_id, ${day}::text as ata,
               coalesce(e.equipment_event_type_code, e.transport_event_type_code) as code,
               e.equipment_reference as container, e.un_location_code as locode
          from container_events e join dossiers d on d.id = e.dossier_id
         where e.id = any(${eventIds}::uuid[]) and e.classifier = 'ACT'
           and (e.equipment_event_type_code = 'DISC' or e.transport_event_type_code = 'ARRI')
           and d.status = 'in_transit' and e.un_location_code = d.destination_locode
           and (d.atd is null or ${day} >= d.atd)
         order by d.id, e.event_date_time`.execute(db)
    ).rows;
    const arrived: { id: string; customer_id: string }[] = [];
    for (const c of candidates) {
      const done = await inTransaction(db, async (trx) => {
        // Status, not version: a staff edit in between keeps its own lock; only the status must hold.
        const row = await trx
          .updateTable('dossiers')
          .set((eb) => ({
            status: 'arrived',
            ata: c.ata,
            version: eb('version', '+', 1),
            updated_at: new Date(),
            updated_by: actorId,
          }))
          .where('id', '=', c.dossier_id)
          .where('status', '=', 'in_transit')
          .returning('id')
          .executeTakeFirst();
        if (!row) return false;
        const what = c.code === 'DISC' ? 'discharge' : 'vessel arrival';
        await writeAudit(trx, {
          kind: 'dossier',
          id: c.dossier_id,
          action: `arrival recorded from the ${what}${c.container ? ` of ${c.container}` : ''} at ${c.locode}`,
          actorId,
          changes: [
            { field: 'status', from: 'in_transit', to: 'arrived' },
            { field: 'ata', from: null, to: c.ata },
          ],
        });
        return true;
      });
      if (done) arrived.push({ id: c.dossier_id, customer_id: c.customer_id });
    }
    return arrived;
  }

  function meta(actor: IngestActor, source: ContainerEventSource) {
    return {
      source,
      createdBy: actor.kind === 'user' ? actor.user.id : null,
      apiKeyId: actor.kind === 'key' ? actor.keyId : null,
    };
  }

  /** Inserts in chunks (in the caller's transaction, if any); answers the inserted events. */
  async function store(dbOrTrx: Db, rows: NewEvent[], m: ReturnType<typeof meta>): Promise<InsertedEvent[]> {
    const r = containerEventsRepository(dbOrTrx);
    const inserted: InsertedEvent[] = [];
    for (let i = 0; i < rows.length; i += INSERT_CHUNK)
      inserted.push(...(await r.insertBatch(rows.slice(i, i + INSERT_CHUNK), m)));
    return inserted;
  }

  async function eventOr404(scope: Scope, id: string) {
    return orNotFound(await repo.findEvent(scope, id), 'container event');
  }

  function normalizedContainer(raw: string): string {
    const n = normalizeContainerNumber(raw);
    const problem = containerNumberProblem(n);
    if (problem) {
      throw problems.validation([
        {
          field: 'containerNumber',
          message:
            problem === 'format'
              ? 'A container number is 4 letters (the 4th U, J or Z) and 7 digits, e.g. MSKU6011672'
              : `Check digit does not match: ${n.slice(0, 10)} needs ${iso6346CheckDigit(n.slice(0, 10))}`,
        },
      ]);
    }
    return n;
  }

  return {
    /**
     * DCSA events, one or a batch. Each event is validated on its own: a batch stores its valid events
     * and reports the invalid ones with their field paths (an integration must not lose a day of gate
     * moves over one bad record); a single invalid event answers 400. Idempotent by eventID: an event
     * sent again is a duplicate and changes nothing.
     */
    async ingest(actor: IngestActor, body: unknown): Promise<IngestResponse> {
      if (actor.kind === 'user') requireStaff(actor.user);
      const single = !Array.isArray(body);
      const items: unknown[] = single ? [body] : (body as unknown[]);
      if (!items.length) throw problems.validation([{ field: 'body', message: 'Send at least one event' }]);
      if (items.length > MAX_EVENTS_PER_REQUEST) {
        throw problems.validation([
          {
            field: 'body',
            message: `At most ${MAX_EVENTS_PER_REQUEST} events per request (got ${items.length})`,
          },
        ]);
      }
      const results: IngestResult[] = [];
      const valid: { index: number; row: NewEvent }[] = [];
      const seen = new Set<string>();
      items.forEach((item, index) => {
        const parsed = dcsaEventSchema.safeParse(item);
        if (!parsed.success) {
          const sentId = (item as { eventID?: unknown } | null)?.eventID;
          results[index] = {
            index,
            eventID: typeof sentId === 'string' ? sentId.trim().toLowerCase() : null,
            status: 'invalid',
            errors: eventFieldErrors(parsed.error),
          };
        } else if (seen.has(parsed.data.eventID)) {
          results[index] = { index, eventID: parsed.data.eventID, status: 'duplicate' };
        } else {
          seen.add(parsed.data.eventID);
          valid.push({ index, row: toNewEvent(parsed.data) });
        }
      });
      if (single && results[0]?.status === 'invalid') {
        const errors = results[0].errors ?? [];
        throw problems.validation(
          errors,
          `The event has invalid fields: ${errors.map((e) => e.field).join(', ')}.`,
        );
      }
      const inserted = await store(
        db,
        valid.map((v) => v.row),
        meta(actor, actor.kind === 'key' ? 'api' : 'manual'),
      );
      await recordArrivals(
        inserted.filter((r) => r.dossier_id).map((r) => r.id),
        actor.kind === 'user' ? actor.user.id : null,
      );
      const byEventId = new Map(inserted.map((r) => [r.event_id, r]));
      for (const { index, row } of valid) {
        const created = byEventId.get(row.event_id);
        results[index] = created
          ? { index, eventID: row.event_id, status: 'created', id: created.id }
          : { index, eventID: row.event_id, status: 'duplicate' };
      }
      announce(inserted, 'created');
      return {
        created: inserted.length,
        duplicates: results.filter((r) => r.status === 'duplicate').length,
        invalid: results.filter((r) => r.status === 'invalid').length,
        results,
      };
    },

    /**
     * CSV import: `preview` validates every row and stores nothing; `commit` stores all rows in one
     * transaction, and refuses (400, stores nothing) while any row is invalid unless `validRowsOnly`.
     */
    async importCsv(
      user: SessionUser,
      text: string,
      opts: { mode: 'preview' | 'commit'; validRowsOnly: boolean },
    ): Promise<CsvImportResponse> {
      requireStaff(user);
      const records = parseCsv(text);
      const [header, ...data] = records;
      if (!header || !data.length) {
        throw problems.validation([
          { field: 'file', message: 'The file needs a header row and at least one row' },
        ]);
      }
      if (data.length > MAX_CSV_IMPORT_ROWS) {
        throw problems.validation([
          { field: 'file', message: `At most ${MAX_CSV_IMPORT_ROWS} rows per file (got ${data.length})` },
        ]);
      }
      const columns = headerColumns(header);
      const importedAt = new Date().toISOString();
      const rows: CsvImportRow[] = [];
      const valid: { row: CsvImportRow; event: NewEvent }[] = [];
      const seen = new Set<string>();
      for (const record of data) {
        const mapped = rowToEvent(columns, record.cells, importedAt);
        const parsed = dcsaEventSchema.safeParse(mapped.event);
        const errors = [
          ...mapped.errors,
          ...(parsed.success ? [] : eventFieldErrors(parsed.error)).map((e) => ({
            field: mapped.columnOf(e.field),
            message: e.message,
          })),
        ];
        const eventID = parsed.success ? parsed.data.eventID : (mapped.event.eventID as string | undefined);
        const row: CsvImportRow = {
          row: record.line,
          eventID: eventID ?? null,
          equipmentReference: parsed.success ? containerOf(parsed.data) : null,
          status: 'valid',
        };
        if (errors.length || !parsed.success) {
          row.status = 'invalid';
          row.errors = errors;
        } else if (seen.has(parsed.data.eventID)) row.status = 'duplicate';
        else {
          seen.add(parsed.data.eventID);
          valid.push({ row, event: toNewEvent(parsed.data) });
        }
        rows.push(row);
      }
      const existing = await repo.existingEventIds(valid.map((v) => v.event.event_id));
      const fresh = valid.filter((v) => {
        if (!existing.has(v.event.event_id)) return true;
        v.row.status = 'duplicate';
        return false;
      });
      const invalid = rows.filter((r) => r.status === 'invalid');
      const count = (status: CsvImportRow['status']) => rows.filter((r) => r.status === status).length;
      const answer = (committed: boolean, created: number): CsvImportResponse => ({
        mode: opts.mode,
        committed,
        total: rows.length,
        valid: fresh.length,
        invalid: invalid.length,
        duplicates: count('duplicate'),
        created,
        rows,
      });
      if (opts.mode === 'preview') return answer(false, 0);

      if (invalid.length && !opts.validRowsOnly) {
        throw problems.validation(
          invalid.flatMap((r) =>
            (r.errors ?? []).map((e) => ({ field: `rows.${r.row}.${e.field}`, message: e.message })),
          ),
          `Nothing was imported: ${invalid.length} of ${rows.length} rows have errors. Correct them, or import only the valid rows.`,
        );
      }
      const m = meta({ kind: 'user', user }, 'csv');
      // One transaction; eventID order across its statements, so concurrent imports lock alike.
      const ordered = fresh.map((v) => v.event).sort((a, b) => (a.event_id < b.event_id ? -1 : 1));
      const inserted = await inTransaction(db, (trx) => store(trx, ordered, m));
      const created = new Set(inserted.map((r) => r.event_id));
      for (const v of fresh) v.row.status = created.has(v.event.event_id) ? 'created' : 'duplicate';
      for (const r of invalid) r.status = 'skipped';
      await recordArrivals(
        inserted.filter((r) => r.dossier_id).map((r) => r.id),
        user.id,
      );
      announce(inserted, 'created');
      return answer(true, inserted.length);
    },

    async get(user: SessionUser, id: string): Promise<ContainerEvent> {
      return toContainerEvent(await eventOr404(scopeOf(user), id));
    },

    listContainers: (user: SessionUser, query: ContainerListQuery) =>
      repo.listContainers(scopeOf(user), query),
    allContainers: (user: SessionUser, query: ContainerListQuery) => repo.allContainers(scopeOf(user), query),

    listUnlinked(user: SessionUser, query: UnlinkedListQuery) {
      requireStaff(user);
      return repo.listUnlinked(scopeOf(user), query);
    },
    allUnlinked(user: SessionUser, query: UnlinkedListQuery) {
      requireStaff(user);
      return repo.allUnlinked(scopeOf(user), query);
    },

    /** A container's timeline; 404 when the user may not know the container (as for one that does not exist). */
    async timeline(
      user: SessionUser,
      containerNumber: string,
      query: { dossierId?: string | undefined; limit: number },
    ): Promise<ContainerTimeline> {
      const n = normalizedContainer(containerNumber);
      const scope = scopeOf(user);
      const rows = await repo.timeline(scope, n, query);
      if (!rows.length && !(await repo.containerKnown(scope, n)))
        throw problems.notFound('This container does not exist.');
      return { containerNumber: n, ...timelineOf(rows, query.limit) };
    },

    /** The dossier's events tab; scoped through the dossier, like its chat. */
    async dossierEvents(user: SessionUser, idOrNumber: string, limit: number): Promise<DossierEvents> {
      const d = await dossiers.find(scopeOf(user), idOrNumber);
      if (!d) throw problems.notFound('This dossier does not exist.');
      return { dossierId: d.id, ...timelineOf(await repo.dossierEvents(d.id, limit), limit) };
    },

    /**
     * Links an event to a dossier by hand (or unlinks it with null): the event staff chose goes where
     * they say. `applyToContainer` also takes the container's unlinked events in the dossier's window
     * that no other active dossier claims (never another voyage's, never a contested one). Each change
     * goes to the event's audit trail; the answer says how many of the container's events stay unlinked.
     */
    async link(
      user: SessionUser,
      id: string,
      input: z.output<typeof containerEventLinkSchema>,
    ): Promise<ContainerEventLinkResult> {
      requireStaff(user);
      const target = input.dossierId ? await dossiers.find({ all: true }, input.dossierId) : null;
      if (input.dossierId && !target)
        throw problems.validation([{ field: 'dossierId', message: 'No such dossier' }]);
      // An unconfirmed booking is the customer's claim; carrier data reaches it only once staff confirm it.
      if (target?.status === 'requested')
        throw problems.validation([
          { field: 'dossierId', message: `Confirm the booking ${target.number} before linking events to it` },
        ]);
      const result = await inTransaction(db, async (trx) => {
        const r = containerEventsRepository(trx);
        const event = await r.findEvent({ all: true }, id, true);
        if (!event) throw problems.notFound('This container event does not exist.');
        const others =
          input.applyToContainer && event.equipment_reference && target
            ? await r.unlinkedOfContainer(event.equipment_reference, event.id, target.id)
            : [];
        const before = [
          event,
          ...(await Promise.all(others.map((o) => r.findEvent({ all: true }, o)))),
        ].filter((e): e is NonNullable<typeof e> => !!e && e.dossier_id !== (target?.id ?? null));
        const left = () => (event.equipment_reference ? r.unlinkedCount(event.equipment_reference) : 0);
        if (!before.length) return { changed: [], leftUnlinked: await left() };
        await r.setDossier(
          before.map((e) => e.id),
          target?.id ?? null,
        );
        await r.recomputeSummaries(
          before
            .filter((e) => e.equipment_reference)
            .flatMap((e) => [
              { container: e.equipment_reference as string, dossierId: e.dossier_id },
              { container: e.equipment_reference as string, dossierId: target?.id ?? null },
            ]),
        );
        for (const e of before) {
          await writeAudit(trx, {
            kind: 'container-event',
            id: e.id,
            action: target ? 'linked' : 'unlinked',
            actorId: user.id,
            changes: [{ field: 'dossier', from: e.dossier_number, to: target?.number ?? null }],
          });
        }
        return { changed: before, leftUnlinked: await left() };
      });
      const { changed, leftUnlinked } = result;
      if (target)
        await recordArrivals(
          changed.map((e) => e.id),
          user.id,
        );
      const announced = changed.flatMap((e) => [
        { ...e, customer_id: e.customer_id },
        { ...e, dossier_id: target?.id ?? null, customer_id: target?.customer_id ?? null },
      ]);
      announce(announced, 'updated');
      const after = await Promise.all(changed.map((e) => repo.findEvent({ all: true }, e.id)));
      return {
        linked: after.filter((e): e is NonNullable<typeof e> => !!e).map(toContainerEvent),
        leftUnlinked,
      };
    },

    async history(user: SessionUser, id: string) {
      const row = await eventOr404(scopeOf(user), id);
      return historyOf(db, 'container-event', row.id, {
        scope: scopeOf(user),
        visibility: containerEventFieldVisibility,
      });
    },
  };
}
export type ContainerEventsService = ReturnType<typeof containerEventsService>;
