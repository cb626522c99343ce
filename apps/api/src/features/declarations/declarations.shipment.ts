import {
  currentOutboundDeclaration,
  DECLARATION_STATUS_LABELS,
  DECLARATION_TYPE_LABELS,
  type DeclarationStatus,
  type DeclarationType,
  isLiveDeclaration,
  OUTBOUND_DECLARATION,
  OUTBOUND_PROCEDURE_LABELS,
  type OutboundProcedure,
  SHIPMENT_STATUS_LABELS,
  type ShipmentStatus,
} from '@fvg/contracts';
import type { Db } from '../../db/database.ts';
import { problems } from '../../http/problem.ts';
import { writeAudit } from '../../records/audit.ts';
import type { RecordEvent } from '../../records/events.ts';

/**
 * The link between a declaration and the warehouse shipment it lets leave (issue 23 item 12, ADR 0048):
 * a shipment has many outbound declarations (`declarations.shipment_id`, migration 0033); the current
 * one is the latest not cancelled, and the one released (4071) or exited (3171) lets it ship. Every
 * path that links a declaration to a shipment — the shipment's "create outbound declaration", a new
 * declaration naming its shipment, a copy after a rejection — goes through `checkShipmentLink`.
 */

/** Between release and shipping a shipment can be declared; before, its stock is not known yet. */
export const DECLARABLE_SHIPMENT_STATUSES: readonly ShipmentStatus[] = ['released', 'picking', 'packed'];

export interface LinkedShipment {
  id: string;
  number: string;
  owner_id: string;
  status: ShipmentStatus;
  outbound_procedure: OutboundProcedure | null;
}

async function shipmentOf(trx: Db, id: string, lock: boolean): Promise<LinkedShipment | undefined> {
  let q = trx
    .selectFrom('shipments')
    .select(['id', 'number', 'owner_id', 'status', 'outbound_procedure'])
    .where('id', '=', id);
  if (lock) q = q.forUpdate();
  return (await q.executeTakeFirst()) as LinkedShipment | undefined;
}

/** The declarations of a shipment, oldest first. */
export async function declarationsOfShipment(trx: Db, shipmentId: string) {
  return trx
    .selectFrom('declarations')
    .select(['id', 'lrn', 'mrn', 'type', 'status', 'created_at'])
    .where('shipment_id', '=', shipmentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * May a new declaration of `type` for `customerId` be linked to shipment `shipmentId`? The shipment
 * (locked, so two links at once are taken in turn) must be the customer's, between release and
 * shipping, have its outbound procedure of that declaration type, and have no declaration still in
 * play (a draft, one with customs, or one through): 422/409 on `field` otherwise.
 */
export async function checkShipmentLink(
  trx: Db,
  link: { shipmentId: string; customerId: string; type: DeclarationType },
  field = 'shipmentId',
): Promise<LinkedShipment> {
  const s = await shipmentOf(trx, link.shipmentId, true);
  if (!s || s.owner_id !== link.customerId)
    throw problems.unprocessable('No such shipment of this customer.', [
      { field, message: s ? 'Not a shipment of this customer' : 'No such shipment' },
    ]);
  if (!DECLARABLE_SHIPMENT_STATUSES.includes(s.status))
    throw problems.conflict(
      `${s.number} is ${SHIPMENT_STATUS_LABELS[s.status].toLowerCase()}: its outbound declaration is made once it is released and before it is shipped.`,
      [{ field, message: `${s.number} is ${SHIPMENT_STATUS_LABELS[s.status]}` }],
    );
  if (!s.outbound_procedure)
    throw problems.unprocessable(`${s.number} has no outbound procedure.`, [
      { field, message: `Choose the outbound procedure of ${s.number} first` },
    ]);
  const want = OUTBOUND_DECLARATION[s.outbound_procedure].type;
  if (want !== link.type)
    throw problems.unprocessable(
      `${s.number} leaves under ${OUTBOUND_PROCEDURE_LABELS[s.outbound_procedure]}: its declaration is an ${DECLARATION_TYPE_LABELS[want].toLowerCase()} declaration.`,
      [{ field, message: `${s.number} needs an ${DECLARATION_TYPE_LABELS[want].toLowerCase()} declaration` }],
    );
  const current = currentOutboundDeclaration(await declarationsOfShipment(trx, s.id));
  if (current && isLiveDeclaration(current.status))
    throw problems.conflict(
      `${s.number} already has its declaration ${current.lrn}. ${liveAdvice(current)}`,
      [
        {
          field,
          message: `${s.number} already has ${current.lrn} (${DECLARATION_STATUS_LABELS[current.status]})`,
        },
      ],
    );
  return s;
}

/** What to do instead of a second declaration while `d` is in play. */
function liveAdvice(d: { lrn: string; status: DeclarationStatus }): string {
  if (d.status === 'draft') return `Edit that draft, or delete it to start a new one.`;
  if (d.status === 'released' || d.status === 'exited')
    return `It is ${DECLARATION_STATUS_LABELS[d.status].toLowerCase()}: the goods may leave under it.`;
  return `It is ${DECLARATION_STATUS_LABELS[d.status].toLowerCase()}: wait for customs' answer, or request its cancellation to replace it.`;
}

/** The statuses after which a declaration's shipment needs another one: the copy takes its place. */
const REPLACED_STATUSES: readonly DeclarationStatus[] = ['rejected', 'cancelled', 'not_released'];

/**
 * The shipment a copy keeps: its source's, when the source failed (rejected, cancelled, not released)
 * and that shipment is still to leave; else none (a copy of a declaration still in play, or released,
 * is a declaration of its own, unlinked).
 */
export async function inheritedShipment(
  trx: Db,
  source: { shipment_id: string | null; status: DeclarationStatus },
): Promise<string | null> {
  if (!source.shipment_id || !REPLACED_STATUSES.includes(source.status)) return null;
  const s = await shipmentOf(trx, source.shipment_id, false);
  return s && DECLARABLE_SHIPMENT_STATUSES.includes(s.status) ? s.id : null;
}

/**
 * The shipment's side of a link or an unlink: a new version, an audit entry, and the event to publish
 * once the transaction commits.
 */
export async function noteShipmentDeclaration(
  trx: Db,
  userId: string,
  shipment: Pick<LinkedShipment, 'id' | 'owner_id'>,
  change: { action: 'declared' | 'updated'; from: string | null; to: string | null },
): Promise<RecordEvent> {
  await trx
    .updateTable('shipments')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: new Date(), updated_by: userId }))
    .where('id', '=', shipment.id)
    .execute();
  await writeAudit(trx, {
    kind: 'shipment',
    id: shipment.id,
    action: change.action,
    actorId: userId,
    changes: [{ field: 'declaration', from: change.from, to: change.to }],
  });
  return { kind: 'shipment', id: shipment.id, action: 'updated', partyIds: [shipment.owner_id] };
}
