import {
  type CustomsStatus,
  consumeFifo,
  currentOutboundDeclaration,
  DECLARATION_STATUS_LABELS,
  type DeclarationCreateParsed,
  declarationCreateSchema,
  type FifoCandidate,
  type FifoTake,
  HOLDING_ALLOCATION_STATES,
  isLiveDeclaration,
  isNonUnion,
  OUTBOUND_DECLARATION,
  OUTBOUND_PROCEDURE_LABELS,
  type OutboundProcedure,
  outboundProceduresFor,
  outboundProceduresText,
  planFifo,
  quantityWithUnit,
  releasingDeclaration,
  SHIPMENT_STATUS_LABELS,
  SHIPMENT_TRANSITIONS,
  type Shipment,
  type ShipmentAction,
  type ShipmentCreateParsed,
  type ShipmentDeclarationRef,
  type ShipmentListQuery,
  type ShipmentPicks,
  type ShipmentTransitionTarget,
  type ShipmentUpdateParsed,
  type StockUnit,
  shipmentFieldVisibility,
  shipmentLinesMixProblem,
  shipmentProcedureMissing,
  shipmentProcedureProblem,
} from '@fvg/contracts';
import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { inRetriedTransaction } from '../../../db/transaction.ts';
import { problems } from '../../../http/problem.ts';
import { auditDeletion, type Change, diff, historyOf, writeAudit } from '../../../records/audit.ts';
import type { RecordEvent, RecordEvents } from '../../../records/events.ts';
import { checkVersion, columnsOf, pgConstraintProblem } from '../../../records/mutation.ts';
import { orNotFound, requireStaff, type Scope, scopeOf } from '../../../records/scope.ts';
import { redact } from '../../../records/visibility.ts';
import { takeSeriesNumber } from '../../company/company.service.ts';
import { declarationsService, noCustomsGateway } from '../../declarations/declarations.service.ts';
import {
  DECLARABLE_SHIPMENT_STATUSES,
  declarationsOfShipment,
} from '../../declarations/declarations.shipment.ts';
import type { SessionUser } from '../../users/users.repository.ts';
import { pickStock } from '../stock/stock.repository.ts';
import { outboundDeclarationDraft } from './shipments.prefill.ts';
import {
  type AllocationRow,
  allocationsOf,
  entriesOf,
  findShipment,
  type LineRow,
  linesOf,
  lockStockFor,
  type ShipmentFilters,
  type ShipmentRow,
  shipmentRepository,
  toAllocation,
} from './shipments.repository.ts';

/** The audit trail's and the hub's name of the record. */
const KIND = 'shipment';
const HEADER_FIELDS = [
  'consigneeId',
  'consigneeName',
  'deliveryAddress',
  'plannedDate',
  'outboundProcedure',
  'customerReference',
  'notes',
] as const;
const COLUMNS = columnsOf(HEADER_FIELDS);
const REFERENCES = {
  shipments_consignee_id_fkey: { field: 'consigneeId', message: 'No such party' },
  shipments_owner_id_fkey: { field: 'ownerId', message: 'No such party' },
};
const iso = (d: Date | null) => (d ? d.toISOString() : null);

type DeclarationRef = Pick<ShipmentDeclarationRef, 'lrn' | 'type' | 'status'>;

/**
 * Why shipping would be refused now: non-Union goods without a declaration of their procedure that
 * lets them go (released 4071, exited 3171) among ALL the shipment's declarations (ADR 0048).
 */
export function shipBlocker(
  row: Pick<ShipmentRow, 'number' | 'outbound_procedure'>,
  allocations: Pick<AllocationRow, 'customs_status' | 'state'>[],
  declarations: readonly DeclarationRef[],
): string | null {
  if (!allocations.some((a) => a.state !== 'freed' && isNonUnion(a.customs_status))) return null;
  const proc = row.outbound_procedure;
  if (!proc) {
    const fitting = outboundProceduresFor(
      allocations.filter((a) => a.state !== 'freed').map((a) => a.customs_status),
    );
    return `${row.number} holds non-Union goods: choose its outbound procedure${fitting.length ? ` (${outboundProceduresText(fitting)})` : ''} and lodge its declaration before it leaves.`;
  }
  if (releasingDeclaration(proc, declarations)) return null;
  const need = OUTBOUND_DECLARATION[proc].releasedBy;
  const what = `${row.number} holds non-Union goods: it may leave only once its ${OUTBOUND_PROCEDURE_LABELS[proc].replace(/^\d+ · /, '')} (${proc}) is ${DECLARATION_STATUS_LABELS[need].toLowerCase()}`;
  const current = currentOutboundDeclaration(declarations);
  if (!current) return `${what}; it has no declaration yet.`;
  return `${what}; declaration ${current.lrn} is ${DECLARATION_STATUS_LABELS[current.status]}.`;
}

function allowedActions(
  scope: Scope,
  row: ShipmentRow,
  allocations: AllocationRow[],
  declarations: readonly DeclarationRef[],
): ShipmentAction[] {
  if (!scope.all) return row.status === 'draft' ? ['edit', 'delete'] : [];
  const out: ShipmentAction[] = [];
  if (row.status === 'draft') out.push('edit', 'delete');
  else if (DECLARABLE_SHIPMENT_STATUSES.includes(row.status)) out.push('procedure');
  const to = SHIPMENT_TRANSITIONS[row.status];
  if (to.includes('released')) out.push('release');
  if (to.includes('picking')) out.push('pick');
  if (to.includes('packed')) out.push('pack');
  if (row.status === 'picking') out.push('confirmPicks');
  if (to.includes('shipped') && !shipBlocker(row, allocations, declarations)) out.push('ship');
  if (to.includes('cancelled')) out.push('cancel');
  if (declarationProblem(row, allocations, declarations) === null) out.push('declare');
  return out;
}

/** Why an outbound declaration cannot be made now (with the field and status), or null. */
function declarationProblem(
  row: ShipmentRow,
  allocations: Pick<AllocationRow, 'customs_status' | 'state'>[],
  declarations: readonly DeclarationRef[],
): { status: 409 | 422; field: string; message: string } | null {
  if (!DECLARABLE_SHIPMENT_STATUSES.includes(row.status))
    return {
      status: 409,
      field: 'status',
      message: `${row.number} is ${SHIPMENT_STATUS_LABELS[row.status].toLowerCase()}: its outbound declaration is made once it is released and before it is shipped`,
    };
  if (!row.outbound_procedure)
    return {
      status: 422,
      field: 'outboundProcedure',
      message: `Choose the outbound procedure (${outboundProceduresFor(allocations.filter((a) => a.state !== 'freed').map((a) => a.customs_status)).join(' or ') || 'of the goods'}) first`,
    };
  const misfit = shipmentProcedureProblem(
    row.outbound_procedure,
    allocations.filter((a) => a.state !== 'freed').map((a) => a.customs_status),
  );
  if (misfit) return { status: 422, field: 'outboundProcedure', message: misfit };
  const current = currentOutboundDeclaration(declarations);
  if (current && isLiveDeclaration(current.status))
    return {
      status: 409,
      field: 'declaration',
      message: `${row.number} already has its declaration ${current.lrn} (${DECLARATION_STATUS_LABELS[current.status].toLowerCase()})`,
    };
  if (!allocations.some((a) => a.state !== 'freed' && isNonUnion(a.customs_status)))
    return {
      status: 409,
      field: 'declaration',
      message: `${row.number} holds only Union goods: they need no outbound declaration`,
    };
  return null;
}

export interface ShipmentsDeps {
  events: RecordEvents;
}

interface ResolvedLine {
  position: number;
  sku: string;
  stock_record_id: string | null;
  quantity: number;
  description: string | null;
}

export function shipmentsService(db: Db, { events }: ShipmentsDeps) {
  const repo = shipmentRepository(db);

  /** The shipment's outbound declarations, oldest first, as `scope` may see them (customers: lodged ones). */
  async function declarationsOf(via: Db, scope: Scope, id: string): Promise<ShipmentDeclarationRef[]> {
    const all = await declarationsOfShipment(via, id);
    return all
      .filter((d) => scope.all || d.status !== 'draft')
      .map((d) => ({
        id: d.id,
        lrn: d.lrn,
        mrn: d.mrn,
        type: d.type,
        status: d.status,
        createdAt: d.created_at.toISOString(),
      }));
  }

  async function detail(scope: Scope, row: ShipmentRow, via: Db = db): Promise<Shipment> {
    const [lines, allocations, declarations] = await Promise.all([
      linesOf(via, row.id),
      allocationsOf(via, row.id),
      declarationsOf(via, scope, row.id),
    ]);
    const shipment: Shipment = {
      id: row.id,
      number: row.number,
      status: row.status,
      owner: { id: row.owner_id, code: row.owner_code, name: row.owner_name },
      consignee:
        row.consignee_id && row.consignee_code && row.consignee_party_name
          ? { id: row.consignee_id, code: row.consignee_code, name: row.consignee_party_name }
          : null,
      consigneeName: row.consignee_name,
      deliveryAddress: row.delivery_address,
      plannedDate: row.planned_date,
      outboundProcedure: row.outbound_procedure,
      customerReference: row.customer_reference,
      notes: row.notes,
      declaration: currentOutboundDeclaration(declarations),
      declarations,
      lines: lines.map((l: LineRow) => ({
        id: l.id,
        position: l.position,
        sku: l.sku,
        description: l.description,
        unit: l.unit,
        stockRecordId: l.stock_record_id,
        quantity: l.quantity,
        allocations: allocations.filter((a) => a.line_id === l.id).map(toAllocation),
      })),
      quantity: lines.reduce((s, l) => s + l.quantity, 0),
      nonUnion: allocations.some((a) => a.state !== 'freed' && isNonUnion(a.customs_status)),
      shipBlocker: DECLARABLE_SHIPMENT_STATUSES.includes(row.status)
        ? shipBlocker(row, allocations, declarations)
        : null,
      releasedAt: iso(row.released_at),
      pickingAt: iso(row.picking_at),
      packedAt: iso(row.packed_at),
      shippedAt: iso(row.shipped_at),
      cancelledAt: iso(row.cancelled_at),
      cancelReason: row.cancel_reason,
      version: row.version,
      createdAt: row.created_at.toISOString(),
      createdBy:
        row.created_by && row.created_by_name ? { id: row.created_by, name: row.created_by_name } : null,
      updatedAt: row.updated_at.toISOString(),
      allowedActions: allowedActions(scope, row, allocations, declarations),
    };
    return redact(scope, shipmentFieldVisibility, shipment);
  }

  async function rowOr404(trx: Db, scope: Scope, id: string, lock = false): Promise<ShipmentRow> {
    return orNotFound(await findShipment(trx, scope, id, lock), 'shipment');
  }

  const versionCheck = (row: ShipmentRow, version: number) => checkVersion('shipment', row.version, version);

  function draftOnly(row: ShipmentRow, what: string) {
    if (row.status !== 'draft')
      throw problems.conflict(
        `${row.number} is ${SHIPMENT_STATUS_LABELS[row.status].toLowerCase()}: only a draft can be ${what}.`,
        [{ field: 'status', message: `Only a draft can be ${what}` }],
      );
  }

  /**
   * A released shipment (until it is shipped) can still get or change its outbound procedure, so that
   * its declaration can be made, changed or replaced (issue 23 item 12): staff only, nothing else of it
   * changes after release. Non-Union goods keep a procedure; a declaration still in play for the other
   * procedure is deleted or cancelled first.
   */
  async function changeProcedure(trx: Db, user: SessionUser, row: ShipmentRow, input: ShipmentUpdateParsed) {
    const others = Object.entries(input).filter(
      ([k, v]) => v !== undefined && k !== 'version' && k !== 'outboundProcedure',
    );
    if (
      !DECLARABLE_SHIPMENT_STATUSES.includes(row.status) ||
      others.length ||
      input.outboundProcedure === undefined
    )
      throw problems.conflict(
        `${row.number} is ${SHIPMENT_STATUS_LABELS[row.status].toLowerCase()}: only a draft can be edited${DECLARABLE_SHIPMENT_STATUSES.includes(row.status) ? '; once released only its outbound procedure can change' : ''}.`,
        [{ field: others[0]?.[0] ?? 'status', message: 'Only a draft can be edited' }],
      );
    requireStaff(user);
    const to = input.outboundProcedure ?? null;
    if (to === row.outbound_procedure) return;
    const allocations = await allocationsOf(trx, row.id);
    const statuses = allocations.filter((a) => a.state !== 'freed').map((a) => a.customs_status);
    const missing =
      shipmentProcedureMissing(row.number, to, statuses) ?? shipmentProcedureProblem(to, statuses);
    if (missing) throw problems.unprocessable(missing, [{ field: 'outboundProcedure', message: missing }]);
    const current = currentOutboundDeclaration(await declarationsOfShipment(trx, row.id));
    if (
      current &&
      isLiveDeclaration(current.status) &&
      (!to || OUTBOUND_DECLARATION[to].type !== current.type)
    ) {
      const message = `Declaration ${current.lrn} is ${DECLARATION_STATUS_LABELS[current.status].toLowerCase()}: ${current.status === 'draft' ? 'delete it' : 'request its cancellation'} before changing the procedure`;
      throw problems.conflict(`${row.number}: ${message}.`, [{ field: 'outboundProcedure', message }]);
    }
    await trx
      .updateTable('shipments')
      .set((eb) => ({
        outbound_procedure: to,
        version: eb('version', '+', 1),
        updated_at: new Date(),
        updated_by: user.id,
      }))
      .where('id', '=', row.id)
      .execute();
    await writeAudit(trx, {
      kind: KIND,
      id: row.id,
      action: 'updated',
      actorId: user.id,
      changes: [{ field: 'outboundProcedure', from: row.outbound_procedure, to }],
    });
  }

  /** Whose shipment: staff name the owner, a customer orders for their own party. */
  function ownerOf(user: SessionUser, ownerId: string | undefined): string {
    if (user.role === 'customer') {
      const own = user.party_id ?? '';
      if (ownerId && ownerId !== own)
        throw problems.unprocessable('A shipment is ordered from your own stock.', [
          { field: 'ownerId', message: 'No such party' },
        ]);
      return own;
    }
    if (!ownerId) throw problems.validation([{ field: 'ownerId', message: 'Choose the owner of the goods' }]);
    return ownerId;
  }

  function noNotesFromCustomers(user: SessionUser, notes: unknown) {
    if (user.role === 'customer' && notes !== undefined)
      throw problems.validation([{ field: 'notes', message: 'Internal notes are for staff' }]);
  }

  /**
   * A customer sees no party but their own: another one as consignee is answered like an id that does
   * not exist (the shipment would otherwise show them its code and name). They type a name instead.
   */
  function consigneeOfCustomer(user: SessionUser, consigneeId: string | null | undefined) {
    if (user.role === 'customer' && consigneeId && consigneeId !== user.party_id)
      throw problems.unprocessable('No such party.', [{ field: 'consigneeId', message: 'No such party' }]);
  }

  /**
   * Lines as stored: a given stock record must be the owner's (another party's reads as missing), a SKU
   * must be one the owner has stock of; 422 on the line otherwise.
   */
  async function resolveLines(
    trx: Db,
    ownerId: string,
    lines: ShipmentCreateParsed['lines'],
  ): Promise<ResolvedLine[]> {
    const ids = lines.flatMap((l) => (l.stockRecordId ? [l.stockRecordId] : []));
    const skus = lines.flatMap((l) => (l.sku ? [l.sku] : []));
    const records = ids.length
      ? await trx
          .selectFrom('stock_records')
          .select(['id', 'sku', 'description', 'customs_status'])
          .where('owner_id', '=', ownerId)
          .where('id', 'in', ids)
          .execute()
      : [];
    const known = skus.length
      ? await sql<{ sku: string; description: string }>`
          select distinct on (sku) sku, description from stock_records
          where owner_id = ${ownerId} and sku = any(${skus})
          order by sku, received_on desc, id desc`.execute(trx)
      : { rows: [] };
    // The customs statuses an article's line may take: those of the owner's stock of it on hand (as the
    // editor reads them), for the one-declaration rule below.
    const held = skus.length
      ? await sql<{ sku: string; statuses: CustomsStatus[] }>`
          select sku, array_agg(distinct customs_status)::text[] as statuses from stock_records
          where owner_id = ${ownerId} and sku = any(${skus}) and quantity_on_hand > 0
          group by sku`.execute(trx)
      : { rows: [] };
    const errors: { field: string; message: string }[] = [];
    const out = lines.map((l, i): ResolvedLine => {
      if (l.stockRecordId) {
        const r = records.find((x) => x.id === l.stockRecordId);
        if (!r) errors.push({ field: `lines.${i}.stockRecordId`, message: 'No such stock record' });
        return {
          position: i + 1,
          sku: r?.sku ?? '',
          stock_record_id: l.stockRecordId,
          quantity: l.quantity,
          description: r?.description ?? null,
        };
      }
      const k = known.rows.find((x) => x.sku === l.sku);
      if (!k) errors.push({ field: `lines.${i}.sku`, message: `There is no stock of ${l.sku}` });
      return {
        position: i + 1,
        sku: l.sku as string,
        stock_record_id: null,
        quantity: l.quantity,
        description: k?.description ?? null,
      };
    });
    if (errors.length)
      throw problems.unprocessable('Some lines name goods that are not in this stock.', errors);
    const mix = shipmentLinesMixProblem(
      lines.map((l, i) => ({
        label: `Line ${i + 1} (${out[i]?.sku})`,
        statuses: l.stockRecordId
          ? records.filter((r) => r.id === l.stockRecordId).map((r) => r.customs_status)
          : (held.rows.find((h) => h.sku === l.sku)?.statuses ?? []),
      })),
    );
    if (mix) {
      const field = `lines.${mix.index}.${lines[mix.index]?.stockRecordId ? 'stockRecordId' : 'sku'}`;
      throw problems.unprocessable(mix.message, [{ field, message: mix.message }]);
    }
    return out;
  }

  async function writeLines(trx: Db, shipmentId: string, lines: ResolvedLine[]) {
    await trx.deleteFrom('shipment_lines').where('shipment_id', '=', shipmentId).execute();
    await trx
      .insertInto('shipment_lines')
      .values(lines.map((l) => ({ ...l, shipment_id: shipmentId })))
      .execute();
  }

  const lineAudit = (lines: ResolvedLine[]) => lines.map((l) => `${l.position}. ${l.sku} × ${l.quantity}`);

  function publish(list: RecordEvent[]) {
    for (const e of list) events.publish(e);
  }

  function header(input: Partial<Record<(typeof HEADER_FIELDS)[number], unknown>>) {
    const values: Record<string, unknown> = {};
    for (const f of HEADER_FIELDS) if (input[f] !== undefined) values[COLUMNS[f]] = input[f];
    return values;
  }

  function rowHeader(row: ShipmentRow): Record<string, unknown> {
    return {
      consigneeId: row.consignee_id,
      consigneeName: row.consignee_name,
      deliveryAddress: row.delivery_address,
      plannedDate: row.planned_date,
      outboundProcedure: row.outbound_procedure,
      customerReference: row.customer_reference,
      notes: row.notes,
    };
  }

  /** The records a release needs, locked in the one order (`lockStockFor`), with their root units. */
  async function lockCandidates(trx: Db, ownerId: string, lines: LineRow[]) {
    const records = await lockStockFor(trx, ownerId, lines);
    const recordIds = records.map((r) => r.id);
    const units = recordIds.length
      ? await trx
          .selectFrom('handling_units')
          .select(['id', 'stock_record_id', 'quantity', 'quantity_reserved', 'position'])
          .where('stock_record_id', 'in', recordIds)
          .where('parent_id', 'is', null)
          .execute()
      : [];
    const candidates: FifoCandidate[] = records.map((r) => ({
      id: r.id,
      receivedOn: r.received_on,
      available: r.quantity_available,
      units: units
        .filter((u) => u.stock_record_id === r.id)
        .map((u) => ({ id: u.id, available: u.quantity - u.quantity_reserved, position: u.position })),
    }));
    return { records, candidates };
  }

  /** Reserves every line first-in first-out, whole or nothing (409 naming each short line). */
  async function reserve(trx: Db, user: SessionUser, row: ShipmentRow): Promise<string[]> {
    const lines = await linesOf(trx, row.id);
    const { records, candidates } = await lockCandidates(trx, row.owner_id, lines);
    let pool = candidates;
    const plan: { line: LineRow; takes: FifoTake[] }[] = [];
    const errors: { field: string; message: string }[] = [];
    lines.forEach((line, i) => {
      const mine = pool.filter((c) => {
        const rec = records.find((r) => r.id === c.id);
        return line.stock_record_id ? c.id === line.stock_record_id : rec?.sku === line.sku;
      });
      const { takes, short } = planFifo(mine, line.quantity);
      if (short > 0) {
        const unit = (line.unit ?? 'H87') as StockUnit;
        const what = line.stock_record_id ? `${line.sku} on this stock record` : line.sku;
        errors.push({
          field: `lines.${i}.quantity`,
          message: `Only ${line.quantity - short} of ${quantityWithUnit(line.quantity, unit)} of ${what} are available (${short} short)`,
        });
      }
      pool = consumeFifo(pool, takes);
      plan.push({ line, takes });
    });
    if (errors.length)
      throw problems.conflict(
        `${row.number} cannot be released: ${errors.length === 1 ? 'one line is' : `${errors.length} lines are`} short of stock. Nothing was reserved.`,
        errors,
      );
    const taken = plan.map(({ takes }) =>
      takes.map((t) => records.find((r) => r.id === t.stockRecordId)?.customs_status ?? 'union'),
    );
    // What the release takes must leave under one declaration too (the stock may have changed since the draft).
    const mix = shipmentLinesMixProblem(
      plan.map(({ line }, i) => ({ label: `Line ${i + 1} (${line.sku})`, statuses: taken[i] ?? [] })),
    );
    if (mix) {
      const field = `lines.${mix.index}.${plan[mix.index]?.line.stock_record_id ? 'stockRecordId' : 'sku'}`;
      throw problems.unprocessable(
        `${row.number} cannot be released: ${mix.message}. Nothing was reserved.`,
        [{ field, message: mix.message }],
      );
    }
    const statuses = taken.flat();
    const missing = shipmentProcedureMissing(row.number, row.outbound_procedure, statuses);
    const misfit = shipmentProcedureProblem(row.outbound_procedure, statuses);
    // The detail carries the reason too: it is what the release's notification shows.
    if (missing || misfit)
      throw problems.unprocessable(
        missing
          ? `${missing} Nothing was reserved.`
          : `${row.number} cannot be released under ${row.outbound_procedure}: ${misfit}. Nothing was reserved.`,
        [{ field: 'outboundProcedure', message: (missing ?? misfit) as string }],
      );
    const perRecord = new Map<string, number>();
    const perUnit = new Map<string, number>();
    const allocations = plan.flatMap(({ line, takes }) =>
      takes.map((t) => {
        perRecord.set(t.stockRecordId, (perRecord.get(t.stockRecordId) ?? 0) + t.quantity);
        if (t.handlingUnitId)
          perUnit.set(t.handlingUnitId, (perUnit.get(t.handlingUnitId) ?? 0) + t.quantity);
        return {
          shipment_id: row.id,
          line_id: line.id,
          stock_record_id: t.stockRecordId,
          handling_unit_id: t.handlingUnitId,
          quantity: t.quantity,
        };
      }),
    );
    if (allocations.length) await trx.insertInto('shipment_allocations').values(allocations).execute();
    await reserveBy(trx, user, perRecord, perUnit, +1);
    return [...perRecord.keys()];
  }

  /** Adds (sign +1) or takes back (−1) reservations on records and root units; the DB checks hold the line. */
  async function reserveBy(
    trx: Db,
    user: SessionUser,
    perRecord: Map<string, number>,
    perUnit: Map<string, number>,
    sign: 1 | -1,
  ) {
    for (const [id, q] of [...perRecord].sort(([a], [b]) => (a < b ? -1 : 1)))
      await trx
        .updateTable('stock_records')
        .set((eb) => ({
          quantity_reserved: eb('quantity_reserved', '+', sign * q),
          version: eb('version', '+', 1),
          updated_at: new Date(),
          updated_by: user.id,
        }))
        .where('id', '=', id)
        .execute();
    for (const [id, q] of perUnit)
      await trx
        .updateTable('handling_units')
        .set((eb) => ({ quantity_reserved: eb('quantity_reserved', '+', sign * q) }))
        .where('id', '=', id)
        .execute();
  }

  /** Locks the records of the shipment's open allocations (reserved or picked: still on hand), in the one order. */
  async function lockAllocated(trx: Db, shipmentId: string) {
    await sql`select s.id from stock_records s
      where s.id in (select stock_record_id from shipment_allocations
                     where shipment_id = ${shipmentId} and state in ('reserved', 'picked'))
      order by s.sku, s.received_on, s.id for update`.execute(trx);
    return trx
      .selectFrom('shipment_allocations')
      .selectAll()
      .where('shipment_id', '=', shipmentId)
      .where('state', 'in', HOLDING_ALLOCATION_STATES)
      .execute();
  }

  async function free(trx: Db, user: SessionUser, shipmentId: string): Promise<string[]> {
    const open = await lockAllocated(trx, shipmentId);
    const perRecord = new Map<string, number>();
    const perUnit = new Map<string, number>();
    for (const a of open) {
      perRecord.set(a.stock_record_id, (perRecord.get(a.stock_record_id) ?? 0) + a.quantity);
      if (a.handling_unit_id)
        perUnit.set(a.handling_unit_id, (perUnit.get(a.handling_unit_id) ?? 0) + a.quantity);
    }
    await reserveBy(trx, user, perRecord, perUnit, -1);
    await trx
      .updateTable('shipment_allocations')
      .set({ state: 'freed' })
      .where('shipment_id', '=', shipmentId)
      .where('state', 'in', HOLDING_ALLOCATION_STATES)
      .execute();
    return [...perRecord.keys()];
  }

  async function ship(trx: Db, user: SessionUser, row: ShipmentRow): Promise<string[]> {
    const blocker = shipBlocker(
      row,
      await allocationsOf(trx, row.id),
      await declarationsOfShipment(trx, row.id),
    );
    if (blocker) throw problems.conflict(blocker, [{ field: 'declaration', message: blocker }]);
    const open = await lockAllocated(trx, row.id);
    for (const a of open)
      await pickStock(trx, {
        stockRecordId: a.stock_record_id,
        handlingUnitId: a.handling_unit_id,
        quantity: a.quantity,
        shipmentId: row.id,
        actorId: user.id,
      });
    await trx
      .updateTable('shipment_allocations')
      .set({ state: 'shipped' })
      .where('shipment_id', '=', row.id)
      .where('state', 'in', HOLDING_ALLOCATION_STATES)
      .execute();
    return [...new Set(open.map((a) => a.stock_record_id))];
  }

  /** "Mark packed": whatever was not confirmed picked one by one was picked to be packed. */
  async function pickRest(trx: Db, shipmentId: string): Promise<void> {
    await trx
      .updateTable('shipment_allocations')
      .set({ state: 'picked' })
      .where('shipment_id', '=', shipmentId)
      .where('state', '=', 'reserved')
      .execute();
  }

  /** A customer naming another party's id in a filter gets 404, as the stock lists answer: the party is not theirs to name. */
  function ownedScope(user: SessionUser, ownerId: string | undefined): Scope {
    const scope = scopeOf(user);
    if (!scope.all && ownerId && ownerId !== scope.partyId) throw problems.notFound('No such party.');
    return scope;
  }

  const stockEvents = (ids: string[], ownerId: string): RecordEvent[] =>
    ids.map((id) => ({ kind: 'stock', id, action: 'updated', partyIds: [ownerId] }));

  return {
    list: (user: SessionUser, query: ShipmentListQuery) => repo.list(ownedScope(user, query.ownerId), query),
    all: (user: SessionUser, query: ShipmentFilters) => repo.all(ownedScope(user, query.ownerId), query),

    /** The id of the shipment of that number (any case), or null: the routes' address by number. */
    async idOf(number: string): Promise<string | null> {
      const row = await db
        .selectFrom('shipments')
        .select('id')
        // Numbers are stored upper case (series prefixes are): the unique index answers.
        .where('number', '=', number.trim().toUpperCase())
        .executeTakeFirst();
      return row?.id ?? null;
    },

    async get(user: SessionUser, id: string): Promise<Shipment> {
      const scope = scopeOf(user);
      return detail(scope, await rowOr404(db, scope, id));
    },

    async create(user: SessionUser, input: ShipmentCreateParsed): Promise<Shipment> {
      noNotesFromCustomers(user, input.notes);
      consigneeOfCustomer(user, input.consigneeId);
      const ownerId = ownerOf(user, input.ownerId);
      const id = await inRetriedTransaction(db, async (trx) => {
        const owner = await trx
          .selectFrom('parties')
          .select('id')
          .where('id', '=', ownerId)
          .executeTakeFirst();
        if (!owner)
          throw problems.unprocessable('No such owner.', [{ field: 'ownerId', message: 'No such party' }]);
        const lines = await resolveLines(trx, ownerId, input.lines);
        const { number } = await takeSeriesNumber(trx, 'shipment', new Date().getUTCFullYear());
        const created = await trx
          .insertInto('shipments')
          .values({
            ...(header(input) as object),
            number,
            owner_id: ownerId,
            created_by: user.id,
            updated_by: user.id,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await writeLines(trx, created.id, lines);
        await writeAudit(trx, {
          kind: KIND,
          id: created.id,
          action: 'created',
          actorId: user.id,
          changes: [
            { field: 'number', from: null, to: number },
            { field: 'ownerId', from: null, to: ownerId },
            ...diff({}, input as Record<string, unknown>, HEADER_FIELDS),
            { field: 'lines', from: null, to: lineAudit(lines) },
          ],
        });
        return created.id;
      }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
      const row = await rowOr404(db, { all: true }, id);
      publish([{ kind: KIND, id, action: 'created', partyIds: [row.owner_id] }]);
      return detail(scopeOf(user), row);
    },

    async update(user: SessionUser, id: string, input: ShipmentUpdateParsed): Promise<Shipment> {
      noNotesFromCustomers(user, input.notes);
      const scope = scopeOf(user);
      await inRetriedTransaction(db, async (trx) => {
        const row = await rowOr404(trx, scope, id, true);
        // A draft keeps the consignee staff gave it; a customer may not name another party anew.
        if (input.consigneeId !== row.consignee_id) consigneeOfCustomer(user, input.consigneeId);
        versionCheck(row, input.version);
        if (row.status !== 'draft') return changeProcedure(trx, user, row, input);
        const changes: Change[] = diff(rowHeader(row), input as Record<string, unknown>, HEADER_FIELDS);
        let ownerId = row.owner_id;
        if (input.ownerId !== undefined && input.ownerId !== row.owner_id) {
          ownerId = ownerOf(user, input.ownerId);
          changes.unshift({ field: 'ownerId', from: row.owner_id, to: ownerId });
        }
        if (input.lines) {
          const before = await linesOf(trx, row.id);
          const lines = await resolveLines(trx, ownerId, input.lines);
          await writeLines(trx, row.id, lines);
          changes.push({
            field: 'lines',
            from: before.map((l) => `${l.position}. ${l.sku} × ${l.quantity}`),
            to: lineAudit(lines),
          });
        } else if (ownerId !== row.owner_id) {
          const before = await linesOf(trx, row.id);
          await resolveLines(
            trx,
            ownerId,
            before.map((l) =>
              l.stock_record_id
                ? { stockRecordId: l.stock_record_id, quantity: l.quantity }
                : { sku: l.sku, quantity: l.quantity },
            ),
          );
        }
        await trx
          .updateTable('shipments')
          .set((eb) => ({
            ...(header(input) as object),
            owner_id: ownerId,
            version: eb('version', '+', 1),
            updated_at: new Date(),
            updated_by: user.id,
          }))
          .where('id', '=', row.id)
          .execute();
        await writeAudit(trx, { kind: KIND, id: row.id, action: 'updated', actorId: user.id, changes });
      }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
      const row = await rowOr404(db, { all: true }, id);
      publish([{ kind: KIND, id, action: 'updated', partyIds: [row.owner_id] }]);
      return detail(scope, row);
    },

    async remove(user: SessionUser, id: string): Promise<void> {
      const scope = scopeOf(user);
      const owner = await inRetriedTransaction(db, async (trx) => {
        const row = await rowOr404(trx, scope, id, true);
        draftOnly(row, 'deleted');
        await trx.deleteFrom('shipments').where('id', '=', row.id).execute();
        await auditDeletion(trx, {
          kind: KIND,
          id: row.id,
          actorId: user.id,
          field: 'number',
          was: row.number,
        });
        return row.owner_id;
      });
      publish([{ kind: KIND, id, action: 'deleted', partyIds: [owner] }]);
    },

    async transition(
      user: SessionUser,
      id: string,
      input: { to: ShipmentTransitionTarget; version: number; reason?: string | null | undefined },
    ): Promise<Shipment> {
      const scope = scopeOf(user);
      const result = await inRetriedTransaction(db, async (trx) => {
        const row = await rowOr404(trx, scope, id, true);
        requireStaff(user);
        versionCheck(row, input.version);
        if (!SHIPMENT_TRANSITIONS[row.status].includes(input.to))
          throw problems.conflict(
            `${row.number} is ${SHIPMENT_STATUS_LABELS[row.status].toLowerCase()}: it cannot become ${SHIPMENT_STATUS_LABELS[input.to].toLowerCase()}.`,
            [{ field: 'to', message: `Not allowed from ${SHIPMENT_STATUS_LABELS[row.status]}` }],
          );
        let touched: string[] = [];
        if (input.to === 'released') touched = await reserve(trx, user, row);
        else if (input.to === 'shipped') touched = await ship(trx, user, row);
        else if (input.to === 'cancelled') touched = await free(trx, user, row.id);
        else if (input.to === 'packed') await pickRest(trx, row.id);
        const at = `${input.to}_at` as
          | 'released_at'
          | 'picking_at'
          | 'packed_at'
          | 'shipped_at'
          | 'cancelled_at';
        await trx
          .updateTable('shipments')
          .set((eb) => ({
            status: input.to,
            [at]: new Date(),
            ...(input.to === 'cancelled' ? { cancel_reason: input.reason ?? null } : {}),
            version: eb('version', '+', 1),
            updated_at: new Date(),
            updated_by: user.id,
          }))
          .where('id', '=', row.id)
          .execute();
        await writeAudit(trx, {
          kind: KIND,
          id: row.id,
          action: input.to,
          actorId: user.id,
          changes: [
            { field: 'status', from: row.status, to: input.to },
            ...(input.to === 'cancelled' && input.reason
              ? [{ field: 'cancelReason', from: null, to: input.reason }]
              : []),
          ],
        });
        return { touched, owner: row.owner_id };
      }).catch((e: unknown) => {
        // The stock checks (reserved within on hand) refused a statement: the locks should make this
        // unreachable; if not, the release is refused like a short one, never a 500.
        if ((e as { code?: string }).code === '23514')
          throw problems.conflict('The stock changed while this shipment was being processed; try again.', [
            { field: 'lines', message: 'The stock changed meanwhile' },
          ]);
        throw e;
      });
      publish([
        { kind: KIND, id, action: 'updated', partyIds: [result.owner] },
        ...stockEvents(result.touched, result.owner),
      ]);
      return detail(scope, await rowOr404(db, scope, id));
    },

    /**
     * Picks confirmed while picking (issue 27 item 6): the allocations named become `picked`, or
     * `reserved` again when put back. Only while the shipment is being picked; the goods stay on hand
     * and reserved until it ships.
     */
    async picks(user: SessionUser, id: string, input: ShipmentPicks): Promise<Shipment> {
      const scope = scopeOf(user);
      const owner = await inRetriedTransaction(db, async (trx) => {
        const row = await rowOr404(trx, scope, id, true);
        requireStaff(user);
        versionCheck(row, input.version);
        if (row.status !== 'picking')
          throw problems.conflict(
            `${row.number} is ${SHIPMENT_STATUS_LABELS[row.status].toLowerCase()}: picks are confirmed while it is being picked.`,
            [
              {
                field: 'allocationIds',
                message: `Not while ${SHIPMENT_STATUS_LABELS[row.status].toLowerCase()}`,
              },
            ],
          );
        const mine = await trx
          .selectFrom('shipment_allocations')
          .select(['id', 'state'])
          .where('shipment_id', '=', row.id)
          .execute();
        const byId = new Map(mine.map((a) => [a.id, a.state]));
        const errors = input.allocationIds.flatMap((allocationId, i) =>
          byId.has(allocationId)
            ? []
            : [{ field: `allocationIds.${i}`, message: `Not an allocation of ${row.number}` }],
        );
        if (errors.length > 0)
          throw problems.unprocessable(`Only ${row.number}'s own allocations can be picked.`, errors);
        const [from, to] = input.picked
          ? (['reserved', 'picked'] as const)
          : (['picked', 'reserved'] as const);
        const changing = [...new Set(input.allocationIds)].filter((a) => byId.get(a) === from);
        if (changing.length > 0) {
          await trx
            .updateTable('shipment_allocations')
            .set({ state: to })
            .where('id', 'in', changing)
            .execute();
          await trx
            .updateTable('shipments')
            .set((eb) => ({ version: eb('version', '+', 1), updated_at: new Date(), updated_by: user.id }))
            .where('id', '=', row.id)
            .execute();
          const pickedBefore = mine.filter((a) => a.state === 'picked').length;
          await writeAudit(trx, {
            kind: KIND,
            id: row.id,
            action: input.picked ? 'picked' : 'put back',
            actorId: user.id,
            changes: [
              {
                field: 'picked',
                from: `${pickedBefore} of ${mine.length}`,
                to: `${pickedBefore + (input.picked ? changing.length : -changing.length)} of ${mine.length}`,
              },
            ],
          });
        }
        return row.owner_id;
      });
      publish([{ kind: KIND, id, action: 'updated', partyIds: [owner] }]);
      return detail(scope, await rowOr404(db, scope, id));
    },

    /**
     * "Create outbound declaration": a draft prefilled from the stock taken and its entry, linked to the
     * shipment through the declarations' own create (the one link rule, `checkShipmentLink`).
     */
    async declare(user: SessionUser, id: string, input: { version: number }): Promise<Shipment> {
      const scope = scopeOf(user);
      const deferred: RecordEvent[] = [];
      const owner = await inRetriedTransaction(db, async (trx) => {
        const row = await rowOr404(trx, scope, id, true);
        requireStaff(user);
        versionCheck(row, input.version);
        const allocations = (await allocationsOf(trx, row.id)).filter((a) => a.state !== 'freed');
        const problem = declarationProblem(row, allocations, await declarationsOfShipment(trx, row.id));
        if (problem) {
          const errors = [{ field: problem.field, message: problem.message }];
          throw problem.status === 422
            ? problems.unprocessable(
                row.outbound_procedure
                  ? `${row.number} cannot be declared under ${row.outbound_procedure}: ${problem.message}.`
                  : `${row.number} has no outbound procedure.`,
                errors,
              )
            : problems.conflict(`${problem.message}.`, errors);
        }
        const entryIds = [...new Set(allocations.flatMap((a) => a.entry_declaration_id ?? []))];
        const draft = outboundDeclarationDraft(
          {
            id: row.id,
            owner_id: row.owner_id,
            outbound_procedure: row.outbound_procedure as OutboundProcedure,
          },
          allocations,
          await entriesOf(trx, row.owner_id, entryIds),
        );
        const parsed = declarationCreateSchema.safeParse(draft);
        if (!parsed.success)
          throw problems.unprocessable(
            `The stock of ${row.number} does not make a valid declaration draft.`,
            parsed.error.issues.map((i) => ({
              field: `declaration.${i.path.join('.')}`,
              message: i.message,
            })),
          );
        // The declarations service in this transaction; its events wait for the commit like ours.
        const declarations = declarationsService(trx, {
          events: { publish: (e) => deferred.push(e), subscribe: () => () => {} },
          gateway: noCustomsGateway,
        });
        await declarations.create(user, parsed.data as DeclarationCreateParsed);
        return row.owner_id;
      });
      publish([
        ...deferred.filter((e) => !(e.kind === KIND && e.id === id)),
        { kind: KIND, id, action: 'updated', partyIds: [owner] },
      ]);
      return detail(scope, await rowOr404(db, scope, id));
    },

    async history(user: SessionUser, id: string) {
      const scope = scopeOf(user);
      const row = await rowOr404(db, scope, id);
      return historyOf(
        db,
        KIND,
        row.id,
        { scope, visibility: shipmentFieldVisibility },
        {
          ownerId: 'party',
          consigneeId: 'party',
        },
      );
    },
  };
}

export type ShipmentsService = ReturnType<typeof shipmentsService>;
