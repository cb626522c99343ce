import {
  AMENDABLE_STATUSES,
  type AuditEntry,
  amendmentProblem,
  CATEGORIES_OF_TYPE,
  cancellationProblem,
  DECLARATION_STATUS_LABELS,
  DECLARATION_TYPE_LABELS,
  type Declaration,
  type DeclarationAmend,
  type DeclarationCancel,
  type DeclarationCategory,
  type DeclarationChanges,
  type DeclarationCreateParsed,
  type DeclarationItem,
  type DeclarationItemParsed,
  type DeclarationListQuery,
  type DeclarationMessage,
  type DeclarationUpdateParsed,
  type declarationAmendSchema,
  type declarationCancelSchema,
  declarationContentIssues,
  declarationFieldVisibility,
  type declarationLodgeSchema,
  declarationTotals,
  defaultCategory,
  fitsNumeric,
  itemEstimate,
  lodgingProblems,
  MAX_LRN_LENGTH,
} from '@fvg/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { HttpProblem, problems } from '../../http/problem.ts';
import { auditDeletion, type Change, diff, historyOf, writeAudit } from '../../records/audit.ts';
import type { RecordEvents } from '../../records/events.ts';
import { checkVersion, pgConstraintProblem } from '../../records/mutation.ts';
import { orNotFound, requireStaff, type Scope, scopeOf } from '../../records/scope.ts';
import { readCompany, takeSeriesNumber } from '../company/company.service.ts';
import { customsMonthOf, customsRateOf } from '../company/customs-rates.ts';
import type { SessionUser } from '../users/users.repository.ts';
import {
  companyParty,
  dossierForDeclaration,
  partiesById,
  partiesFor,
  prefillFromDossier,
} from './declarations.prefill.ts';
import {
  type DeclarationFilters,
  type DeclarationRow,
  declarationsRepository,
  findDeclaration,
  HEADER_FIELDS,
  type HeaderField,
  headerOf,
  headerValues,
  itemTotals,
  lodgingContextOf,
  normalParty,
  storedItems,
  toDeclaration,
  trimDecimal,
  writeDeclarationContent,
} from './declarations.repository.ts';
import { checkShipmentLink, inheritedShipment, noteShipmentDeclaration } from './declarations.shipment.ts';
import type { CustomsGateway } from './gateway.ts';

type Lodge = z.output<typeof declarationLodgeSchema>;
type Amend = z.output<typeof declarationAmendSchema>;
type Cancel = z.output<typeof declarationCancelSchema>;

export type { DeclarationAmend, DeclarationCancel };

/** The audit trail's and the hub's name of the record. */
const KIND = 'declaration';

/**
 * Until a real gateway is wired, lodging answers 503 rather than pretend: nothing reaches an
 * authority, and the declaration stays a draft (the transaction rolls back).
 */
export const noCustomsGateway: CustomsGateway = {
  label: 'No customs gateway',
  sandbox: true,
  lodge: unavailable,
  amend: unavailable,
  cancel: unavailable,
};
async function unavailable(): Promise<never> {
  throw new HttpProblem(503, 'Service unavailable', 'No customs gateway configured.');
}

const REFERENCES = {
  declarations_customer_id_fkey: { field: 'customerId', message: 'No such party' },
  declarations_dossier_id_fkey: { field: 'dossierId', message: 'No such dossier' },
  declarations_lrn_key: { field: 'lrn', message: 'This LRN is taken by another declaration' },
  declarations_shipment_id_fkey: { field: 'shipmentId', message: 'No such shipment' },
};

const DECIMALS: Partial<Record<HeaderField, number>> = {
  invoiceTotal: 2,
  exchangeRate: 0,
  guaranteeAmount: 2,
  additionTransportInsurance: 2,
  additionCommissions: 2,
  additionPacking: 2,
  deductionTransportAfterEntry: 2,
  deductionDuties: 2,
};

/** Header input as the history compares it with the stored row (decimals as the row reads them). */
function comparable(input: Partial<Record<HeaderField, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of HEADER_FIELDS) {
    if (!(f in input) || input[f] === undefined) continue;
    const v = input[f];
    const scale = DECIMALS[f];
    if (scale !== undefined && typeof v === 'string') out[f] = trimDecimal(v, scale);
    else if (v && typeof v === 'object' && !Array.isArray(v)) out[f] = normalParty(v);
    else out[f] = v;
  }
  return out;
}

/** An item as the history names it: `1. 8471 30 00 Laptops, 120 kg`. */
function itemAudit(
  i: { commodityCode?: string | null; description?: string | null; grossMassKg?: string | null },
  n: number,
): string {
  const parts = [i.commodityCode ?? '—', i.description ?? ''].filter(Boolean).join(' ');
  return `${n + 1}. ${parts}${i.grossMassKg ? `, ${trimDecimal(i.grossMassKg)} kg` : ''}`;
}

/** A stored item as an item input (what a copy or an amendment starts from). */
function itemInputOf(i: DeclarationItem): DeclarationItemParsed {
  const { id: _id, position: _p, estimate: _e, ...rest } = i;
  return {
    ...rest,
    packageKind: rest.packageKind as DeclarationItemParsed['packageKind'],
    supportingDocuments: rest.supportingDocuments as DeclarationItemParsed['supportingDocuments'],
    previousDocuments: rest.previousDocuments as DeclarationItemParsed['previousDocuments'],
  };
}

const withoutUndefined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

const typeName = (t: Declaration['type']) => DECLARATION_TYPE_LABELS[t].toLowerCase();
const statusName = (s: Declaration['status']) => DECLARATION_STATUS_LABELS[s].toLowerCase();
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

export interface DeclarationsDeps {
  events: RecordEvents;
  /** Where lodging, amendments and cancellations go (the sandbox authority in the shipped app). */
  gateway: CustomsGateway;
}

/**
 * The customs warehouse is gated by cw_access (product.md): a user without it learns nothing of the
 * warehouse through a declaration either, not even that a shipment exists. The one place a declaration
 * names its shipment (`shipment`) is null for them in the record, the list and the export, and the
 * link's history entries leave it out; the shipment's own events go to the cw_access audience only.
 */
export function warehouseGated<T extends { shipment: unknown }>(
  user: Pick<SessionUser, 'cw_access'>,
  d: T,
): T {
  return user.cw_access || d.shipment === null ? d : { ...d, shipment: null };
}

function warehouseGatedHistory(user: Pick<SessionUser, 'cw_access'>, entries: AuditEntry[]): AuditEntry[] {
  if (user.cw_access) return entries;
  return entries.flatMap((e) => {
    const changes = e.changes.filter((c) => c.field !== 'shipment');
    if (changes.length === e.changes.length) return [e];
    return changes.length ? [{ ...e, changes }] : [];
  });
}

export function declarationsService(db: Db, { events, gateway }: DeclarationsDeps) {
  const repo = declarationsRepository(db);

  async function rowOr404(scope: Scope, idOrLrn: string): Promise<DeclarationRow> {
    return orNotFound(await repo.find(scope, idOrLrn), 'declaration');
  }

  /** Customers hear of a declaration once it is theirs to see: lodged. */
  function announce(
    action: 'created' | 'updated' | 'deleted',
    row: Pick<DeclarationRow, 'id' | 'customer_id' | 'status'>,
  ) {
    events.publish({
      kind: KIND,
      id: row.id,
      action,
      partyIds: row.status === 'draft' ? [] : [row.customer_id],
    });
  }

  async function detail(user: SessionUser, row: DeclarationRow): Promise<Declaration> {
    return warehouseGated(user, await toDeclaration(db, scopeOf(user), row));
  }

  /** Locks a declaration for a change within `trx`; 404 out of scope, 403 for customers, 409 on a stale version. */
  async function locked(
    trx: Db,
    user: SessionUser,
    idOrLrn: string,
    version?: number,
  ): Promise<DeclarationRow> {
    const row = orNotFound(await findDeclaration(trx, scopeOf(user), idOrLrn, true), 'declaration');
    requireStaff(user);
    checkVersion('declaration', row.version, version);
    return row;
  }

  function draftOnly(row: DeclarationRow, what: 'edited' | 'deleted' | 'lodged') {
    if (row.status === 'draft') return;
    const then =
      what === 'edited' && AMENDABLE_STATUSES.includes(row.status)
        ? ' Request an amendment instead.'
        : what === 'deleted'
          ? ' It stays in the records with its messages.'
          : '';
    throw problems.conflict(`${row.lrn} is ${statusName(row.status)}: only a draft can be ${what}.${then}`);
  }

  function pendingConflict(row: DeclarationRow) {
    if (!row.pending_request) return;
    throw problems.conflict(
      `${row.lrn} waits for the authority's answer to its ${row.pending_request} request: one request at a time.`,
    );
  }

  /** Format checks that need the stored row (category, currency) besides the body: 400 like the schema's. */
  function contentIssues(
    content: { currency?: unknown; invoiceTotal?: unknown; items?: unknown },
    category: DeclarationCategory,
    prefix = '',
  ) {
    const issues = declarationContentIssues(content, category);
    if (issues.length)
      throw problems.validation(
        issues.map((i) => ({ field: `${prefix}${i.path.join('.')}`, message: i.message })),
      );
  }

  /**
   * What the API computes from the items must fit its columns too (migration 0020): each item's duty,
   * VAT base and VAT (numeric(16,2)), the header's packages (int), gross mass (numeric(16,3)), customs
   * value, duty and VAT (numeric(16,2)). Values that each fit their own column can still overflow
   * these; refused here with a field path (400), before anything is written or sent.
   */
  function computedIssues(
    type: Declaration['type'],
    items: DeclarationItemParsed[] | undefined,
    prefix = '',
  ) {
    if (!items?.length) return;
    const money = (d: string | null | undefined) => d == null || fitsNumeric(d, 16, 2);
    const found: { field: string; message: string }[] = [];
    if (type === 'import')
      items.forEach((i, n) => {
        const e = itemEstimate({
          customsValue: i.customsValue ?? null,
          dutyRate: i.dutyRate ?? null,
          vatRate: i.vatRate ?? null,
          vatCosts: i.vatCosts ?? null,
        });
        if (e && !(money(e.duty) && money(e.vatBase) && money(e.vat)))
          found.push({
            field: `${prefix}items.${n}.customsValue`,
            message: 'The duty and VAT of this item are too large to compute: check the value and the rates',
          });
      });
    if (!found.length) {
      const t = declarationTotals(type, items);
      if (
        t.packages > 2_147_483_647 ||
        !fitsNumeric(t.grossMassKg, 16, 3) ||
        !money(t.customsValue) ||
        !money(t.duty) ||
        !money(t.vat) ||
        !money(t.dutyAndVat)
      )
        found.push({
          field: `${prefix}items`,
          message:
            'The totals of these items (packages, gross mass, customs value, duty or VAT) are too large',
        });
    }
    if (found.length) throw problems.validation(found);
  }

  function notReady(lrn: string, found: { field: string; message: string }[], prefix = ''): never {
    throw problems.unprocessable(
      `${lrn} cannot be sent yet: ${found.length === 1 ? 'one thing is' : `${found.length} things are`} missing or wrong.`,
      found.map((p) => ({ field: `${prefix}${p.field}`, message: p.message })),
    );
  }

  async function insertItems(trx: Db, id: string, type: Declaration['type'], items: DeclarationItemParsed[]) {
    const values = storedItems(id, type, items);
    if (values.length) await trx.insertInto('declaration_items').values(values).execute();
    const totals = await itemTotals(trx, type, id);
    await trx.updateTable('declarations').set(totals).where('id', '=', id).execute();
  }

  /**
   * The series' next LRN that no declaration holds yet: an LRN may be entered by hand, and one the
   * series reaches later would otherwise refuse every new declaration (the number goes back with the
   * rollback). LRNs may have gaps; the numbers skipped stay taken.
   */
  async function seriesLrn(trx: Db): Promise<string> {
    const year = new Date().getUTCFullYear();
    for (let tries = 0; ; tries++) {
      const { number } = await takeSeriesNumber(trx, 'declaration', year);
      if (tries >= 100 || number.length > MAX_LRN_LENGTH) return number;
      const taken = await trx
        .selectFrom('declarations')
        .select('id')
        .where('lrn', '=', number)
        .executeTakeFirst();
      if (!taken) return number;
    }
  }

  async function create(user: SessionUser, input: DeclarationCreateParsed): Promise<string> {
    const { type, category, dossierId, customerId, copyOf, shipmentId, lrn, items, ...header } = input;
    return inTransaction(db, async (trx) => {
      const company = await readCompany(trx);
      let base: Partial<Record<HeaderField, unknown>> = {};
      let baseItems: DeclarationItemParsed[] = [];
      let customer: string;
      let dossier: string | null = dossierId ?? null;
      let cat: DeclarationCategory = category ?? defaultCategory(type);
      let shipment: string | null = shipmentId ?? null;
      if (copyOf) {
        const source = await findDeclaration(trx, { all: true }, copyOf);
        if (!source)
          throw problems.unprocessable('The declaration to copy does not exist.', [
            { field: 'copyOf', message: 'No such declaration' },
          ]);
        if (source.type !== type)
          throw problems.unprocessable(`${source.lrn} is an ${typeName(source.type)} declaration.`, [
            { field: 'type', message: `A copy of ${source.lrn} is an ${typeName(source.type)} declaration` },
          ]);
        base = headerOf(source);
        baseItems = (await repo.items(source.type, source.id)).map(itemInputOf);
        // A copy after a rejection replaces its source for the shipment (issue 23 item 12).
        if (shipmentId === undefined) shipment = await inheritedShipment(trx, source);
        customer = source.customer_id;
        dossier = dossierId === undefined ? source.dossier_id : dossier;
        // A copy is its source's customer's: another party's dossier or customer would show their
        // dossier to this customer, and this declaration's documents to theirs.
        if (customerId && customerId !== customer)
          throw problems.unprocessable(`A copy of ${source.lrn} is for its customer.`, [
            { field: 'customerId', message: `Not the customer of ${source.lrn}` },
          ]);
        if (dossier && dossier !== source.dossier_id) {
          const d = await dossierForDeclaration(trx, dossier);
          if (!d)
            throw problems.unprocessable('No such dossier.', [
              { field: 'dossierId', message: 'No such dossier' },
            ]);
          if (d.customer_id !== customer)
            throw problems.unprocessable(`${d.number} is another customer's dossier.`, [
              { field: 'dossierId', message: `Not a dossier of the customer of ${source.lrn}` },
            ]);
        }
        cat = category ?? source.category;
      } else if (dossierId) {
        const d = await dossierForDeclaration(trx, dossierId);
        if (!d)
          throw problems.unprocessable('No such dossier.', [
            { field: 'dossierId', message: 'No such dossier' },
          ]);
        if (customerId && customerId !== d.customer_id)
          throw problems.unprocessable(`A declaration of ${d.number} is for the dossier's customer.`, [
            { field: 'customerId', message: `Not the customer of dossier ${d.number}` },
          ]);
        customer = d.customer_id;
        const parties = await partiesById(trx, [d.customer_id, d.consignor_id, d.consignee_id]);
        const prefill = prefillFromDossier(type, d);
        base = {
          ...partiesFor(
            type,
            parties.get(d.customer_id) ?? null,
            companyParty(company),
            (d.consignor_id && parties.get(d.consignor_id)) || null,
            (d.consignee_id && parties.get(d.consignee_id)) || null,
          ),
          ...prefill.header,
        };
        baseItems = [prefill.item];
      } else {
        customer = customerId as string;
        const parties = await partiesById(trx, [customer]);
        const party = parties.get(customer);
        if (!party)
          throw problems.unprocessable('No such customer.', [
            { field: 'customerId', message: 'No such party' },
          ]);
        base = partiesFor(type, party, companyParty(company), null, null);
      }
      if (!CATEGORIES_OF_TYPE[type].includes(cat)) cat = defaultCategory(type);
      const linked = shipment
        ? await checkShipmentLink(trx, { shipmentId: shipment, customerId: customer, type })
        : null;
      const merged = { ...base, ...withoutUndefined(header) } as Partial<Record<HeaderField, unknown>>;
      // Status 1: the declarant acts in its own name, so the suggested representative goes.
      if (merged.representativeStatus === '1' && header.representative === undefined)
        merged.representative = null;
      // A draft in another currency starts at the company's customs rate of the month (ADR 0070).
      const currency = typeof merged.currency === 'string' ? merged.currency.toUpperCase() : null;
      if (currency && currency !== 'EUR' && !merged.exchangeRate)
        merged.exchangeRate = (await customsRateOf(trx, currency, customsMonthOf())) ?? merged.exchangeRate;
      const finalItems = items ?? baseItems;
      computedIssues(type, finalItems);
      const finalLrn = lrn ?? (await seriesLrn(trx));
      // Settings refuse such a series, but its counter can still grow past 6 digits; the number
      // taken goes back with the rollback.
      if (finalLrn.length > MAX_LRN_LENGTH)
        throw problems.conflict(
          `The declaration series gives ${finalLrn}, longer than the ${MAX_LRN_LENGTH} characters an LRN may have: shorten the series prefix in the company settings, or enter the LRN.`,
          [{ field: 'lrn', message: `An LRN has at most ${MAX_LRN_LENGTH} characters` }],
        );
      const row = await trx
        .insertInto('declarations')
        .values({
          ...(headerValues(merged) as object),
          type,
          category: cat,
          lrn: finalLrn,
          dossier_id: dossier,
          customer_id: customer,
          shipment_id: linked?.id ?? null,
          created_by: user.id,
          updated_by: user.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertItems(trx, row.id, type, finalItems);
      await writeAudit(trx, {
        kind: KIND,
        id: row.id,
        action: copyOf ? 'copied' : 'created',
        actorId: user.id,
        changes: [
          { field: 'lrn', from: null, to: finalLrn },
          { field: 'type', from: null, to: type },
          { field: 'category', from: null, to: cat },
          { field: 'customerId', from: null, to: customer },
          ...(dossier ? [{ field: 'dossierId', from: null, to: dossier }] : []),
          ...(linked ? [{ field: 'shipment', from: null, to: linked.number }] : []),
          ...diff({}, comparable(merged), HEADER_FIELDS),
          ...(finalItems.length ? [{ field: 'items', from: null, to: finalItems.map(itemAudit) }] : []),
        ],
      });
      if (linked)
        await noteShipmentDeclaration(trx, user.id, linked, { action: 'declared', from: null, to: finalLrn });
      return row.id;
    }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
  }

  /** Marks the row changed by `user` (version, time) after a request, with its audit entry. */
  async function touch(
    trx: Db,
    user: SessionUser,
    row: DeclarationRow,
    values: object,
    action: string,
    changes: Change[],
  ) {
    await trx
      .updateTable('declarations')
      .set((eb) => ({
        ...(values as object),
        version: eb('version', '+', 1),
        updated_at: new Date(),
        updated_by: user.id,
      }))
      .where('id', '=', row.id)
      .execute();
    await writeAudit(trx, { kind: KIND, id: row.id, action, actorId: user.id, changes });
  }

  /** The content an amendment proposes, as a declaration (what the rules check and the gateway sends). */
  function proposedContent(current: Declaration, changes: DeclarationChanges): Declaration {
    const header = withoutUndefined(changes) as Record<string, unknown>;
    const { items, ...rest } = header;
    for (const f of ['declarant', 'representative', 'consignor', 'consignee', 'holder'])
      if (rest[f]) rest[f] = normalParty(rest[f]);
    return {
      ...current,
      ...(rest as Partial<Declaration>),
      items: items
        ? (items as DeclarationItemParsed[]).map((i, n) => ({
            id: '',
            position: n + 1,
            commodityCode: i.commodityCode ?? null,
            description: i.description ?? null,
            countryOfOrigin: i.countryOfOrigin ?? null,
            preference: i.preference ?? null,
            procedureCode: i.procedureCode ?? null,
            additionalProcedureCodes: i.additionalProcedureCodes ?? [],
            valuationMethod: i.valuationMethod ?? null,
            valuationReason: i.valuationReason ?? null,
            supplementaryUnits: i.supplementaryUnits ?? null,
            packages: i.packages ?? null,
            packageKind: i.packageKind ?? null,
            marks: i.marks ?? null,
            grossMassKg: i.grossMassKg ?? null,
            netMassKg: i.netMassKg ?? null,
            invoiceValue: i.invoiceValue ?? null,
            customsValue: i.customsValue ?? null,
            statisticalValue: i.statisticalValue ?? null,
            dutyRate: i.dutyRate ?? null,
            vatRate: i.vatRate ?? null,
            vatCosts: i.vatCosts ?? null,
            containers: i.containers ?? [],
            supportingDocuments: i.supportingDocuments ?? [],
            previousDocuments: i.previousDocuments ?? [],
            estimate: null,
          }))
        : current.items,
    };
  }

  return {
    async list(user: SessionUser, query: DeclarationListQuery) {
      const page = await repo.list(scopeOf(user), query);
      return { ...page, items: page.items.map((d) => warehouseGated(user, d)) };
    },
    async *all(user: SessionUser, query: DeclarationFilters) {
      for await (const batch of repo.all(scopeOf(user), query))
        yield batch.map((d) => warehouseGated(user, d));
    },

    async get(user: SessionUser, idOrLrn: string): Promise<Declaration> {
      return detail(user, await rowOr404(scopeOf(user), idOrLrn));
    },

    async messages(user: SessionUser, idOrLrn: string): Promise<DeclarationMessage[]> {
      const row = await rowOr404(scopeOf(user), idOrLrn);
      return repo.messages(row.id);
    },

    /** A message's NCTS XML as sent (a transit's IE015), for whoever may read the declaration; else 404. */
    async messageXml(
      user: SessionUser,
      idOrLrn: string,
      messageId: string,
    ): Promise<{ lrn: string; xml: string }> {
      const row = await rowOr404(scopeOf(user), idOrLrn);
      const xml = await repo.messageXml(row.id, messageId);
      if (xml === undefined) throw problems.notFound('This message has no XML');
      return { lrn: row.lrn, xml };
    },

    async create(user: SessionUser, input: DeclarationCreateParsed): Promise<Declaration> {
      requireStaff(user);
      const id = await create(user, input);
      const row = await rowOr404({ all: true }, id);
      announce('created', row);
      if (row.shipment_id)
        events.publish({
          kind: 'shipment',
          id: row.shipment_id,
          action: 'updated',
          partyIds: [row.customer_id],
        });
      return detail(user, row);
    },

    async update(user: SessionUser, idOrLrn: string, input: DeclarationUpdateParsed): Promise<Declaration> {
      const { version, items, lrn, category, ...header } = input;
      const id = await inTransaction(db, async (trx) => {
        const row = await locked(trx, user, idOrLrn, version);
        draftOnly(row, 'edited');
        if (category && !CATEGORIES_OF_TYPE[row.type].includes(category))
          throw problems.validation([
            {
              field: 'category',
              message: `An ${typeName(row.type)} declaration is ${CATEGORIES_OF_TYPE[row.type].join(' or ')}`,
            },
          ]);
        contentIssues(
          {
            currency: header.currency !== undefined ? header.currency : row.currency,
            invoiceTotal: header.invoiceTotal !== undefined ? header.invoiceTotal : row.invoice_total,
            items,
          },
          category ?? row.category,
        );
        computedIssues(row.type, items);
        const before = headerOf(row);
        const beforeItems = items ? await declarationsRepository(trx).items(row.type, row.id) : [];
        await writeDeclarationContent(trx, row.id, input, user.id);
        const changes: Change[] = [
          ...(lrn && lrn !== row.lrn ? [{ field: 'lrn', from: row.lrn, to: lrn }] : []),
          ...(category && category !== row.category
            ? [{ field: 'category', from: row.category, to: category }]
            : []),
          ...diff(before, comparable(header as Partial<Record<HeaderField, unknown>>), HEADER_FIELDS),
        ];
        if (items) {
          const from = beforeItems.map((i, n) => itemAudit(i, n));
          const to = items.map(itemAudit);
          if (
            JSON.stringify(from) !== JSON.stringify(to) ||
            JSON.stringify(beforeItems.map(itemInputOf)) !== JSON.stringify(items)
          )
            changes.push({ field: 'items', from, to });
        }
        await writeAudit(trx, { kind: KIND, id: row.id, action: 'updated', actorId: user.id, changes });
        return row.id;
      }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
      const row = await rowOr404({ all: true }, id);
      announce('updated', row);
      return detail(user, row);
    },

    async remove(user: SessionUser, idOrLrn: string): Promise<void> {
      const before = await inTransaction(db, async (trx) => {
        const row = await locked(trx, user, idOrLrn);
        draftOnly(row, 'deleted');
        const docs = await trx
          .selectFrom('documents')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('record_type', '=', 'declaration')
          .where('record_id', '=', row.id)
          .executeTakeFirst();
        if (Number(docs?.n ?? 0) > 0)
          throw problems.conflict(`${row.lrn} has documents attached: delete them first, or keep the draft.`);
        // A draft made for a warehouse shipment (its outbound declaration): the shipment notes that it
        // is gone and may be declared again (ADR 0048).
        const shipments = row.shipment_id ? [{ id: row.shipment_id, owner_id: row.customer_id }] : [];
        for (const s of shipments)
          await noteShipmentDeclaration(trx, user.id, s, { action: 'updated', from: row.lrn, to: null });
        await trx.deleteFrom('declarations').where('id', '=', row.id).execute();
        await auditDeletion(trx, { kind: KIND, id: row.id, actorId: user.id, field: 'lrn', was: row.lrn });
        return { row, shipments };
      });
      announce('deleted', before.row);
      for (const s of before.shipments)
        events.publish({ kind: 'shipment', id: s.id, action: 'updated', partyIds: [s.owner_id] });
    },

    /**
     * Lodges a draft in ONE transaction: the checks of what lodging needs (422 with each field's path;
     * nothing written when one fails), the status, and the gateway's sent message and queued exchange.
     */
    async lodge(user: SessionUser, idOrLrn: string, input: Lodge): Promise<Declaration> {
      const id = await inTransaction(db, async (trx) => {
        const row = await locked(trx, user, idOrLrn, input.version);
        draftOnly(row, 'lodged');
        const current = await toDeclaration(trx, { all: true }, row);
        // The one pre-lodging rule function (ADR 0047), with what the warehouse knows of cited entries
        // and the importer's CBAM goods of the year.
        const found = lodgingProblems(current, await lodgingContextOf(trx, current));
        if (found.length) notReady(row.lrn, found);
        await touch(trx, user, row, { status: 'lodged', lodged_at: new Date(), rejection: '[]' }, 'lodged', [
          { field: 'status', from: row.status, to: 'lodged' },
        ]);
        await gateway.lodge(trx, { declarationId: row.id, userId: user.id });
        return row.id;
      });
      const row = await rowOr404({ all: true }, id);
      announce('updated', row);
      return detail(user, row);
    },

    /** Asks the authority to amend an accepted declaration; the content changes when it accepts. */
    async amend(user: SessionUser, idOrLrn: string, input: Amend): Promise<Declaration> {
      const id = await inTransaction(db, async (trx) => {
        const row = await locked(trx, user, idOrLrn, input.version);
        pendingConflict(row);
        // The one rule the web's disabled action reads too (under control: UCC art. 173(1)).
        const refused = amendmentProblem(row.status);
        if (refused)
          throw problems.conflict(`${row.lrn} is ${statusName(row.status)}: ${lowerFirst(refused)}.`, [
            { field: 'status', message: refused },
          ]);
        const changes = withoutUndefined(input.changes) as DeclarationChanges;
        if (!Object.keys(changes).length)
          throw problems.validation([{ field: 'changes', message: 'Change at least one field' }]);
        contentIssues(
          {
            currency: changes.currency !== undefined ? changes.currency : row.currency,
            invoiceTotal: changes.invoiceTotal !== undefined ? changes.invoiceTotal : row.invoice_total,
            items: changes.items,
          },
          row.category,
          'changes.',
        );
        computedIssues(row.type, changes.items, 'changes.');
        const current = await toDeclaration(trx, { all: true }, row);
        const proposed = proposedContent(current, changes);
        const found = lodgingProblems(proposed, await lodgingContextOf(trx, proposed));
        if (found.length) notReady(row.lrn, found, 'changes.');
        await touch(
          trx,
          user,
          row,
          { pending_request: 'amendment', pending_amendment: JSON.stringify(changes) },
          'amendment requested',
          [
            { field: 'pendingRequest', from: null, to: 'amendment' },
            { field: 'reason', from: null, to: input.reason },
          ],
        );
        await gateway.amend(trx, { declarationId: row.id, userId: user.id, reason: input.reason, proposed });
        return row.id;
      });
      const row = await rowOr404({ all: true }, id);
      announce('updated', row);
      return detail(user, row);
    },

    /** Asks the authority to invalidate a lodged declaration; it is cancelled when the authority agrees. */
    async cancel(user: SessionUser, idOrLrn: string, input: Cancel): Promise<Declaration> {
      const id = await inTransaction(db, async (trx) => {
        const row = await locked(trx, user, idOrLrn, input.version);
        if (row.status === 'draft')
          throw problems.conflict(`${row.lrn} is a draft: nothing was lodged to cancel. Delete it instead.`);
        pendingConflict(row);
        // The one rule the web's disabled action reads too (under control: UCC art. 174(1)).
        const refused = cancellationProblem(row.type, row.status);
        if (refused)
          throw problems.conflict(`${row.lrn} is ${statusName(row.status)}: ${lowerFirst(refused)}.`, [
            { field: 'status', message: refused },
          ]);
        await touch(trx, user, row, { pending_request: 'cancellation' }, 'cancellation requested', [
          { field: 'pendingRequest', from: null, to: 'cancellation' },
          { field: 'reason', from: null, to: input.reason },
        ]);
        await gateway.cancel(trx, { declarationId: row.id, userId: user.id, reason: input.reason });
        return row.id;
      });
      const row = await rowOr404({ all: true }, id);
      announce('updated', row);
      return detail(user, row);
    },

    /** A customer's history starts at the lodging: the drafting is the forwarder's work. */
    async history(user: SessionUser, idOrLrn: string) {
      const scope = scopeOf(user);
      const row = await rowOr404(scope, idOrLrn);
      const entries = await historyOf(
        db,
        KIND,
        row.id,
        { scope, visibility: declarationFieldVisibility },
        { customerId: 'party' },
      );
      const visible = warehouseGatedHistory(user, entries);
      if (scope.all) return visible;
      const lodged = visible.findIndex((e) => e.action === 'lodged');
      return lodged < 0 ? [] : visible.slice(0, lodged + 1);
    },
  };
}
export type DeclarationsService = ReturnType<typeof declarationsService>;
