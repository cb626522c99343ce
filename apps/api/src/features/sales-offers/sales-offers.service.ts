import {
  BASE_CURRENCY,
  checkOfferRules,
  OFFER_TRANSITIONS,
  type OfferLine,
  type OfferStatus,
  offerSendProblems,
  offerToday,
  type SalesOffer,
  type SalesOfferListQuery,
  type salesOfferCreateSchema,
  salesOfferFieldVisibility,
  type salesOfferTransitionSchema,
  type salesOfferUpdateSchema,
} from '@fvg/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { problems } from '../../http/problem.ts';
import { zodFieldErrors } from '../../http/validation.ts';
import { enqueue, type Jobs } from '../../jobs/jobs.ts';
import { renderOfferPdf } from '../../print/offer-pdf.ts';
import {
  type AuditWrite,
  auditDeletion,
  diff,
  type HistoryReferences,
  historyOf,
  writeAudit,
  writeAudits,
} from '../../records/audit.ts';
import type { RecordEvents } from '../../records/events.ts';
import { columnsOf, pgConstraintProblem, versionedUpdate } from '../../records/mutation.ts';
import { orNotFound, requireStaff, type Scope, scopeOf } from '../../records/scope.ts';
import { redact } from '../../records/visibility.ts';
import { readCompany, takeSeriesNumber } from '../company/company.service.ts';
import { documentsRepository } from '../documents/documents.repository.ts';
import { type FileStore, newStorageKey } from '../documents/storage.ts';
import { toColumns as dossierColumns, insertDossier } from '../dossiers/dossiers.service.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { SessionUser } from '../users/users.repository.ts';
import { type SalesOfferRow, salesOffersRepository, toListItem } from './sales-offers.repository.ts';

type OfferCreate = z.output<typeof salesOfferCreateSchema>;
type OfferUpdate = z.output<typeof salesOfferUpdateSchema>;
type OfferTransition = z.output<typeof salesOfferTransitionSchema>;

/** API field → column; the audit trail records API field names. */
const COLUMNS = columnsOf([
  'customerId',
  'contactName',
  'contactEmail',
  'validUntil',
  'originLocode',
  'destinationLocode',
  'mode',
  'incoterm',
  'incotermPlace',
  'dossierType',
  'cargoDescription',
  'packages',
  'packageType',
  'grossWeightKg',
  'volumeM3',
  'notes',
]);
type Field = keyof typeof COLUMNS;
const FIELDS = Object.keys(COLUMNS) as Field[];
/** History fields: the header, and the lines as one readable value each. */
const HISTORY_FIELDS = [...FIELDS, 'lines'];

const OFFER_REFERENCES: HistoryReferences = { customerId: 'party' };

const REFERENCES = {
  sales_offers_customer_id_fkey: { field: 'customerId', message: 'No such party' },
};

function fieldsOf(r: SalesOfferRow): Record<Field, unknown> {
  const out = {} as Record<Field, unknown>;
  for (const f of FIELDS) out[f] = (r as unknown as Record<string, unknown>)[COLUMNS[f]];
  return out;
}

function toColumns(input: Partial<Record<Field, unknown>>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of FIELDS) if (input[f] !== undefined) row[COLUMNS[f]] = input[f];
  return row;
}

/** A decimal without trailing zeros (`185.0000` → `185`), so stored and typed values read alike. */
const plain = (d: string) => (d.includes('.') ? d.replace(/\.?0+$/, '') : d);

/** A line as the history shows it: `FREIGHT 2 XCN × 1250.5 EUR (S 21)`. */
function lineText(l: {
  chargeCode: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  currency: string;
  vatCode: string;
  vatRate: string | null;
}): string {
  const vat = l.vatRate === null ? l.vatCode : `${l.vatCode} ${plain(l.vatRate)}`;
  return `${l.chargeCode} ${plain(l.quantity)} ${l.unit} × ${plain(l.unitPrice)} ${l.currency} (${vat})`;
}

export function allowedTransitions(user: SessionUser, status: OfferStatus): OfferStatus[] {
  if (user.role === 'customer') return status === 'sent' ? ['accepted', 'rejected'] : [];
  return [...OFFER_TRANSITIONS[status]];
}

/** The PDF is the customer's document, whoever prints it: it shows what their portal shows, never the notes. */
function customerView(offer: SalesOffer): SalesOffer {
  return redact({ all: false, partyId: offer.customer.id }, salesOfferFieldVisibility, offer);
}

/** `20 Nov 2026`: how the problem of a late acceptance names the day. */
function dayText(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * A new draft: its number from the offer series, its row, lines and history, in the caller's
 * transaction (a failed create uses no number). `at` dates it (the demo company's past).
 */
export async function insertOfferIn(
  trx: Db,
  actorId: string,
  input: OfferCreate,
  at?: Date,
): Promise<{ id: string; number: string }> {
  const { lines, ...fields } = input;
  const when = at ?? new Date();
  const { number } = await takeSeriesNumber(trx, 'offer', when.getUTCFullYear());
  const r = salesOffersRepository(trx);
  const row = await r.insert({
    ...toColumns(fields),
    number,
    status: 'draft',
    created_by: actorId,
    updated_by: actorId,
    ...(at ? { created_at: at, updated_at: at } : {}),
  });
  await r.replaceLines(row.id, lines);
  await writeAudit(trx, {
    kind: 'offer',
    id: row.id,
    action: 'created',
    actorId,
    changes: diff({}, { ...fields, lines: lines.map(lineText) }, HISTORY_FIELDS),
    ...(at ? { at } : {}),
  });
  return row;
}

/** The new status (409 on a stale version) and its history entry, in the caller's transaction. */
export async function setOfferStatusIn(
  trx: Db,
  actorId: string,
  before: SalesOfferRow,
  version: number,
  to: OfferStatus,
  values: Record<string, unknown> = {},
  extra: AuditWrite['changes'] = [],
  at?: Date,
) {
  await versionedUpdate(trx, {
    table: 'sales_offers',
    id: before.id,
    version,
    values: { status: to, ...values },
    actorId,
    what: 'offer',
  });
  await writeAudit(trx, {
    kind: 'offer',
    id: before.id,
    action: 'status changed',
    actorId,
    changes: [{ field: 'status', from: before.status, to }, ...extra],
    ...(at ? { at } : {}),
  });
}

/**
 * The dossier an accepted offer becomes, in the caller's transaction (which holds the offer's row
 * lock): booked, with the offer's route, mode, Incoterms and cargo, every line as a revenue charge,
 * handled by the staff member who accepts it or else by the offer's author; then the offer is
 * accepted and linked. The API and the demo company accept through here.
 */
export async function acceptOfferIn(
  trx: Db,
  actor: { id: string; role: string },
  before: SalesOfferRow,
  version: number,
  at?: Date,
): Promise<{ id: string; number: string }> {
  const lines = await salesOffersRepository(trx).lines(before.id);
  const author = before.created_by
    ? await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', before.created_by)
        .where('role', 'in', ['admin', 'staff'])
        .where('active', '=', true)
        .executeTakeFirst()
    : undefined;
  const fields = {
    type: before.dossier_type,
    mode: before.mode,
    customerId: before.customer_id,
    incoterm: before.incoterm,
    incotermPlace: before.incoterm_place,
    originLocode: before.origin_locode,
    destinationLocode: before.destination_locode,
    // The customer's own reference stays theirs to give (issue 27 item 4): the dossier links its offer.
    customerReference: null,
    cargoDescription: before.cargo_description,
    packages: before.packages,
    packageType: before.package_type,
    grossWeightKg: before.gross_weight_kg,
    volumeM3: before.volume_m3,
    // A booked dossier has someone handling it (the booking confirmation asks for one too).
    handlerId: actor.role === 'customer' ? (author?.id ?? null) : actor.id,
    containers: [],
  };
  const dossier = await insertDossier(trx, {
    actorId: actor.id,
    values: dossierColumns(fields),
    status: 'booked',
    audit: fields,
    charges: lines.map((l) => ({
      kind: 'revenue' as const,
      chargeCode: l.chargeCode,
      // Its units too: the invoice bills "2 × container", not one lump sum (issue 27 item 4).
      quantity: l.quantity,
      unit: l.unit,
      unitPrice: l.unitPrice,
      description: l.description,
      partyId: null,
      amount: l.lineNet,
      currency: l.currency,
      exchangeRate: l.currency === BASE_CURRENCY ? '1' : l.exchangeRate,
    })),
    action: `created from offer ${before.number}`,
  });
  await setOfferStatusIn(
    trx,
    actor.id,
    before,
    version,
    'accepted',
    { dossier_id: dossier.id, decided_at: at ?? new Date(), decided_by: actor.id },
    [{ field: 'dossier', from: null, to: dossier.number }],
    at,
  );
  return dossier;
}

export function salesOffersService(
  db: Db,
  deps: { events: RecordEvents; mailer: Mailer; jobs: Jobs; store: FileStore },
) {
  const { events, mailer, jobs, store } = deps;
  const repo = salesOffersRepository(db);

  async function rowOr404(scope: Scope, idOrNumber: string, executor: Db = db, lock = false) {
    return orNotFound(await salesOffersRepository(executor).find(scope, idOrNumber, lock), 'offer');
  }

  async function toOffer(
    user: SessionUser | null,
    row: SalesOfferRow,
    executor: Db = db,
  ): Promise<SalesOffer> {
    const scope: Scope = user ? scopeOf(user) : { all: true };
    const lines = await salesOffersRepository(executor).lines(row.id);
    return redact(scope, salesOfferFieldVisibility, {
      ...toListItem(row),
      contactEmail: row.contact_email,
      incoterm: row.incoterm,
      incotermPlace: row.incoterm_place,
      dossierType: row.dossier_type,
      cargoDescription: row.cargo_description,
      packages: row.packages,
      packageType: row.package_type,
      grossWeightKg: row.gross_weight_kg,
      volumeM3: row.volume_m3,
      notes: row.notes,
      lines,
      sentAt: row.sent_at?.toISOString() ?? null,
      decidedAt: row.decided_at?.toISOString() ?? null,
      version: row.version,
      createdBy:
        row.created_by && row.created_by_name ? { id: row.created_by, name: row.created_by_name } : null,
      allowedTransitions: user ? allowedTransitions(user, row.status) : [],
    });
  }

  /** Staff always hear of an offer; its customer only once it is sent (drafts are not theirs to see). */
  function announce(
    action: 'created' | 'updated' | 'deleted',
    row: { id: string; customer_id: string; status: string },
  ) {
    events.publish({
      kind: 'offer',
      id: row.id,
      action,
      ...(row.status === 'draft' ? {} : { partyIds: [row.customer_id] }),
    });
  }

  async function detail(user: SessionUser, id: string) {
    return toOffer(user, await rowOr404({ all: true }, id));
  }

  /**
   * Accepting, in one transaction under the offer's row lock: still `sent`, still valid (a late accept
   * makes it expired and answers 409), the dossier created booked with every line as revenue, linked.
   * A second accept waits for the lock and then finds the offer accepted: one dossier, whatever races.
   */
  async function accept(user: SessionUser, idOrNumber: string, version: number): Promise<string> {
    const outcome = await inTransaction(db, async (trx) => {
      const before = await rowOr404(scopeOf(user), idOrNumber, trx, true);
      if (before.status === 'sent' && before.valid_until < offerToday()) {
        await trx
          .updateTable('sales_offers')
          .set((eb) => ({ status: 'expired', version: eb('version', '+', 1), updated_at: new Date() }))
          .where('id', '=', before.id)
          .execute();
        await writeAudit(trx, {
          kind: 'offer',
          id: before.id,
          action: 'expired',
          actorId: null,
          changes: [{ field: 'status', from: 'sent', to: 'expired' }],
        });
        return { expired: before };
      }
      checkAllowed(user, before, 'accepted');
      const dossier = await acceptOfferIn(trx, user, before, version);
      return { accepted: before, dossier };
    });
    if ('expired' in outcome && outcome.expired) {
      announce('updated', { ...outcome.expired, status: 'expired' });
      throw problems.conflict(`This offer expired on ${dayText(outcome.expired.valid_until)}.`, [
        { field: 'validUntil', message: `Valid until ${outcome.expired.valid_until} has passed` },
      ]);
    }
    const { accepted, dossier } = outcome as { accepted: SalesOfferRow; dossier: { id: string } };
    events.publish({ kind: 'dossier', id: dossier.id, action: 'created', partyIds: [accepted.customer_id] });
    announce('updated', accepted);
    return accepted.id;
  }

  function checkAllowed(user: SessionUser, before: SalesOfferRow, to: OfferStatus) {
    const allowed = allowedTransitions(user, before.status);
    if (!allowed.includes(to))
      throw problems.conflict(
        `An offer in status ${before.status} cannot move to ${to}${allowed.length ? `; allowed: ${allowed.join(', ')}` : ''}.`,
        [{ field: 'to', message: `Not allowed from ${before.status}` }],
      );
  }

  /**
   * The `offer.send` job: the PDF stored as a document of the offer and mailed to its contact. It may
   * run twice (ADR 0027): under the offer's row lock, an offer that has its document already is done.
   */
  async function sendJob(offerId: string): Promise<void> {
    const row = await repo.find({ all: true }, offerId);
    // Cancelled before the job ran: the customer is not sent what no longer stands.
    if (!row || row.status === 'draft' || row.status === 'cancelled' || !row.contact_email) return;
    const company = await readCompany(db);
    const bytes = await renderOfferPdf(customerView(await toOffer(null, row)), company);
    const key = newStorageKey(await documentsRepository(db).namespace());
    // The file first, then its row (as an upload does): a run that dies in between leaves only a file the sweep removes.
    const put = await store.put(key, [bytes], { maxBytes: bytes.length });
    const stored = await inTransaction(db, async (trx) => {
      await sql`select 1 from sales_offers where id = ${offerId} for update`.execute(trx);
      const existing = await trx
        .selectFrom('documents')
        .select('id')
        .where('record_type', '=', 'offer')
        .where('record_id', '=', offerId)
        .executeTakeFirst();
      if (existing) return false;
      const document = await documentsRepository(trx).insert({
        record_type: 'offer',
        record_id: offerId,
        dossier_id: null,
        storage_key: key,
        file_name: `${row.number}.pdf`,
        content_type: 'application/pdf',
        size_bytes: put.size,
        sha256: put.sha256,
        document_type: 'sales_offer',
        visible_to_customer: true,
        uploaded_by: row.created_by,
        updated_by: row.created_by,
      });
      await mailer.queue(
        {
          to: row.contact_email as string,
          subject: `Offer ${row.number} from ${company.legalName}`,
          text: [
            `Dear ${row.contact_name ?? row.customer_name},`,
            '',
            `Please find our offer ${row.number} attached, valid until ${dayText(row.valid_until)}.`,
            'You can accept or reject it in your portal.',
            '',
            company.legalName,
          ].join('\n'),
          attachments: [
            { fileName: `${row.number}.pdf`, contentType: 'application/pdf', documentId: document.id },
          ],
        },
        trx,
      );
      return true;
    });
    if (!stored) await store.delete(key);
  }

  /** The `offers.expire` job: every sent offer past its valid-until becomes expired, with its history. */
  async function expire(now: Date = new Date()): Promise<number> {
    const expired = await inTransaction(db, async (trx) => {
      const rows = await trx
        .updateTable('sales_offers')
        .set((eb) => ({ status: 'expired', version: eb('version', '+', 1), updated_at: new Date() }))
        .where('status', '=', 'sent')
        .where('valid_until', '<', offerToday(now))
        .returning(['id', 'customer_id'])
        .execute();
      await writeAudits(
        trx,
        rows.map((r) => ({
          kind: 'offer',
          id: r.id,
          action: 'expired',
          actorId: null,
          changes: [{ field: 'status', from: 'sent', to: 'expired' }],
        })),
      );
      return rows;
    });
    for (const r of expired) announce('updated', { ...r, status: 'expired' });
    return expired.length;
  }

  jobs.register('offer.send', (payload) => sendJob(payload.offerId));
  jobs.register('offers.expire', async () => {
    await expire();
  });
  jobs.schedule('offers.expire', '*/5 * * * *');

  async function get(user: SessionUser, idOrNumber: string) {
    return toOffer(user, await rowOr404(scopeOf(user), idOrNumber));
  }

  return {
    list: (user: SessionUser, query: SalesOfferListQuery) => repo.list(scopeOf(user), query),
    all: (user: SessionUser, query: SalesOfferListQuery) => repo.all(scopeOf(user), query),
    get,

    async pdf(user: SessionUser, idOrNumber: string): Promise<{ fileName: string; bytes: Buffer }> {
      const offer = customerView(await get(user, idOrNumber));
      return { fileName: `${offer.number}.pdf`, bytes: await renderOfferPdf(offer, await readCompany(db)) };
    },

    /** Numbering, insert, lines and history in one transaction: a failed create uses no number. */
    async create(user: SessionUser, input: OfferCreate): Promise<SalesOffer> {
      requireStaff(user);
      const created = await inTransaction(db, (trx) => insertOfferIn(trx, user.id, input)).catch(
        (e: unknown) => pgConstraintProblem(e, REFERENCES),
      );
      const row = await rowOr404({ all: true }, created.id);
      announce('created', row);
      return toOffer(user, row);
    },

    /** Drafts only; `lines`, when sent, replace every line. */
    async update(user: SessionUser, idOrNumber: string, input: OfferUpdate): Promise<SalesOffer> {
      const before = await rowOr404(scopeOf(user), idOrNumber);
      requireStaff(user);
      if (before.status !== 'draft')
        throw problems.conflict(`A ${before.status} offer cannot be edited; only drafts can.`);
      const { version, lines, ...changes } = input;
      // The cross-field rules hold for the offer as it will be, not just for the fields sent.
      const merged = { mode: before.mode, incoterm: before.incoterm, ...changes } as Parameters<
        typeof checkOfferRules
      >[0];
      delete merged.validUntil;
      const check = z
        .any()
        .superRefine((v, ctx) => checkOfferRules(v, ctx))
        .safeParse(merged);
      if (!check.success) throw problems.validation(zodFieldErrors(check.error));
      const oldLines = lines ? await repo.lines(before.id) : [];
      await inTransaction(db, async (trx) => {
        await versionedUpdate(trx, {
          table: 'sales_offers',
          id: before.id,
          version,
          values: toColumns(changes),
          actorId: user.id,
          what: 'offer',
        });
        if (lines) await salesOffersRepository(trx).replaceLines(before.id, lines);
        await writeAudit(trx, {
          kind: 'offer',
          id: before.id,
          action: 'updated',
          actorId: user.id,
          changes: diff(
            { ...fieldsOf(before), lines: oldLines.map(lineText) },
            { ...changes, ...(lines ? { lines: lines.map(lineText) } : {}) },
            HISTORY_FIELDS,
          ),
        });
      }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
      const row = await rowOr404({ all: true }, before.id);
      announce('updated', row);
      return toOffer(user, row);
    },

    async remove(user: SessionUser, idOrNumber: string): Promise<void> {
      const before = await rowOr404(scopeOf(user), idOrNumber);
      requireStaff(user);
      if (before.status !== 'draft')
        throw problems.conflict(`A ${before.status} offer cannot be deleted; cancel it instead.`);
      await inTransaction(db, async (trx) => {
        await salesOffersRepository(trx).remove(before.id);
        await auditDeletion(trx, {
          kind: 'offer',
          id: before.id,
          actorId: user.id,
          field: 'number',
          was: before.number,
        });
      });
      announce('deleted', before);
    },

    async transition(user: SessionUser, idOrNumber: string, input: OfferTransition): Promise<SalesOffer> {
      const { to, version } = input;
      if (to === 'accepted') return detail(user, await accept(user, idOrNumber, version));
      const before = await rowOr404(scopeOf(user), idOrNumber);
      checkAllowed(user, before, to);
      if (to === 'sent') {
        const lines = await repo.lines(before.id);
        const missing = offerSendProblems({
          lines,
          contactEmail: before.contact_email,
          validUntil: before.valid_until,
        });
        if (missing.length) throw problems.validation(missing, 'The offer cannot be sent yet.');
      }
      await inTransaction(db, async (trx) => {
        const now = new Date();
        const values =
          to === 'sent'
            ? { sent_at: now }
            : to === 'rejected'
              ? { decided_at: now, decided_by: user.id }
              : {};
        await setOfferStatusIn(trx, user.id, before, version, to, values);
        // The mail goes with the commit, or not at all.
        if (to === 'sent')
          await enqueue(trx, 'offer.send', { offerId: before.id }, { jobKey: `offer.send:${before.id}` });
      });
      const row = await rowOr404({ all: true }, before.id);
      announce('updated', row);
      return toOffer(user, row);
    },

    /** A customer's history starts when the offer was sent to them: the drafting is the forwarder's. */
    async history(user: SessionUser, idOrNumber: string) {
      const row = await rowOr404(scopeOf(user), idOrNumber);
      const scope = scopeOf(user);
      const entries = await historyOf(
        db,
        'offer',
        row.id,
        { scope, visibility: salesOfferFieldVisibility },
        OFFER_REFERENCES,
      );
      if (scope.all) return entries;
      const sent = entries.findIndex((e) => e.changes.some((c) => c.field === 'status' && c.to === 'sent'));
      return sent < 0 ? [] : entries.slice(0, sent + 1);
    },

    /** For tests and the demo: the jobs' work, without the queue. */
    sendJob,
    expire,
  };
}
export type SalesOffersService = ReturnType<typeof salesOffersService>;

export type { OfferLine };
