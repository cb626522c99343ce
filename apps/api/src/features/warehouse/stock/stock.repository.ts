import {
  type CustomsStatus,
  compareLocations,
  type HandlingUnit,
  type HandlingUnitKind,
  type HandlingUnitNode,
  type MovementKind,
  NO_INTERNAL_FIELDS,
  type StockAction,
  type StockAvailability,
  type StockListQuery,
  type StockMovement,
  type StockMovementListQuery,
  type StockReceiptListItem,
  type StockReceiptListQuery,
  type StockRecord,
  type StockRecordListItem,
  type StockUnit,
  stockFieldVisibility,
} from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import {
  defineListSpec,
  escapeLike,
  filter,
  type ListSource,
  listPage,
  listReader,
} from '../../../records/list.ts';
import type { Scope } from '../../../records/scope.ts';
import { redact } from '../../../records/visibility.ts';

/**
 * Stock records, their handling-unit trees and movements (ADR 0034). Everything that changes a
 * quantity runs here inside the caller's transaction, with the record's row lock held: the record's
 * on hand and reserved, the units' quantities (a parent is the sum of its children), one movement.
 */

const iso = (d: Date) => d.toISOString();

export interface StockRow {
  id: string;
  receipt_id: string;
  receipt_number: string;
  line_no: number;
  owner_id: string;
  owner_code: string;
  owner_name: string;
  sku: string;
  description: string;
  commodity_code: string | null;
  country_of_origin: string | null;
  unit: StockUnit;
  quantity_received: number;
  quantity_on_hand: number;
  quantity_reserved: number;
  quantity_available: number;
  customs_status: CustomsStatus;
  inbound_mrn: string | null;
  received_on: string;
  location: string;
  location_count: number;
  pallets: number;
  packages: number | null;
  gross_mass_kg: string | null;
  net_mass_kg: string | null;
  value: string | null;
  currency: string | null;
  notes: string | null;
  version: number;
  created_at: Date;
  created_by: string | null;
  updated_at: Date;
}

const FROM = sql`stock_records s join stock_receipts r on r.id = s.receipt_id join parties p on p.id = s.owner_id`;
const SELECT = sql`s.id, s.receipt_id, r.number as receipt_number, s.line_no, s.owner_id, p.code as owner_code,
  p.name as owner_name, s.sku, s.description, s.commodity_code, s.country_of_origin, s.unit, s.quantity_received,
  s.quantity_on_hand, s.quantity_reserved, s.quantity_available, s.customs_status, s.inbound_mrn, s.received_on,
  s.location, s.location_count,
  (select count(*)::int from handling_units h
    where h.stock_record_id = s.id and h.kind = 'pallet' and h.quantity > 0) as pallets,
  s.packages, s.gross_mass_kg::text, s.net_mass_kg::text, s.value::text, s.currency, s.notes, s.version,
  s.created_at, s.created_by, s.updated_at`;

/** A decimal without the trailing zeros of its column (`12.500` → `12.5`), money with 2 decimals. */
function trimmed(d: string | null, min = 0): string | null {
  if (d === null) return null;
  const [whole, frac = ''] = d.split('.');
  let f = frac.replace(/0+$/, '');
  if (f.length < min) f = f.padEnd(min, '0');
  return f ? `${whole}.${f}` : (whole as string);
}

export function toListItem(r: StockRow): StockRecordListItem {
  return {
    id: r.id,
    receipt: { id: r.receipt_id, number: r.receipt_number },
    owner: { id: r.owner_id, code: r.owner_code, name: r.owner_name },
    sku: r.sku,
    description: r.description,
    commodityCode: r.commodity_code,
    unit: r.unit,
    quantityReceived: r.quantity_received,
    quantityOnHand: r.quantity_on_hand,
    quantityReserved: r.quantity_reserved,
    quantityAvailable: r.quantity_available,
    customsStatus: r.customs_status,
    inboundMrn: r.inbound_mrn,
    receivedOn: r.received_on,
    location: r.location,
    locationCount: r.location_count,
    pallets: r.pallets,
    value: trimmed(r.value, 2),
    currency: r.currency,
    updatedAt: iso(r.updated_at),
  };
}

export const stockListSpec = defineListSpec({
  name: 'stock',
  visibility: stockFieldVisibility,
  from: FROM,
  id: { expr: 's.id', type: 'uuid', nullable: false },
  sortable: {
    receivedOn: { expr: 's.received_on', type: 'date', nullable: false },
    sku: { expr: 's.sku', type: 'text', nullable: false },
    location: { expr: 's.location', type: 'text', nullable: false },
    available: { expr: 's.quantity_available', type: 'int4', nullable: false },
    onHand: { expr: 's.quantity_on_hand', type: 'int4', nullable: false },
    updatedAt: { expr: 's.updated_at', type: 'timestamptz', nullable: false },
  },
  defaultSort: '-receivedOn',
  // Article numbers and MRNs by prefix first (btree text_pattern_ops); then any part of them or the description.
  searchPrefix: (q) => {
    const p = `${escapeLike(q.toUpperCase())}%`;
    return sql`(s.sku like ${p} or s.inbound_mrn like ${p})`;
  },
  search: sql`(s.sku || ' ' || s.description || ' ' || coalesce(s.inbound_mrn, ''))`,
  searchFields: ['sku', 'description', 'inboundMrn'],
  // The receipt and owner joins cannot change the count, and no filter reads them.
  countFrom: sql`stock_records s`,
});

function scopeWhere(scope: Scope, alias: 's' | 'r'): RawBuilder<unknown>[] {
  return scope.all ? [] : [sql`${sql.raw(alias)}.owner_id = ${scope.partyId}`];
}

export type StockFilters = Omit<StockListQuery, 'page' | 'pageSize' | 'cursor'>;

const stockList: ListSource<StockFilters, StockRow, StockRecordListItem> = {
  spec: stockListSpec,
  select: SELECT,
  scope: (scope) => scopeWhere(scope, 's'),
  filters: {
    ownerId: filter.equals('s.owner_id'),
    sku: filter.startsWith('s.sku'),
    customsStatus: filter.anyOf('s.customs_status'),
    location: filter.startsWith('s.location'),
    from: filter.atLeast('s.received_on', 'date'),
    to: filter.atMost('s.received_on', 'date'),
    available: filter.yesNo(sql`s.quantity_available > 0`, sql`s.quantity_available = 0`),
    onHand: filter.yesNo(sql`s.quantity_on_hand > 0`, sql`s.quantity_on_hand = 0`),
    receiptId: filter.equals('s.receipt_id'),
  },
  map: toListItem,
};

// ---- receipts --------------------------------------------------------------------------------------

export interface ReceiptRow {
  id: string;
  number: string;
  owner_id: string;
  owner_code: string;
  owner_name: string;
  received_on: string;
  customs_status: CustomsStatus;
  inbound_mrn: string | null;
  inbound_mrn_external: boolean;
  entry_declaration_id: string | null;
  entry_lrn: string | null;
  entry_mrn: string | null;
  notes: string | null;
  lines: number;
  quantity: number;
  version: number;
  created_at: Date;
  created_by: string | null;
  created_by_name: string | null;
}

const RECEIPT_FROM = sql`stock_receipts r join parties p on p.id = r.owner_id`;
// Sums of quantities as bigint: int4 quantities of up to 1e9 add up beyond int4 (INT8 reads as a number).
const RECEIPT_SELECT = sql`r.id, r.number, r.owner_id, p.code as owner_code, p.name as owner_name, r.received_on,
  r.customs_status, r.inbound_mrn, r.inbound_mrn_external, r.entry_declaration_id, r.notes, r.version, r.created_at, r.created_by,
  (select count(*)::int from stock_records s where s.receipt_id = r.id) as lines,
  (select coalesce(sum(s.quantity_received), 0)::bigint from stock_records s where s.receipt_id = r.id) as quantity`;

export function toReceiptListItem(r: ReceiptRow): StockReceiptListItem {
  return {
    id: r.id,
    number: r.number,
    owner: { id: r.owner_id, code: r.owner_code, name: r.owner_name },
    receivedOn: r.received_on,
    customsStatus: r.customs_status,
    inboundMrn: r.inbound_mrn,
    lines: r.lines,
    quantity: r.quantity,
    createdAt: iso(r.created_at),
  };
}

/** Receipts carry the stock's own visibility: their notes are internal too. */
export const receiptListSpec = defineListSpec({
  name: 'stock-receipts',
  visibility: stockFieldVisibility,
  from: RECEIPT_FROM,
  id: { expr: 'r.id', type: 'uuid', nullable: false },
  sortable: {
    receivedOn: { expr: 'r.received_on', type: 'date', nullable: false },
    number: { expr: 'r.number', type: 'text', nullable: false },
    createdAt: { expr: 'r.created_at', type: 'timestamptz', nullable: false },
  },
  defaultSort: '-receivedOn',
  searchPrefix: (q) => {
    const p = `${escapeLike(q.toUpperCase())}%`;
    return sql`(r.number like ${p} or r.inbound_mrn like ${p})`;
  },
  search: sql`(r.number || ' ' || coalesce(r.inbound_mrn, '') || ' ' || p.name)`,
  searchFields: ['number', 'inboundMrn', 'owner'],
});

export type ReceiptFilters = Omit<StockReceiptListQuery, 'page' | 'pageSize' | 'cursor'>;

const receiptList: ListSource<ReceiptFilters, ReceiptRow, StockReceiptListItem> = {
  spec: receiptListSpec,
  select: RECEIPT_SELECT,
  scope: (scope) => scopeWhere(scope, 'r'),
  filters: {
    ownerId: filter.equals('r.owner_id'),
    reference: (reference) => {
      const p = `${escapeLike(reference.toUpperCase().replace(/\s+/g, ''))}%`;
      return sql`(r.number like ${p} or r.inbound_mrn like ${p})`;
    },
    from: filter.atLeast('r.received_on', 'date'),
    to: filter.atMost('r.received_on', 'date'),
  },
  map: toReceiptListItem,
};

// ---- handling units and movements ----------------------------------------------------------------

export interface UnitRow {
  id: string;
  parent_id: string | null;
  kind: HandlingUnitKind;
  sscc: string | null;
  reference: string | null;
  quantity: number;
  quantity_reserved: number;
  location: string;
  position: number;
}

export async function unitsOf(db: Db, stockRecordId: string): Promise<UnitRow[]> {
  const r = await sql<UnitRow>`
    select id, parent_id, kind, trim(sscc) as sscc, reference, quantity, quantity_reserved, location, position
    from handling_units where stock_record_id = ${stockRecordId}
    order by position, id`.execute(db);
  return r.rows;
}

/** The units depth first (each before what it holds, siblings by position). */
export function depthFirst(units: UnitRow[]): UnitRow[] {
  const children = new Map<string | null, UnitRow[]>();
  for (const u of units) {
    const list = children.get(u.parent_id) ?? [];
    list.push(u);
    children.set(u.parent_id, list);
  }
  const out: UnitRow[] = [];
  const walk = (parent: string | null) => {
    for (const u of children.get(parent) ?? []) {
      out.push(u);
      walk(u.id);
    }
  };
  walk(null);
  return out;
}

function toUnit(u: UnitRow): HandlingUnit {
  return {
    id: u.id,
    parentId: u.parent_id,
    kind: u.kind,
    sscc: u.sscc,
    reference: u.reference,
    quantity: u.quantity,
    quantityReserved: u.quantity_reserved,
    location: u.location,
    position: u.position,
  };
}

/**
 * Where a record is: the location holding most of its root units' quantity (ties: the first in
 * walking order), and how many distinct locations its non-empty roots are in. Without units: as given.
 */
export function placeOf(
  units: Pick<UnitRow, 'parent_id' | 'location' | 'quantity'>[],
  fallback: string,
): { location: string; locationCount: number } {
  const roots = units.filter((u) => u.parent_id === null);
  if (!roots.length) return { location: fallback, locationCount: 1 };
  const byLocation = new Map<string, number>();
  for (const u of roots)
    if (u.quantity > 0) byLocation.set(u.location, (byLocation.get(u.location) ?? 0) + u.quantity);
  if (!byLocation.size) return { location: fallback, locationCount: 0 };
  const [location] = [...byLocation.entries()].sort(
    (a, b) => b[1] - a[1] || compareLocations(a[0], b[0]),
  )[0] as [string, number];
  return { location, locationCount: byLocation.size };
}

interface MovementRow {
  id: string;
  kind: MovementKind;
  quantity: number;
  handling_unit_id: string | null;
  unit_kind: HandlingUnitKind | null;
  unit_sscc: string | null;
  unit_reference: string | null;
  from_location: string | null;
  to_location: string | null;
  reason: string | null;
  shipment_id: string | null;
  shipment_number: string | null;
  at: Date;
  created_by: string | null;
  created_by_name: string | null;
}

/** The shipments table comes with ship-api's migration 0024; until then a movement names none. */
async function hasShipments(db: Db): Promise<boolean> {
  const r = await sql<{ ok: boolean }>`select to_regclass('shipments') is not null as ok`.execute(db);
  return r.rows[0]?.ok ?? false;
}

async function movementSelect(db: Db): Promise<RawBuilder<unknown>> {
  const shipmentNumber = (await hasShipments(db))
    ? sql`(select sh.number from shipments sh where sh.id = m.shipment_id)`
    : sql`null::text`;
  return sql`m.id, m.kind, m.quantity, m.handling_unit_id, h.kind as unit_kind, trim(h.sscc) as unit_sscc,
    h.reference as unit_reference, m.from_location, m.to_location, m.reason, m.shipment_id,
    ${shipmentNumber} as shipment_number, m.at, m.created_by, u.name as created_by_name`;
}

const MOVEMENT_FROM = sql`stock_movements m left join handling_units h on h.id = m.handling_unit_id
  left join users u on u.id = m.created_by`;

/** A record's movements, newest first (`at`, then id), keyset-paged like every list. */
export const movementListSpec = defineListSpec({
  name: 'stock-movements',
  visibility: NO_INTERNAL_FIELDS,
  from: MOVEMENT_FROM,
  id: { expr: 'm.id', type: 'uuid', nullable: false },
  sortable: { at: { expr: 'm.at', type: 'timestamptz', nullable: false } },
  defaultSort: '-at',
  countFrom: sql`stock_movements m`,
});

async function movementRows(db: Db, stockRecordId: string): Promise<MovementRow[]> {
  const r = await sql<MovementRow>`
    select ${await movementSelect(db)} from ${MOVEMENT_FROM}
    where m.stock_record_id = ${stockRecordId}
    order by m.at desc, m.id desc`.execute(db);
  return r.rows;
}

function toMovement(m: MovementRow): StockMovement {
  return {
    id: m.id,
    kind: m.kind,
    quantity: m.quantity,
    handlingUnit:
      m.handling_unit_id && m.unit_kind
        ? { id: m.handling_unit_id, kind: m.unit_kind, sscc: m.unit_sscc, reference: m.unit_reference }
        : null,
    fromLocation: m.from_location,
    toLocation: m.to_location,
    reason: m.reason,
    shipment: m.shipment_id && m.shipment_number ? { id: m.shipment_id, number: m.shipment_number } : null,
    at: iso(m.at),
    by: m.created_by && m.created_by_name ? { id: m.created_by, name: m.created_by_name } : null,
  };
}

/** What a viewer may do with a record now: staff transfer and adjust; customers only read. */
export function allowedActions(scope: Scope, r: Pick<StockRow, 'quantity_on_hand'>): StockAction[] {
  if (!scope.all) return [];
  return r.quantity_on_hand > 0 ? ['transfer', 'adjust'] : ['adjust'];
}

export async function findStock(
  db: Db,
  scope: Scope,
  id: string,
  lock = false,
): Promise<(StockRow & { created_by_name: string | null }) | undefined> {
  const r = await sql<StockRow & { created_by_name: string | null }>`
    select ${SELECT}, u.name as created_by_name
    from ${FROM} left join users u on u.id = s.created_by
    where s.id = ${id} ${sql.join([sql``, ...scopeWhere(scope, 's')], sql` and `)}
    ${lock ? sql`for update of s` : sql``}`.execute(db);
  return r.rows[0];
}

export async function toStockRecord(
  db: Db,
  scope: Scope,
  r: StockRow & { created_by_name: string | null },
): Promise<StockRecord> {
  const entry = await sql<{ id: string; lrn: string; mrn: string | null }>`
    select x.id, x.lrn, x.mrn from stock_receipts rc join declarations x on x.id = rc.entry_declaration_id
    where rc.id = ${r.receipt_id}`.execute(db);
  const units = depthFirst(await unitsOf(db, r.id));
  return redact(scope, stockFieldVisibility, {
    ...toListItem(r),
    countryOfOrigin: r.country_of_origin,
    packages: r.packages,
    grossMassKg: trimmed(r.gross_mass_kg),
    netMassKg: trimmed(r.net_mass_kg),
    entryDeclaration: entry.rows[0] ?? null,
    notes: r.notes,
    handlingUnits: units.map(toUnit),
    version: r.version,
    createdAt: iso(r.created_at),
    createdBy: r.created_by && r.created_by_name ? { id: r.created_by, name: r.created_by_name } : null,
    allowedActions: allowedActions(scope, r),
  });
}

export async function stockTree(db: Db, r: StockRow) {
  const units = await unitsOf(db, r.id);
  const movements = (await movementRows(db, r.id)).map(toMovement);
  const nodes = new Map<string, HandlingUnitNode>(
    units.map((u) => [u.id, { ...toUnit(u), children: [], movements: [] }]),
  );
  const roots: HandlingUnitNode[] = [];
  for (const u of units) {
    const node = nodes.get(u.id) as HandlingUnitNode;
    if (u.parent_id) nodes.get(u.parent_id)?.children.push(node);
    else roots.push(node);
  }
  const loose: StockMovement[] = [];
  for (const m of movements) {
    const node = m.handlingUnit ? nodes.get(m.handlingUnit.id) : undefined;
    if (node) node.movements.push(m);
    else loose.push(m);
  }
  return { stock: toListItem(r), units: roots, movements: loose };
}

export async function findReceipt(db: Db, scope: Scope, id: string): Promise<ReceiptRow | undefined> {
  const r = await sql<ReceiptRow>`
    select ${RECEIPT_SELECT}, x.lrn as entry_lrn, x.mrn as entry_mrn, u.name as created_by_name
    from ${RECEIPT_FROM}
    left join declarations x on x.id = r.entry_declaration_id
    left join users u on u.id = r.created_by
    where r.id = ${id} ${sql.join([sql``, ...scopeWhere(scope, 'r')], sql` and `)}`.execute(db);
  return r.rows[0];
}

export async function stockOfReceipt(db: Db, receiptId: string): Promise<StockRow[]> {
  const r = await sql<StockRow>`
    select ${SELECT} from ${FROM} where s.receipt_id = ${receiptId} order by s.line_no`.execute(db);
  return r.rows;
}

// ---- quantity changes (the caller holds the record's row lock) --------------------------------------

export interface MovementWrite {
  stockRecordId: string;
  handlingUnitId: string | null;
  kind: MovementKind;
  quantity: number;
  fromLocation: string | null;
  toLocation: string | null;
  reason?: string | null;
  shipmentId?: string | null;
  actorId: string | null;
}

export async function writeMovement(trx: Db, m: MovementWrite): Promise<string> {
  const row = await trx
    .insertInto('stock_movements')
    .values({
      stock_record_id: m.stockRecordId,
      handling_unit_id: m.handlingUnitId,
      kind: m.kind,
      quantity: m.quantity,
      from_location: m.fromLocation,
      to_location: m.toLocation,
      reason: m.reason ?? null,
      shipment_id: m.shipmentId ?? null,
      created_by: m.actorId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Writes the record's place (from its units) and bumps its version; on hand/reserved change by the deltas. */
export async function touchStock(
  trx: Db,
  stockRecordId: string,
  change: { onHand?: number; reserved?: number; actorId: string | null; location?: string },
): Promise<void> {
  const current = await trx
    .selectFrom('stock_records')
    .select(['location'])
    .where('id', '=', stockRecordId)
    .executeTakeFirstOrThrow();
  const place = placeOf(await unitsOf(trx, stockRecordId), change.location ?? current.location);
  await trx
    .updateTable('stock_records')
    .set((eb) => ({
      quantity_on_hand: eb('quantity_on_hand', '+', change.onHand ?? 0),
      quantity_reserved: eb('quantity_reserved', '+', change.reserved ?? 0),
      location: place.location,
      location_count: place.locationCount,
      version: eb('version', '+', 1),
      updated_at: new Date(),
      updated_by: change.actorId,
    }))
    .where('id', '=', stockRecordId)
    .execute();
}

/**
 * Takes `quantity` off a unit and its subtree, children in position order, so that every parent
 * keeps the sum of its children. Returns the new quantities by unit id (written by the caller).
 */
export function reduceSubtree(units: UnitRow[], unitId: string, quantity: number): Map<string, number> {
  const byParent = new Map<string, UnitRow[]>();
  for (const u of units)
    if (u.parent_id) byParent.set(u.parent_id, [...(byParent.get(u.parent_id) ?? []), u]);
  const out = new Map<string, number>();
  const take = (u: UnitRow, q: number) => {
    out.set(u.id, u.quantity - q);
    let left = q;
    const children = (byParent.get(u.id) ?? []).slice().sort((a, b) => a.position - b.position);
    for (const c of children) {
      if (left === 0) break;
      const t = Math.min(c.quantity, left);
      if (t > 0) take(c, t);
      left -= t;
    }
  };
  const unit = units.find((u) => u.id === unitId);
  if (!unit) throw new Error(`handling unit ${unitId} is not on this stock record`);
  take(unit, quantity);
  return out;
}

async function writeQuantities(trx: Db, quantities: Map<string, number>): Promise<void> {
  for (const [id, quantity] of quantities)
    await trx.updateTable('handling_units').set({ quantity }).where('id', '=', id).execute();
}

/**
 * Ship-api's pick (ADR 0035): `quantity` of a reservation leaves the warehouse. The caller holds the
 * record's row lock and the allocation it picks. On hand and reserved fall by `quantity` on the record
 * and, when a unit is named (a root unit), on that unit; its subtree is reduced children in position
 * order so parents stay the sum of their children; one `pick` movement (−quantity, from the unit's
 * location) names the shipment. The database's checks refuse taking more than is there or reserved.
 */
export async function pickStock(
  trx: Db,
  input: {
    stockRecordId: string;
    handlingUnitId: string | null;
    quantity: number;
    shipmentId: string;
    actorId: string | null;
  },
): Promise<{ movementId: string }> {
  const { stockRecordId, handlingUnitId, quantity, shipmentId, actorId } = input;
  if (!Number.isInteger(quantity) || quantity <= 0) throw new RangeError(`pick quantity ${quantity}`);
  const record = await trx
    .selectFrom('stock_records')
    .select(['location', 'quantity_on_hand', 'quantity_reserved'])
    .where('id', '=', stockRecordId)
    .executeTakeFirst();
  if (!record) throw new Error(`stock record ${stockRecordId} does not exist`);
  let from = record.location;
  if (handlingUnitId) {
    const units = await unitsOf(trx, stockRecordId);
    const unit = units.find((u) => u.id === handlingUnitId);
    if (!unit) throw new Error(`handling unit ${handlingUnitId} is not on stock record ${stockRecordId}`);
    if (unit.parent_id) throw new Error(`handling unit ${handlingUnitId} is not a root unit`);
    from = unit.location;
    // Reserved first: the unit's check (reserved ≤ quantity) holds after each statement.
    await trx
      .updateTable('handling_units')
      .set((eb) => ({ quantity_reserved: eb('quantity_reserved', '-', quantity) }))
      .where('id', '=', handlingUnitId)
      .execute();
    await writeQuantities(trx, reduceSubtree(units, handlingUnitId, quantity));
  }
  await touchStock(trx, stockRecordId, { onHand: -quantity, reserved: -quantity, actorId });
  const movementId = await writeMovement(trx, {
    stockRecordId,
    handlingUnitId,
    kind: 'pick',
    quantity: -quantity,
    fromLocation: from,
    toLocation: null,
    shipmentId,
    actorId,
  });
  return { movementId };
}

/** The open reservations of a record (ship-api's allocations), for a refusal that names the shipments. */
export async function reservationsOf(
  db: Db,
  stockRecordId: string,
  handlingUnitId?: string,
): Promise<{ number: string; quantity: number }[]> {
  const exists = await sql<{
    ok: boolean;
  }>`select to_regclass('shipment_allocations') is not null as ok`.execute(db);
  if (!exists.rows[0]?.ok) return [];
  const r = await sql<{ number: string; quantity: number }>`
    select sh.number, sum(a.quantity)::bigint as quantity
    from shipment_allocations a join shipments sh on sh.id = a.shipment_id
    where a.stock_record_id = ${stockRecordId} and a.state in ('reserved', 'picked')
      ${handlingUnitId ? sql`and a.handling_unit_id = ${handlingUnitId}` : sql``}
    group by sh.number order by sh.number`.execute(db);
  return r.rows;
}

export function stockRepository(db: Db) {
  const stock = listReader(db, stockList);
  const receipts = listReader(db, receiptList);
  return {
    list: stock.page,
    all: stock.all,
    receipts: receipts.page,
    allReceipts: receipts.all,
    async movements(scope: Scope, stockRecordId: string, query: StockMovementListQuery) {
      return listPage<MovementRow, StockMovement>(
        db,
        movementListSpec,
        {
          select: await movementSelect(db),
          where: [sql`m.stock_record_id = ${stockRecordId}`],
          scope,
          ...query,
        },
        toMovement,
      );
    },
    async availability(ownerId: string, q: string, limit: number): Promise<StockAvailability[]> {
      const r = await sql<StockAvailability>`
        select sku, (array_agg(description order by received_on desc, id desc))[1] as description,
          (array_agg(unit order by received_on desc, id desc))[1] as unit,
          sum(quantity_on_hand)::bigint as "onHand", sum(quantity_available)::bigint as available,
          count(*)::int as records
        from stock_records
        where owner_id = ${ownerId} and quantity_on_hand > 0
          and sku like ${`${escapeLike(q.trim().toUpperCase())}%`}
        group by sku order by sku limit ${limit}`.execute(db);
      return r.rows;
    },
  };
}
export type StockRepository = ReturnType<typeof stockRepository>;
