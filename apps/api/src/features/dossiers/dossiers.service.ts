import {
  type bookingRequestSchema,
  type chargeInputSchema,
  type chargesUpdateSchema,
  checkDossierRules,
  DOSSIER_TRANSITIONS,
  type Dossier,
  type DossierListQuery,
  type DossierStatus,
  type DossierTransition,
  type DossierTransitionResult,
  type dossierCreateSchema,
  dossierFieldVisibility,
  type dossierUpdateSchema,
  transitionFactProblems,
  transitionFactsOf,
  transitionFactWarnings,
} from '@fvg/contracts';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { problems } from '../../http/problem.ts';
import { zodFieldErrors } from '../../http/validation.ts';
import {
  type AuditWrite,
  auditDeletion,
  diff,
  type HistoryReferences,
  historyOf,
  writeAudit,
} from '../../records/audit.ts';
import type { RecordEvents } from '../../records/events.ts';
import { columnsOf, pgConstraintProblem, versionedUpdate } from '../../records/mutation.ts';
import { orNotFound, requireAdmin, requireStaff, type Scope, scopeOf } from '../../records/scope.ts';
import { canSee, redact } from '../../records/visibility.ts';
import { type NotificationBus, newSignals } from '../notifications/notification-bus.ts';
import {
  insertNotifications,
  type NotificationDelivery,
  recipients,
} from '../notifications/notifications.repository.ts';
import type { SessionUser } from '../users/users.repository.ts';
import { type DossierRow, dossiersRepository, toListItem } from './dossiers.repository.ts';

type DossierCreate = z.output<typeof dossierCreateSchema>;
type DossierUpdate = z.output<typeof dossierUpdateSchema>;
type BookingRequest = z.output<typeof bookingRequestSchema>;
type ChargesUpdate = z.output<typeof chargesUpdateSchema>;

/** API field → column; the audit trail records API field names. */
const COLUMNS = columnsOf([
  'type',
  'mode',
  'customerId',
  'consignorId',
  'consigneeId',
  'notifyPartyId',
  'incoterm',
  'incotermPlace',
  'originLocode',
  'destinationLocode',
  'etd',
  'eta',
  'atd',
  'ata',
  'customerReference',
  'bookingNumber',
  'masterBl',
  'houseBl',
  'cmrNumber',
  'cargoDescription',
  'packages',
  'packageType',
  'grossWeightKg',
  'volumeM3',
  'chargeableWeightKg',
  'handlerId',
  'containers',
]);
type Field = keyof typeof COLUMNS;
const FIELDS = Object.keys(COLUMNS) as Field[];

export { FIELDS as DOSSIER_FIELDS };

/** The fields of a dossier's history that hold ids: they read as names (records/audit.ts). */
const DOSSIER_REFERENCES: HistoryReferences = {
  customerId: 'party',
  consignorId: 'party',
  consigneeId: 'party',
  notifyPartyId: 'party',
  handlerId: 'user',
};

/** The fields of a stored dossier in API terms, for diffs and merged validation. */
function fieldsOf(r: DossierRow): Record<Field, unknown> {
  const out = {} as Record<Field, unknown>;
  for (const f of FIELDS) out[f] = (r as unknown as Record<string, unknown>)[COLUMNS[f]];
  return out;
}

/**
 * A dossier's customer reference is its customer's own (their order number): when the dossier moves to
 * another customer, the old customer's reference does not go along. Unless the same change gives a new
 * one, it is cleared, and the history says so (the one customer-change path, `update`; migration 0035's
 * trigger clears it for any other writer).
 */
export function referenceOnMove<T extends { customerId?: unknown; customerReference?: unknown }>(
  before: Pick<DossierRow, 'customer_id' | 'customer_reference'>,
  changes: T,
): T {
  const moving = changes.customerId !== undefined && changes.customerId !== before.customer_id;
  if (!moving || before.customer_reference === null) return changes;
  const given = changes.customerReference;
  if (given !== undefined && given !== before.customer_reference) return changes;
  return { ...changes, customerReference: null };
}

export function toColumns(input: Partial<Record<Field, unknown>>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const v = input[f];
    if (v === undefined) continue;
    if (f === 'containers') {
      const containers = (v ?? []) as { number: string; sizeType?: string | null; seals?: string[] }[];
      row.containers = JSON.stringify(
        containers.map((c) => ({ number: c.number, sizeType: c.sizeType ?? null, seals: c.seals ?? [] })),
      );
      row.container_numbers = containers.map((c) => c.number);
    } else row[COLUMNS[f]] = v;
  }
  return row;
}

const REFERENCES = {
  dossiers_customer_id_fkey: { field: 'customerId', message: 'No such party' },
  dossiers_consignor_id_fkey: { field: 'consignorId', message: 'No such party' },
  dossiers_consignee_id_fkey: { field: 'consigneeId', message: 'No such party' },
  dossiers_notify_party_id_fkey: { field: 'notifyPartyId', message: 'No such party' },
  dossiers_handler_id_fkey: { field: 'handlerId', message: 'No such user' },
  dossier_charges_party_id_fkey: { field: 'charges', message: 'A charge names a party that does not exist' },
};

export function allowedTransitions(user: SessionUser, status: DossierStatus): DossierStatus[] {
  if (user.role === 'customer') return status === 'requested' ? ['cancelled'] : [];
  return [...DOSSIER_TRANSITIONS[status]];
}

/** Staff hear of a customer's booking request (ADR 0024), in the transaction that stores it. */
async function notifyBookingRequest(
  trx: Db,
  user: SessionUser,
  row: { id: string; number: string },
  values: Record<string, unknown>,
): Promise<NotificationDelivery[]> {
  const party = await trx
    .selectFrom('parties')
    .select('name')
    .where('id', '=', String(values.customer_id))
    .executeTakeFirst();
  // Words, not codes: 'a sea import', 'a road cross-trade'.
  const kind = `${values.mode} ${values.type === 'crosstrade' ? 'cross-trade' : values.type}`;
  const route = [values.origin_locode, values.destination_locode].filter(Boolean).join(' → ');
  return insertNotifications(
    trx,
    recipients.staff(),
    {
      kind: 'booking-requested',
      title: `Booking request ${row.number}`,
      body: `${party?.name ?? user.name} asks to book ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}${route ? ` (${route})` : ''}.`,
      link: `/dossiers/${row.number}`,
      dossierId: row.id,
    },
    user.id,
  );
}

/**
 * A new dossier's number, row and history in the caller's transaction: the one way a dossier comes
 * to be, for the dossier routes and for an accepted sales offer (whose transaction creates it, with
 * the offer's lines as revenue charges). The caller announces it once the transaction commits.
 */
export async function insertDossier(
  trx: Db,
  opts: {
    actorId: string;
    /** Columns, as `toColumns` makes them. */
    values: Record<string, unknown>;
    status: DossierStatus;
    /** The fields as the history records them (API names). */
    audit: Record<string, unknown>;
    /** Job-costing lines it starts with. */
    charges?: readonly z.output<typeof chargeInputSchema>[];
    /** The history entry's action; `created` (`booking requested` for a request) unless given. */
    action?: string;
  },
): Promise<{ id: string; number: string }> {
  const r = dossiersRepository(trx);
  const number = await r.nextNumber(new Date().getUTCFullYear());
  const row = await r.insert({
    ...opts.values,
    number,
    status: opts.status,
    created_by: opts.actorId,
    updated_by: opts.actorId,
  });
  await writeAudit(trx, {
    kind: 'dossier',
    id: row.id,
    action: opts.action ?? (opts.status === 'requested' ? 'booking requested' : 'created'),
    actorId: opts.actorId,
    changes: diff({}, opts.audit, FIELDS),
  });
  if (opts.charges?.length) {
    const totals = await r.replaceCharges(row.id, opts.charges);
    await trx
      .updateTable('dossiers')
      .set({ cost_total: totals.cost, revenue_total: totals.revenue })
      .where('id', '=', row.id)
      .execute();
    await writeAudit(trx, {
      kind: 'dossier',
      id: row.id,
      action: 'charges changed',
      actorId: opts.actorId,
      changes: [
        {
          field: 'charges',
          from: [],
          to: opts.charges.map((c) => `${c.kind} ${c.chargeCode} ${c.amount} ${c.currency}`),
        },
        { field: 'revenueTotal', from: '0.00', to: totals.revenue },
      ],
    });
  }
  return row;
}

export function dossiersService(db: Db, events: RecordEvents, notices: NotificationBus) {
  const repo = dossiersRepository(db);

  async function rowOr404(scope: Scope, idOrNumber: string): Promise<DossierRow> {
    return orNotFound(await repo.find(scope, idOrNumber), 'dossier');
  }

  /** The dossier's new columns (409 on a stale version) and its history entry, in one transaction. */
  async function saveWithHistory(
    user: SessionUser,
    before: DossierRow,
    version: number,
    values: Record<string, unknown>,
    entry: Pick<AuditWrite, 'action' | 'changes'>,
  ): Promise<void> {
    await inTransaction(db, async (trx) => {
      await versionedUpdate(trx, {
        table: 'dossiers',
        id: before.id,
        version,
        values,
        actorId: user.id,
        what: 'dossier',
      });
      await writeAudit(trx, { kind: 'dossier', id: before.id, actorId: user.id, ...entry });
    }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
  }

  async function detail(user: SessionUser, row: DossierRow): Promise<Dossier> {
    const scope = scopeOf(user);
    const [charges, refs] = await Promise.all([
      canSee(scope, dossierFieldVisibility, 'charges') ? repo.charges(row.id) : Promise.resolve([]),
      repo.partyRefs([row.consignor_id, row.consignee_id, row.notify_party_id]),
    ]);
    const ref = (id: string | null) => (id ? (refs.get(id) ?? null) : null);
    return redact(scope, dossierFieldVisibility, {
      ...toListItem(row),
      consignor: ref(row.consignor_id),
      consignee: ref(row.consignee_id),
      notifyParty: ref(row.notify_party_id),
      incoterm: row.incoterm,
      incotermPlace: row.incoterm_place,
      atd: row.atd,
      ata: row.ata,
      bookingNumber: row.booking_number,
      houseBl: row.house_bl,
      cmrNumber: row.cmr_number,
      cargoDescription: row.cargo_description,
      packages: row.packages,
      packageType: row.package_type,
      grossWeightKg: row.gross_weight_kg,
      volumeM3: row.volume_m3,
      chargeableWeightKg: row.chargeable_weight_kg,
      containers: row.containers,
      charges,
      costTotal: row.cost_total,
      revenueTotal: row.revenue_total,
      version: row.version,
      createdAt: row.created_at.toISOString(),
      createdBy:
        row.created_by && row.created_by_name ? { id: row.created_by, name: row.created_by_name } : null,
      offer: row.offer ?? null,
      allowedTransitions: allowedTransitions(user, row.status),
    });
  }

  async function checkHandler(handlerId: string | null | undefined) {
    if (handlerId && !(await repo.isStaffUser(handlerId))) {
      throw problems.validation([
        { field: 'handlerId', message: 'The handler must be an active staff user' },
      ]);
    }
  }

  /** With `newCustomerId` (a reassignment) the old party hears of it too, and loses the dossier's room. */
  function announce(
    action: 'created' | 'updated' | 'deleted',
    row: { id: string; customer_id: string },
    newCustomerId?: string,
  ) {
    const moved = newCustomerId && newCustomerId !== row.customer_id ? newCustomerId : undefined;
    events.publish({
      kind: 'dossier',
      id: row.id,
      action,
      partyIds: moved ? [row.customer_id, moved] : [row.customer_id],
      ...(moved ? { newCustomerId: moved } : {}),
    });
  }

  /** Numbering, insert and audit in one transaction: a failed create leaves no number used. */
  async function insert(
    user: SessionUser,
    values: Record<string, unknown>,
    status: DossierStatus,
    audit: Record<string, unknown>,
  ) {
    const created = await inTransaction(db, async (trx) => {
      const row = await insertDossier(trx, { actorId: user.id, values, status, audit });
      const deliveries = status === 'requested' ? await notifyBookingRequest(trx, user, row, values) : [];
      return { id: row.id, deliveries };
    }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
    notices.publish(newSignals(created.deliveries));
    const row = await rowOr404({ all: true }, created.id);
    announce('created', row);
    return detail(user, row);
  }

  return {
    async list(user: SessionUser, query: DossierListQuery) {
      const page = await repo.list(scopeOf(user), query);
      const unread = await repo.unreadMessages(
        scopeOf(user),
        user.id,
        page.items.map((d) => d.id),
      );
      return { ...page, items: page.items.map((d) => ({ ...d, unreadMessages: unread.get(d.id) ?? 0 })) };
    },
    all: (user: SessionUser, query: DossierListQuery) => repo.all(scopeOf(user), query),
    async get(user: SessionUser, idOrNumber: string) {
      return detail(user, await rowOr404(scopeOf(user), idOrNumber));
    },

    async create(user: SessionUser, input: DossierCreate): Promise<Dossier> {
      requireStaff(user);
      await checkHandler(input.handlerId);
      const fields = { ...input, containers: input.containers ?? [] };
      return insert(user, toColumns(fields), 'booked', fields);
    },

    /** A customer's booking request: status `requested`, for their own party only. */
    async book(user: SessionUser, input: BookingRequest): Promise<Dossier> {
      if (user.role !== 'customer' || !user.party_id)
        throw problems.forbidden('Booking requests are made by customers.');
      const fields = { ...input, containers: input.containers ?? [], customerId: user.party_id };
      return insert(user, toColumns(fields), 'requested', fields);
    },

    async update(user: SessionUser, idOrNumber: string, input: DossierUpdate): Promise<Dossier> {
      const before = await rowOr404(scopeOf(user), idOrNumber);
      requireStaff(user);
      if (before.status === 'closed' || before.status === 'cancelled') {
        throw problems.conflict(`A ${before.status} dossier cannot be edited.`);
      }
      const { version, ...sent } = input;
      const changes = referenceOnMove(before, sent);
      // The cross-field rules hold for the record as it will be, not just for the fields sent.
      const merged = { ...fieldsOf(before), ...changes } as Parameters<typeof checkDossierRules>[0];
      const check = z
        .any()
        .superRefine((v, ctx) => checkDossierRules(v, ctx))
        .safeParse(merged);
      if (!check.success) throw problems.validation(zodFieldErrors(check.error));
      await checkHandler(changes.handlerId);
      await saveWithHistory(user, before, version, toColumns(changes), {
        action: 'updated',
        changes: diff(fieldsOf(before), changes, FIELDS),
      });
      announce('updated', before, changes.customerId);
      return detail(user, await rowOr404({ all: true }, before.id));
    },

    /**
     * A status action, with the facts it states (ADR 0022): the handler of a confirmed booking, the
     * actual departure or arrival. They are stored with the status in one transaction and one history
     * entry; a fact that contradicts the plan is accepted and answered with a warning.
     */
    async transition(
      user: SessionUser,
      idOrNumber: string,
      input: DossierTransition,
    ): Promise<DossierTransitionResult> {
      const { to, version } = input;
      const before = await rowOr404(scopeOf(user), idOrNumber);
      if (!allowedTransitions(user, before.status).includes(to)) {
        const allowed = allowedTransitions(user, before.status);
        throw problems.conflict(
          `A dossier in status ${before.status} cannot move to ${to}${allowed.length ? `; allowed: ${allowed.join(', ')}` : ''}.`,
          [{ field: 'to', message: `Not allowed from ${before.status}` }],
        );
      }
      const plan = { etd: before.etd, eta: before.eta, atd: before.atd };
      const factProblems = transitionFactProblems(plan, input);
      if (factProblems.length) throw problems.validation(factProblems);
      await checkHandler(input.handlerId);
      const facts: Partial<Record<'atd' | 'ata' | 'handlerId', string>> = {};
      for (const fact of transitionFactsOf(to)) {
        const value = input[fact];
        if (value !== undefined) facts[fact] = value;
      }
      await saveWithHistory(
        user,
        before,
        version,
        { status: to, ...toColumns(facts) },
        {
          action: 'status changed',
          changes: [{ field: 'status', from: before.status, to }, ...diff(fieldsOf(before), facts, FIELDS)],
        },
      );
      announce('updated', before);
      const dossier = await detail(user, await rowOr404({ all: true }, before.id));
      return { ...dossier, warnings: transitionFactWarnings(plan, input) };
    },

    /** Replaces the job-costing lines; totals and profit in the base currency follow in the same transaction. */
    async setCharges(user: SessionUser, idOrNumber: string, input: ChargesUpdate): Promise<Dossier> {
      const before = await rowOr404(scopeOf(user), idOrNumber);
      requireStaff(user);
      const oldCharges = await repo.charges(before.id);
      await inTransaction(db, async (trx) => {
        const r = dossiersRepository(trx);
        const totals = await r.replaceCharges(before.id, input.charges);
        await versionedUpdate(trx, {
          table: 'dossiers',
          id: before.id,
          version: input.version,
          values: { cost_total: totals.cost, revenue_total: totals.revenue },
          actorId: user.id,
          what: 'dossier',
        });
        const line = (c: { kind: string; chargeCode: string; amount: string; currency: string }) =>
          `${c.kind} ${c.chargeCode} ${c.amount} ${c.currency}`;
        await writeAudit(trx, {
          kind: 'dossier',
          id: before.id,
          action: 'charges changed',
          actorId: user.id,
          changes: [
            { field: 'charges', from: oldCharges.map(line), to: input.charges.map(line) },
            { field: 'costTotal', from: before.cost_total, to: totals.cost },
            { field: 'revenueTotal', from: before.revenue_total, to: totals.revenue },
          ].filter((c) => JSON.stringify(c.from) !== JSON.stringify(c.to)),
        });
      }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
      announce('updated', before);
      return detail(user, await rowOr404({ all: true }, before.id));
    },

    /** Admins delete booking requests and cancelled dossiers only; anything else is history. */
    async remove(user: SessionUser, idOrNumber: string): Promise<void> {
      const before = await rowOr404(scopeOf(user), idOrNumber);
      requireAdmin(user);
      if (before.status !== 'requested' && before.status !== 'cancelled') {
        throw problems.conflict('Only booking requests and cancelled dossiers can be deleted.');
      }
      const declaration = await db
        .selectFrom('declarations')
        .select('lrn')
        .where('dossier_id', '=', before.id)
        .executeTakeFirst();
      if (declaration)
        throw problems.conflict(
          `Customs declaration ${declaration.lrn} belongs to this dossier: a dossier with declarations is not deleted.`,
        );
      await inTransaction(db, async (trx) => {
        await dossiersRepository(trx).remove(before.id);
        await auditDeletion(trx, {
          kind: 'dossier',
          id: before.id,
          actorId: user.id,
          field: 'number',
          was: before.number,
        });
      }).catch((e: unknown) => {
        // A record that names the dossier (an offer, an invoice, a declaration made meanwhile): the foreign key says no.
        if ((e as { code?: string }).code === '23503')
          throw problems.conflict(
            `Other records refer to dossier ${before.number} (an offer, an invoice or a declaration): it is not deleted.`,
          );
        throw e;
      });
      announce('deleted', before);
    },

    async history(user: SessionUser, idOrNumber: string) {
      const row = await rowOr404(scopeOf(user), idOrNumber);
      return historyOf(
        db,
        'dossier',
        row.id,
        { scope: scopeOf(user), visibility: dossierFieldVisibility },
        DOSSIER_REFERENCES,
      );
    },
  };
}
export type DossiersService = ReturnType<typeof dossiersService>;
