import {
  type AllocationState,
  type CustomsStatus,
  type DeclarationStatus,
  type DeclarationType,
  type HandlingUnitKind,
  type OutboundProcedure,
  type ShipmentAllocation,
  type ShipmentListItem,
  type ShipmentListQuery,
  type ShipmentStatus,
  type StockUnit,
  shipmentFieldVisibility,
} from '@fvg/contracts';
import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { defineListSpec, escapeLike, filter, type ListSource, listReader } from '../../../records/list.ts';
import type { Scope } from '../../../records/scope.ts';

const iso = (d: Date) => d.toISOString();

export interface CurrentDeclaration {
  id: string;
  lrn: string;
  mrn: string | null;
  type: DeclarationType;
  status: DeclarationStatus;
  createdAt: string;
}

export interface ShipmentRow {
  id: string;
  number: string;
  status: ShipmentStatus;
  owner_id: string;
  owner_code: string;
  owner_name: string;
  consignee_id: string | null;
  consignee_code: string | null;
  consignee_party_name: string | null;
  consignee_name: string | null;
  delivery_address: string | null;
  planned_date: string | null;
  outbound_procedure: OutboundProcedure | null;
  /** The current outbound declaration as the reader may see it (ADR 0048), or null. */
  declaration: CurrentDeclaration | null;
  customer_reference: string | null;
  notes: string | null;
  released_at: Date | null;
  picking_at: Date | null;
  packed_at: Date | null;
  shipped_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  lines: number;
  quantity: number;
  version: number;
  created_at: Date;
  created_by: string | null;
  created_by_name: string | null;
  updated_at: Date;
}

const FROM = sql`shipments sh join parties p on p.id = sh.owner_id
  left join parties c on c.id = sh.consignee_id
  left join users u on u.id = sh.created_by`;
// The quantity sums as bigint: MAX_SHIPMENT_LINES lines of up to 1e9 each overflow int4 (INT8 reads as a number).
/**
 * The current outbound declaration (the latest not cancelled, ADR 0048), of those `scope` may see: a
 * customer sees declarations once lodged, as the declarations' own scoping says.
 */
const currentDeclaration = (scope: Scope) => sql`(
  select json_build_object('id', x.id, 'lrn', x.lrn, 'mrn', x.mrn, 'type', x.type, 'status', x.status,
    'createdAt', to_char(x.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  from declarations x
  where x.shipment_id = sh.id and x.status <> 'cancelled' ${scope.all ? sql`` : sql`and x.status <> 'draft'`}
  order by x.created_at desc, x.id desc limit 1) as declaration`;
const selectFor = (
  scope: Scope,
) => sql`sh.id, sh.number, sh.status, sh.owner_id, p.code as owner_code, p.name as owner_name,
  sh.consignee_id, c.code as consignee_code, c.name as consignee_party_name, sh.consignee_name,
  sh.delivery_address, sh.planned_date::text as planned_date, sh.outbound_procedure, ${currentDeclaration(scope)},
  sh.customer_reference, sh.notes, sh.released_at, sh.picking_at, sh.packed_at, sh.shipped_at, sh.cancelled_at,
  sh.cancel_reason,
  (select count(*)::int from shipment_lines l where l.shipment_id = sh.id) as lines,
  (select coalesce(sum(l.quantity), 0)::bigint from shipment_lines l where l.shipment_id = sh.id) as quantity,
  sh.version, sh.created_at, sh.created_by, u.name as created_by_name, sh.updated_at`;

export function toListItem(r: ShipmentRow): ShipmentListItem {
  return {
    id: r.id,
    number: r.number,
    status: r.status,
    owner: { id: r.owner_id, code: r.owner_code, name: r.owner_name },
    consigneeName: r.consignee_name ?? r.consignee_party_name,
    plannedDate: r.planned_date,
    lines: r.lines,
    quantity: r.quantity,
    declaration: r.declaration
      ? { id: r.declaration.id, lrn: r.declaration.lrn, status: r.declaration.status }
      : null,
    customerReference: r.customer_reference,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

export const shipmentListSpec = defineListSpec({
  name: 'shipments',
  visibility: shipmentFieldVisibility,
  from: FROM,
  id: { expr: 'sh.id', type: 'uuid', nullable: false },
  sortable: {
    number: { expr: 'sh.number', type: 'text', nullable: false },
    plannedDate: { expr: 'sh.planned_date', type: 'date', nullable: true },
    status: { expr: 'sh.status', type: 'text', nullable: false },
    createdAt: { expr: 'sh.created_at', type: 'timestamptz', nullable: false },
    updatedAt: { expr: 'sh.updated_at', type: 'timestamptz', nullable: false },
  },
  defaultSort: '-createdAt',
  searchPrefix: (q) => {
    const p = `${escapeLike(q.toUpperCase())}%`;
    return sql`(sh.number like ${p} or upper(sh.customer_reference) like ${p})`;
  },
  search: sql`(sh.number || ' ' || coalesce(sh.customer_reference, '') || ' ' || coalesce(sh.consignee_name, ''))`,
  searchFields: ['number', 'customerReference', 'consigneeName'],
  countFrom: sql`shipments sh`,
});

export type ShipmentFilters = Omit<ShipmentListQuery, 'page' | 'pageSize' | 'cursor'>;

const shipmentList: ListSource<ShipmentFilters, ShipmentRow, ShipmentListItem> = {
  spec: shipmentListSpec,
  select: selectFor,
  scope: (scope) => (scope.all ? [] : [sql`sh.owner_id = ${scope.partyId}`]),
  filters: {
    status: filter.anyOf('sh.status'),
    ownerId: filter.equals('sh.owner_id'),
    sku: (sku) =>
      sql`exists (select 1 from shipment_lines l where l.shipment_id = sh.id and l.sku like ${`${escapeLike(sku.toUpperCase())}%`})`,
    reference: (reference) => {
      const p = `${escapeLike(reference.toUpperCase())}%`;
      return sql`(sh.number like ${p} or upper(sh.customer_reference) like ${p})`;
    },
    from: filter.atLeast('sh.planned_date', 'date'),
    to: filter.atMost('sh.planned_date', 'date'),
  },
  map: toListItem,
};

/** One shipment in scope (another party's reads as missing); `lock` takes its row lock. */
export async function findShipment(
  db: Db,
  scope: Scope,
  id: string,
  lock = false,
): Promise<ShipmentRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  const where = scope.all ? sql`` : sql`and sh.owner_id = ${scope.partyId}`;
  // `for update of sh`: the outer joins cannot be locked, and only the shipment needs to be.
  const r = await sql<ShipmentRow>`select ${selectFor(scope)} from ${FROM} where sh.id = ${id} ${where}
    ${lock ? sql`for update of sh` : sql``}`.execute(db);
  return r.rows[0];
}

export interface LineRow {
  id: string;
  position: number;
  sku: string;
  stock_record_id: string | null;
  quantity: number;
  description: string | null;
  unit: StockUnit | null;
}

export async function linesOf(db: Db, shipmentId: string): Promise<LineRow[]> {
  const r = await sql<LineRow>`
    select l.id, l.position, l.sku, l.stock_record_id, l.quantity, l.description,
      coalesce(s.unit, (select s2.unit from stock_records s2 join shipments sh on sh.id = l.shipment_id
        where s2.owner_id = sh.owner_id and s2.sku = l.sku order by s2.received_on desc, s2.id desc limit 1)) as unit
    from shipment_lines l left join stock_records s on s.id = l.stock_record_id
    where l.shipment_id = ${shipmentId} order by l.position`.execute(db);
  return r.rows;
}

/** A stock record locked for a release, as the planner needs it. */
export interface LockedStock {
  id: string;
  sku: string;
  received_on: string;
  quantity_available: number;
  unit: StockUnit;
  customs_status: CustomsStatus;
}

/** FIFO rows locked per statement at first; doubled each further step of a SKU (a short SKU ends up all locked). */
const FIRST_BATCH = 4;

/**
 * Locks the stock records a release of these lines needs, in the one order `(sku, received_on, id)`
 * (ADR 0035): per SKU, the owner's records with something available oldest first, a few per statement,
 * until they hold the SKU's whole demand (every line of it, given-record lines too: a given record can
 * be among the oldest, and what a line before takes from it is then missing for the FIFO lines) or
 * there are none left — so a short SKU has all its records locked and the 409 can say how many are
 * available. A given record is locked at its place in that order: the FIFO steps stop below it, it is
 * locked, the walk continues above it; the ones above where the walk stopped are locked after it.
 * Every lock is thus taken above all the ones the transaction already holds, as ship and cancel do
 * (one ordered statement), so two of them can never wait on each other in a cycle.
 */
export async function lockStockFor(
  trx: Db,
  ownerId: string,
  lines: readonly Pick<LineRow, 'sku' | 'stock_record_id' | 'quantity'>[],
): Promise<LockedStock[]> {
  const ids = [...new Set(lines.flatMap((l) => (l.stock_record_id ? [l.stock_record_id] : [])))];
  // Where the given records stand in the order (not locked yet: a lock now would come out of order).
  const given = ids.length
    ? (
        await sql<{ id: string; sku: string }>`
          select id, sku from stock_records where owner_id = ${ownerId} and id = any(${ids}::uuid[])
          order by sku, received_on, id`.execute(trx)
      ).rows
    : [];
  const skuOf = (l: Pick<LineRow, 'sku' | 'stock_record_id'>) =>
    l.stock_record_id ? given.find((g) => g.id === l.stock_record_id)?.sku : l.sku;
  const wanted = [...new Set(lines.flatMap((l) => skuOf(l) ?? []))];
  // The SKUs in the database's collation, the order ship and cancel lock in (not JavaScript's).
  const skus = wanted.length
    ? (
        await sql<{ sku: string }>`select sku from unnest(${wanted}::text[]) sku order by sku`.execute(trx)
      ).rows.map((r) => r.sku)
    : [];
  const locked: LockedStock[] = [];
  const lockGiven = async (list: string[]) => {
    if (!list.length) return [];
    const r = await sql<LockedStock>`
      select id, sku, received_on::text as received_on, quantity_available, unit, customs_status from stock_records
      where id = any(${list}::uuid[]) order by received_on, id for update`.execute(trx);
    locked.push(...r.rows);
    return r.rows;
  };
  for (const sku of skus) {
    const pending = given.filter((g) => g.sku === sku).map((g) => g.id);
    const need = lines.filter((l) => skuOf(l) === sku).reduce((s, l) => s + l.quantity, 0);
    if (!lines.some((l) => !l.stock_record_id && l.sku === sku)) {
      await lockGiven(pending);
      continue;
    }
    let covered = 0;
    let after: LockedStock | undefined;
    let batch = FIRST_BATCH;
    while (covered < need) {
      const below = pending[0];
      // With `limit`, a row another release changed while we waited for it is re-checked after the
      // wait and left out when nothing is available any more: a step may return fewer rows than asked
      // without the SKU being exhausted, so only an empty step ends a range.
      const rows = (
        await sql<LockedStock>`
          select id, sku, received_on::text as received_on, quantity_available, unit, customs_status from stock_records
          where owner_id = ${ownerId} and sku = ${sku} and quantity_available > 0
            ${after ? sql`and (received_on, id) > (${after.received_on}::date, ${after.id}::uuid)` : sql``}
            ${below ? sql`and (received_on, id) < (select received_on, id from stock_records where id = ${below}::uuid)` : sql``}
          order by received_on, id limit ${batch} for update`.execute(trx)
      ).rows;
      if (rows.length) {
        locked.push(...rows);
        covered += rows.reduce((s, r) => s + r.quantity_available, 0);
        after = rows.at(-1);
        batch *= 2;
        continue;
      }
      if (!below) break;
      // Nothing left below the next given record: its turn, and the walk goes on above it.
      pending.shift();
      const [g] = await lockGiven([below]);
      if (g) {
        covered += Math.max(0, g.quantity_available);
        after = g;
      }
    }
    await lockGiven(pending);
  }
  return locked;
}

export interface AllocationRow {
  id: string;
  line_id: string;
  stock_record_id: string;
  handling_unit_id: string | null;
  quantity: number;
  state: AllocationState;
  receipt_number: string;
  received_on: string;
  customs_status: CustomsStatus;
  inbound_mrn: string | null;
  unit_kind: HandlingUnitKind | null;
  unit_sscc: string | null;
  unit_reference: string | null;
  location: string;
  sku: string;
  description: string;
  commodity_code: string | null;
  country_of_origin: string | null;
  quantity_received: number;
  gross_mass_kg: string | null;
  net_mass_kg: string | null;
  value: string | null;
  currency: string | null;
  packages: number | null;
  line_no: number;
  entry_declaration_id: string | null;
}

export async function allocationsOf(db: Db, shipmentId: string): Promise<AllocationRow[]> {
  const r = await sql<AllocationRow>`
    select a.id, a.line_id, a.stock_record_id, a.handling_unit_id, a.quantity, a.state,
      rc.number as receipt_number, s.received_on::text as received_on, s.customs_status, s.inbound_mrn,
      h.kind as unit_kind, h.sscc as unit_sscc, h.reference as unit_reference,
      coalesce(h.location, s.location) as location, s.sku, s.description, s.commodity_code, s.country_of_origin,
      s.quantity_received, s.gross_mass_kg::text, s.net_mass_kg::text, s.value::text, s.currency,
      s.packages, s.line_no, rc.entry_declaration_id
    from shipment_allocations a
    join stock_records s on s.id = a.stock_record_id
    join stock_receipts rc on rc.id = s.receipt_id
    left join handling_units h on h.id = a.handling_unit_id
    where a.shipment_id = ${shipmentId}
    order by s.received_on, s.id, h.position nulls first, a.created_at, a.id`.execute(db);
  return r.rows;
}

/** What an entry declaration (the receipt's H2) says about its goods, for the outbound one's prefill. */
export interface EntryData {
  id: string;
  mrn: string | null;
  currency: string | null;
  country_of_dispatch: string | null;
  incoterm: string | null;
  incoterm_place: string | null;
  nature_of_transaction: string | null;
  office_of_lodgement: string | null;
  consignor: unknown;
  items: {
    position: number;
    commodity_code: string | null;
    description: string | null;
    country_of_origin: string | null;
    preference: string | null;
    package_kind: string | null;
    customs_value: string | null;
    statistical_value: string | null;
    duty_rate: string | null;
    vat_rate: string | null;
    valuation_method: string | null;
    valuation_reason: string | null;
    supplementary_units: string | null;
    supporting_documents: { type: string; reference: string }[];
  }[];
}

/** The entry declarations among ids that are the owner's (never another party's, whatever a row links). */
export async function entriesOf(db: Db, ownerId: string, ids: string[]): Promise<EntryData[]> {
  if (!ids.length) return [];
  const heads = await sql<Omit<EntryData, 'items'>>`
    select id, mrn, currency, country_of_dispatch, incoterm, incoterm_place,
      nature_of_transaction, office_of_lodgement, consignor
    from declarations where id = any(${ids}::uuid[]) and customer_id = ${ownerId}`.execute(db);
  const own = heads.rows.map((h) => h.id);
  const items = await sql<EntryData['items'][number] & { declaration_id: string }>`
    select declaration_id, position, commodity_code, description, country_of_origin, preference, package_kind,
      customs_value::text, statistical_value::text, duty_rate::text, vat_rate::text, valuation_method,
      valuation_reason, supplementary_units::text, supporting_documents
    from declaration_items where declaration_id = any(${own}::uuid[]) order by declaration_id, position`.execute(
    db,
  );
  return heads.rows.map((h) => ({ ...h, items: items.rows.filter((i) => i.declaration_id === h.id) }));
}

export function toAllocation(a: AllocationRow): ShipmentAllocation {
  return {
    id: a.id,
    stockRecordId: a.stock_record_id,
    receiptNumber: a.receipt_number,
    receivedOn: a.received_on,
    customsStatus: a.customs_status,
    inboundMrn: a.inbound_mrn,
    handlingUnit:
      a.handling_unit_id && a.unit_kind
        ? { id: a.handling_unit_id, kind: a.unit_kind, sscc: a.unit_sscc, reference: a.unit_reference }
        : null,
    location: a.location,
    quantity: a.quantity,
    state: a.state,
  };
}

export function shipmentRepository(db: Db) {
  const list = listReader(db, shipmentList);
  return { list: list.page, all: list.all };
}
