import {
  type EntryDeclarationFacts,
  type HandlingUnitParsed,
  INT4_MAX,
  makeSscc,
  quantityWithUnit,
  receiptEntryProblems,
  type StockAvailabilityQuery,
  type StockMovementCreateParsed,
  type StockMovementListQuery,
  type StockReceipt,
  type StockReceiptCreateParsed,
  type StockRecord,
  type StockTree,
  type StockUnit,
  ssccPaths,
  stockFieldVisibility,
} from '@fvg/contracts';
import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { inTransaction } from '../../../db/transaction.ts';
import { problems } from '../../../http/problem.ts';
import { historyOf, writeAudit, writeAudits } from '../../../records/audit.ts';
import type { RecordEvents } from '../../../records/events.ts';
import { checkVersion } from '../../../records/mutation.ts';
import { orNotFound, requireStaff, type Scope, scopeOf } from '../../../records/scope.ts';
import { redact } from '../../../records/visibility.ts';
import { currentYear, takeSeriesNumber } from '../../company/company.service.ts';
import type { SessionUser } from '../../users/users.repository.ts';
import {
  findReceipt,
  findStock,
  placeOf,
  reservationsOf,
  type StockRow,
  stockOfReceipt,
  stockRepository,
  stockTree,
  toListItem,
  toStockRecord,
  touchStock,
  type UnitRow,
  unitsOf,
  writeMovement,
} from './stock.repository.ts';

/** The audit trail's and the hub's name of a stock record, and the audit trail's of a receipt. */
const KIND = 'stock';
const RECEIPT_KIND = 'stock_receipt';

const path = (p: (string | number)[]) => p.join('.');

interface PlannedUnit {
  id: string;
  parentId: string | null;
  kind: HandlingUnitParsed['kind'];
  sscc: string | null;
  reference: string | null;
  quantity: number;
  location: string;
  position: number;
  /** Where the input had it: `lines.0.handlingUnits.1.children.0`. */
  path: (string | number)[];
}

/** A line's units as rows: ids made here, so one insert takes the whole tree; positions count per line. */
function planUnits(units: HandlingUnitParsed[], lineLocation: string, lineIndex: number): PlannedUnit[] {
  const out: PlannedUnit[] = [];
  const walk = (list: HandlingUnitParsed[], parent: PlannedUnit | null, at: (string | number)[]) => {
    list.forEach((u, j) => {
      const unit: PlannedUnit = {
        id: crypto.randomUUID(),
        parentId: parent?.id ?? null,
        kind: u.kind,
        sscc: u.sscc ?? null,
        reference: u.reference ?? null,
        quantity: u.quantity,
        // A unit inside another sits where its parent sits unless it says otherwise.
        location: u.location ?? parent?.location ?? lineLocation,
        position: out.length + 1,
        path: [...at, j],
      };
      out.push(unit);
      walk(u.children ?? [], unit, [...at, j, 'children']);
    });
  };
  walk(units, null, ['lines', lineIndex, 'handlingUnits']);
  return out;
}

export interface StockDeps {
  events: RecordEvents;
}

export function stockService(db: Db, { events }: StockDeps) {
  const repo = stockRepository(db);

  async function stockOr404(scope: Scope, id: string) {
    return orNotFound(await findStock(db, scope, id), 'stock record');
  }

  /** A customer names only their own party; another's is answered like a record that does not exist. */
  function ownerFilter(scope: Scope, ownerId: string | undefined) {
    if (!scope.all && ownerId && ownerId !== scope.partyId) throw problems.notFound('No such party.');
  }

  /** A list read in the user's scope; a customer's owner filter may name only their own party. */
  const scopedRead =
    <Q extends { ownerId?: string | undefined }, R>(read: (scope: Scope, query: Q) => R) =>
    (user: SessionUser, query: Q): R => {
      const scope = scopeOf(user);
      ownerFilter(scope, query.ownerId);
      return read(scope, query);
    };

  function announce(action: 'created' | 'updated', rows: Pick<StockRow, 'id' | 'owner_id'>[]) {
    for (const r of rows) events.publish({ kind: KIND, id: r.id, action, partyIds: [r.owner_id] });
  }

  async function receiptDetail(scope: Scope, id: string): Promise<StockReceipt> {
    const r = await findReceipt(db, scope, id);
    if (!r) throw problems.notFound('This receipt does not exist.');
    const lines = await stockOfReceipt(db, r.id);
    return redact(scope, stockFieldVisibility, {
      id: r.id,
      number: r.number,
      owner: { id: r.owner_id, code: r.owner_code, name: r.owner_name },
      receivedOn: r.received_on,
      customsStatus: r.customs_status,
      inboundMrn: r.inbound_mrn,
      inboundMrnExternal: r.inbound_mrn_external,
      entryDeclaration:
        r.entry_declaration_id && r.entry_lrn
          ? { id: r.entry_declaration_id, lrn: r.entry_lrn, mrn: r.entry_mrn }
          : null,
      notes: r.notes,
      lines: lines.map(toListItem),
      version: r.version,
      createdAt: r.created_at.toISOString(),
      createdBy: r.created_by && r.created_by_name ? { id: r.created_by, name: r.created_by_name } : null,
    });
  }

  /**
   * The entry a receipt names, judged by the one rule (receiptEntryProblems, ADR 0046): our declaration
   * by id, else the one holding the MRN (external mark or not), else an external MRN. 422 on the field.
   */
  async function receiptEntry(
    trx: Db,
    input: Pick<
      StockReceiptCreateParsed,
      'ownerId' | 'customsStatus' | 'inboundMrn' | 'inboundMrnExternal' | 'entryDeclarationId'
    >,
  ): Promise<{ inboundMrn: string | null; external: boolean; entryDeclarationId: string | null }> {
    const mrn = input.inboundMrn ?? null;
    const base = trx
      .selectFrom('declarations')
      .select(['id', 'lrn', 'mrn', 'customer_id', 'type', 'category', 'status'])
      // The declaration cannot change under the receipt being written.
      .forShare();
    const found = input.entryDeclarationId
      ? await base.where('id', '=', input.entryDeclarationId).executeTakeFirst()
      : mrn
        ? await base.where('mrn', '=', mrn).executeTakeFirst()
        : undefined;
    // Another customer's declaration named by id is answered as one that does not exist.
    const entry: EntryDeclarationFacts | null =
      found && !(input.entryDeclarationId && found.customer_id !== input.ownerId)
        ? {
            id: found.id,
            lrn: found.lrn,
            mrn: found.mrn,
            customerId: found.customer_id,
            type: found.type,
            category: found.category,
            status: found.status,
          }
        : null;
    const wrong = receiptEntryProblems(input, entry);
    if (wrong.length) throw problems.unprocessable(wrong[0]?.message as string, wrong);
    if (input.customsStatus !== 'non_union_customs_warehousing')
      return { inboundMrn: mrn, external: false, entryDeclarationId: null };
    return entry
      ? { inboundMrn: entry.mrn, external: false, entryDeclarationId: entry.id }
      : { inboundMrn: mrn, external: true, entryDeclarationId: null };
  }

  /** SSCCs already on units (anywhere in the warehouse) answer 409 on the path that gave them. */
  async function takenSsccs(trx: Db, lines: StockReceiptCreateParsed['lines']) {
    const given = ssccPaths(lines as { handlingUnits?: HandlingUnitParsed[] }[]);
    if (!given.length) return [];
    const taken = await trx
      .selectFrom('handling_units')
      .select(sql<string>`trim(sscc)`.as('sscc'))
      .where(
        'sscc',
        'in',
        given.map((g) => g.sscc),
      )
      .execute();
    const set = new Set(taken.map((t) => t.sscc));
    return given
      .filter((g) => set.has(g.sscc))
      .map((g) => ({ field: path(g.path), message: `SSCC ${g.sscc} is already on another handling unit` }));
  }

  async function createReceipt(user: SessionUser, input: StockReceiptCreateParsed): Promise<StockReceipt> {
    requireStaff(user);
    const { receiptId, records } = await inTransaction(db, async (trx) => {
      const owner = await trx
        .selectFrom('parties')
        .select(['id'])
        .where('id', '=', input.ownerId)
        .executeTakeFirst();
      if (!owner) throw problems.validation([{ field: 'ownerId', message: 'No such party' }]);

      const entry = await receiptEntry(trx, input);
      const inboundMrn = entry.inboundMrn;

      const taken = await takenSsccs(trx, input.lines);
      if (taken.length)
        throw problems.conflict('An SSCC identifies one handling unit: these are already in use.', taken);

      const planned = input.lines.map((line, i) => planUnits(line.handlingUnits ?? [], line.location, i));
      const unnumbered = planned.flat().filter((u) => u.kind === 'pallet' && !u.sscc);
      if (unnumbered.length) {
        const company = await trx
          .selectFrom('company_settings')
          .select(['gs1_company_prefix', 'sscc_extension_digit'])
          .executeTakeFirstOrThrow();
        const prefix = company.gs1_company_prefix;
        if (!prefix)
          throw problems.unprocessable(
            'A pallet without an SSCC gets one from the GS1 company prefix, and none is set.',
            unnumbered.map((u) => ({
              field: path([...u.path, 'sscc']),
              message: 'Enter the SSCC, or set the GS1 company prefix in the company settings',
            })),
          );
        // A serial whose SSCC is on a unit already (typed in from a label printed elsewhere) or given
        // in this body is skipped: the sequence moves on, so drawing again ends.
        const given = new Set(planned.flat().flatMap((u) => (u.sscc ? [u.sscc] : [])));
        const fresh: string[] = [];
        while (fresh.length < unnumbered.length) {
          const serials = await sql<{ serial: string }>`
            select nextval('sscc_serial')::text as serial
            from generate_series(1, ${unnumbered.length - fresh.length})`.execute(trx);
          const made = serials.rows.map((r) =>
            makeSscc({
              extensionDigit: company.sscc_extension_digit,
              companyPrefix: prefix,
              serial: BigInt(r.serial),
            }),
          );
          const taken = new Set(
            (
              await trx
                .selectFrom('handling_units')
                .select(sql<string>`trim(sscc)`.as('sscc'))
                .where('sscc', 'in', made)
                .execute()
            ).map((t) => t.sscc),
          );
          fresh.push(...made.filter((x) => !taken.has(x) && !given.has(x)));
        }
        unnumbered.forEach((u, i) => {
          u.sscc = fresh[i] ?? null;
        });
      }

      const { number } = await takeSeriesNumber(trx, 'stock_receipt', currentYear());
      const receipt = await trx
        .insertInto('stock_receipts')
        .values({
          number,
          owner_id: input.ownerId,
          received_on: input.receivedOn,
          customs_status: input.customsStatus,
          inbound_mrn: inboundMrn,
          inbound_mrn_external: entry.external,
          entry_declaration_id: entry.entryDeclarationId,
          notes: input.notes ?? null,
          created_by: user.id,
          updated_by: user.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();

      const records: { id: string; owner_id: string }[] = [];
      const audits: Parameters<typeof writeAudits>[1] = [
        {
          kind: RECEIPT_KIND,
          id: receipt.id,
          action: 'created',
          actorId: user.id,
          changes: [{ field: 'number', from: null, to: number }],
        },
      ];
      for (const [i, line] of input.lines.entries()) {
        const units = planned[i] as PlannedUnit[];
        const roots = units.filter((u) => u.parentId === null);
        const place = placeOf(
          units.map((u) => ({ parent_id: u.parentId, location: u.location, quantity: u.quantity })),
          line.location,
        );
        const record = await trx
          .insertInto('stock_records')
          .values({
            receipt_id: receipt.id,
            line_no: i + 1,
            owner_id: input.ownerId,
            sku: line.sku,
            description: line.description,
            commodity_code: line.commodityCode ?? null,
            country_of_origin: line.countryOfOrigin ?? null,
            unit: line.unit,
            quantity_received: line.quantity,
            quantity_on_hand: line.quantity,
            customs_status: input.customsStatus,
            inbound_mrn: inboundMrn,
            received_on: input.receivedOn,
            location: place.location,
            location_count: place.locationCount,
            packages: line.packages ?? null,
            gross_mass_kg: line.grossMassKg ?? null,
            net_mass_kg: line.netMassKg ?? null,
            value: line.value ?? null,
            currency: line.currency ?? null,
            // The receipt's internal notes go with each of its records (where staff read them).
            notes: input.notes ?? null,
            created_by: user.id,
            updated_by: user.id,
          })
          .returning(['id', 'owner_id'])
          .executeTakeFirstOrThrow();
        records.push(record);
        if (units.length)
          await trx
            .insertInto('handling_units')
            .values(
              units.map((u) => ({
                id: u.id,
                stock_record_id: record.id,
                parent_id: u.parentId,
                kind: u.kind,
                sscc: u.sscc,
                reference: u.reference,
                quantity: u.quantity,
                location: u.location,
                position: u.position,
              })),
            )
            .execute();
        // On hand is the sum of movements from the first one: one receipt per root unit (or the record).
        const receipts = roots.length
          ? roots.map((u) => ({ unit: u.id, quantity: u.quantity, to: u.location }))
          : [{ unit: null, quantity: line.quantity, to: line.location }];
        await trx
          .insertInto('stock_movements')
          .values(
            receipts.map((m) => ({
              stock_record_id: record.id,
              handling_unit_id: m.unit,
              kind: 'receipt' as const,
              quantity: m.quantity,
              to_location: m.to,
              created_by: user.id,
            })),
          )
          .execute();
        audits.push({
          kind: KIND,
          id: record.id,
          action: 'received',
          actorId: user.id,
          changes: [
            { field: 'receipt', from: null, to: number },
            { field: 'quantityOnHand', from: null, to: line.quantity },
            { field: 'location', from: null, to: place.location },
          ],
        });
      }
      await writeAudits(trx, audits);
      return { receiptId: receipt.id, records };
    }).catch(async (e: unknown) => {
      // Two receipts naming one SSCC at once: the later one meets the unique index; say where.
      const err = e as { code?: string; constraint?: string };
      if (err.code === '23505' && err.constraint === 'handling_units_sscc_key') {
        const taken = await takenSsccs(db, input.lines);
        throw problems.conflict('An SSCC identifies one handling unit: these are already in use.', taken);
      }
      // The database's last line (migration 0032) refused the entry: only a change made meanwhile gets here.
      if (err.code === '23514' && err.constraint?.startsWith('stock_receipts_entry')) {
        const message = 'The entry declaration changed meanwhile: it is no released H2 entry of this owner';
        throw problems.unprocessable(message, [{ field: 'inboundMrn', message }]);
      }
      throw e;
    });
    announce('created', records);
    return receiptDetail(scopeOf(user), receiptId);
  }

  /** Locks a record for a movement; 404 out of scope, 403 for customers, 409 on a stale version. */
  async function locked(trx: Db, user: SessionUser, id: string, version: number) {
    const row = orNotFound(await findStock(trx, scopeOf(user), id, true), 'stock record');
    requireStaff(user);
    checkVersion('stock record', row.version, version);
    return row;
  }

  function unitOr422(units: UnitRow[], id: string): UnitRow {
    const unit = units.find((u) => u.id === id);
    if (!unit)
      throw problems.unprocessable('This stock record has no such handling unit.', [
        { field: 'handlingUnitId', message: 'No such handling unit on this stock record' },
      ]);
    return unit;
  }

  const unitName = (u: UnitRow) => `${u.kind}${u.sscc ? ` ${u.sscc}` : u.reference ? ` ${u.reference}` : ''}`;

  async function transfer(
    trx: Db,
    user: SessionUser,
    row: StockRow,
    input: Extract<StockMovementCreateParsed, { kind: 'transfer' }>,
  ) {
    const to = input.toLocation;
    const units = await unitsOf(trx, row.id);
    if (input.handlingUnitId) {
      const unit = unitOr422(units, input.handlingUnitId);
      if (unit.parent_id) {
        const parent = units.find((u) => u.id === unit.parent_id) as UnitRow;
        throw problems.unprocessable(`A ${unit.kind} moves with the ${parent.kind} it sits on.`, [
          { field: 'handlingUnitId', message: `Move the ${unitName(parent)} it sits on` },
        ]);
      }
      if (unit.location === to)
        throw problems.unprocessable(`The ${unitName(unit)} is at ${to} already.`, [
          { field: 'toLocation', message: `The ${unit.kind} is at ${to} already` },
        ]);
      // The unit and everything it holds move.
      const subtree = collectSubtree(units, unit.id);
      await trx.updateTable('handling_units').set({ location: to }).where('id', 'in', subtree).execute();
      await writeMovement(trx, {
        stockRecordId: row.id,
        handlingUnitId: unit.id,
        kind: 'transfer',
        quantity: 0,
        fromLocation: unit.location,
        toLocation: to,
        actorId: user.id,
      });
    } else {
      if (row.location === to && row.location_count <= 1)
        throw problems.unprocessable(`This stock is at ${to} already.`, [
          { field: 'toLocation', message: `The stock is at ${to} already` },
        ]);
      if (units.length)
        await trx
          .updateTable('handling_units')
          .set({ location: to })
          .where('stock_record_id', '=', row.id)
          .execute();
      await writeMovement(trx, {
        stockRecordId: row.id,
        handlingUnitId: null,
        kind: 'transfer',
        quantity: 0,
        fromLocation: row.location,
        toLocation: to,
        actorId: user.id,
      });
    }
    await touchStock(trx, row.id, { actorId: user.id, location: to });
    const after = await trx
      .selectFrom('stock_records')
      .select(['location'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    await writeAudit(trx, {
      kind: KIND,
      id: row.id,
      action: 'transferred',
      actorId: user.id,
      changes: [
        ...(input.handlingUnitId ? [{ field: 'handlingUnit', from: null, to: input.handlingUnitId }] : []),
        { field: 'location', from: row.location, to: after.location },
      ],
    });
  }

  async function adjust(
    trx: Db,
    user: SessionUser,
    row: StockRow,
    input: Extract<StockMovementCreateParsed, { kind: 'adjustment' }>,
  ) {
    const q = input.quantity;
    const units = await unitsOf(trx, row.id);
    const unitLabel = (row.unit as StockUnit) ?? 'H87';
    let unit: UnitRow | null = null;
    if (units.length) {
      if (!input.handlingUnitId)
        throw problems.validation([
          {
            field: 'handlingUnitId',
            message: 'This stock is in handling units: choose the item or carton to adjust',
          },
        ]);
      unit = unitOr422(units, input.handlingUnitId);
      const u = unit;
      if (units.some((x) => x.parent_id === u.id))
        throw problems.unprocessable(`The ${unitName(u)} holds other units: adjust one of them.`, [
          { field: 'handlingUnitId', message: 'Adjust a unit that holds no other units' },
        ]);
    } else if (input.handlingUnitId) {
      throw problems.unprocessable('This stock record has no handling units.', [
        { field: 'handlingUnitId', message: 'This stock has no handling units: leave the unit out' },
      ]);
    }
    const base = unit ? unit.quantity : row.quantity_on_hand;
    // The record's on hand is the largest quantity the adjustment changes (units are parts of it): the
    // column is int4, so a count beyond it is refused here rather than overflowing the statement.
    if (row.quantity_on_hand + q > INT4_MAX)
      throw problems.unprocessable(
        `A stock record holds at most ${INT4_MAX}; adding ${q} to ${row.quantity_on_hand} is more.`,
        [{ field: 'quantity', message: `At most ${INT4_MAX - row.quantity_on_hand} can be added` }],
      );
    if (base + q < 0)
      throw problems.unprocessable(`Only ${quantityWithUnit(base, unitLabel)} are there to take off.`, [
        { field: 'quantity', message: `At most ${base} can be taken off` },
      ]);
    // Nothing may fall below what shipments have reserved: on the record and on the root the unit is in.
    let root: UnitRow | null = unit;
    while (root?.parent_id) root = units.find((x) => x.id === root?.parent_id) ?? null;
    const rootShort = root && q < 0 && root.quantity + q < root.quantity_reserved;
    if (q < 0 && (row.quantity_on_hand + q < row.quantity_reserved || rootShort)) {
      const held = await reservationsOf(trx, row.id, rootShort && root ? root.id : undefined);
      const names = held.map((h) => `${h.number} (${h.quantity})`).join(', ');
      const reserved = rootShort && root ? root.quantity_reserved : row.quantity_reserved;
      const message = `${quantityWithUnit(reserved, unitLabel)} are reserved${names ? ` for ${names}` : ''}: the stock cannot fall below that`;
      throw problems.conflict(message, [{ field: 'quantity', message }]);
    }
    if (unit) {
      // The leaf and each unit above it change by q, so every parent stays the sum of its children.
      const changes = new Map<string, number>();
      let at: UnitRow | null = unit;
      while (at) {
        changes.set(at.id, at.quantity + q);
        const parentId: string | null = at.parent_id;
        at = parentId ? (units.find((x) => x.id === parentId) ?? null) : null;
      }
      for (const [id, quantity] of changes)
        await trx.updateTable('handling_units').set({ quantity }).where('id', '=', id).execute();
    }
    await touchStock(trx, row.id, { onHand: q, actorId: user.id });
    const location = unit?.location ?? row.location;
    await writeMovement(trx, {
      stockRecordId: row.id,
      handlingUnitId: unit?.id ?? null,
      kind: 'adjustment',
      quantity: q,
      fromLocation: q < 0 ? location : null,
      toLocation: q > 0 ? location : null,
      reason: input.reason,
      actorId: user.id,
    });
    await writeAudit(trx, {
      kind: KIND,
      id: row.id,
      action: 'adjusted',
      actorId: user.id,
      changes: [
        { field: 'quantityOnHand', from: row.quantity_on_hand, to: row.quantity_on_hand + q },
        { field: 'reason', from: null, to: input.reason },
      ],
    });
  }

  return {
    listReceipts: scopedRead(repo.receipts),
    allReceipts: scopedRead(repo.allReceipts),
    getReceipt: (user: SessionUser, id: string) => receiptDetail(scopeOf(user), id),
    createReceipt,

    list: scopedRead(repo.list),
    all: scopedRead(repo.all),
    async get(user: SessionUser, id: string): Promise<StockRecord> {
      const scope = scopeOf(user);
      return toStockRecord(db, scope, await stockOr404(scope, id));
    },
    async tree(user: SessionUser, id: string): Promise<StockTree> {
      const scope = scopeOf(user);
      return stockTree(db, await stockOr404(scope, id));
    },
    async movements(user: SessionUser, id: string, query: StockMovementListQuery) {
      const scope = scopeOf(user);
      const row = await stockOr404(scope, id);
      return repo.movements(scope, row.id, query);
    },
    async postMovement(
      user: SessionUser,
      id: string,
      input: StockMovementCreateParsed,
    ): Promise<StockRecord> {
      const owner = await inTransaction(db, async (trx) => {
        const row = await locked(trx, user, id, input.version);
        if (input.kind === 'transfer') await transfer(trx, user, row, input);
        else await adjust(trx, user, row, input);
        return row;
      });
      announce('updated', [owner]);
      return toStockRecord(db, scopeOf(user), await stockOr404({ all: true }, owner.id));
    },
    async history(user: SessionUser, id: string) {
      const scope = scopeOf(user);
      const row = await stockOr404(scope, id);
      return historyOf(db, KIND, row.id, { scope, visibility: stockFieldVisibility });
    },
    async availability(user: SessionUser, query: StockAvailabilityQuery) {
      const scope = scopeOf(user);
      ownerFilter(scope, query.ownerId);
      const ownerId = scope.all ? query.ownerId : scope.partyId;
      if (!ownerId) throw problems.validation([{ field: 'ownerId', message: 'Choose the owner' }]);
      return { items: await repo.availability(ownerId, query.q, query.limit) };
    },
  };
}
export type StockService = ReturnType<typeof stockService>;

/** A unit's id and the ids of everything it holds. */
function collectSubtree(units: UnitRow[], id: string): string[] {
  const out = [id];
  for (let i = 0; i < out.length; i++) for (const u of units) if (u.parent_id === out[i]) out.push(u.id);
  return out;
}
