import {
  type AllowanceCharge,
  type DocumentAllowanceCharge,
  type InvoiceKind,
  type InvoiceLine,
  type InvoiceStatus,
  type Payment,
  type SalesInvoiceListItem,
  type SalesInvoiceListQuery,
  salesInvoiceFieldVisibility,
  subtractDecimal,
} from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { defineListSpec, filter, type ListSource, listReader } from '../../records/list.ts';
import type { Scope } from '../../records/scope.ts';

export interface InvoiceRow {
  id: string;
  kind: InvoiceKind;
  number: string | null;
  status: InvoiceStatus;
  customer_id: string;
  customer_code: string;
  customer_name: string;
  dossier_id: string | null;
  dossier_number: string | null;
  dossier_type: string | null;
  credited_invoice_id: string | null;
  credited_number: string | null;
  credited_issue_date: string | null;
  currency: string;
  exchange_rate: string | null;
  issue_date: string | null;
  supply_date: string | null;
  due_date: string | null;
  payment_terms_days: number;
  buyer_reference: string | null;
  order_reference: string | null;
  notes: string | null;
  seller: unknown;
  buyer: unknown;
  line_extension_amount: string;
  vat_total: string;
  tax_inclusive_amount: string;
  vat_total_base: string;
  /** BG-20/BG-21 as stored (jsonb, migration 0034). */
  allowance_charges: unknown;
  allowance_total_amount: string;
  charge_total_amount: string;
  paid_amount: string;
  credited_amount: string;
  overdue: boolean;
  version: number;
  created_at: Date;
  created_by: string | null;
  created_by_name: string | null;
  updated_at: Date;
  issued_at: Date | null;
}

/** A decimal string without the trailing zeros numeric columns carry (`21.00` → `21`), keeping `min` decimals. */
export function trimDecimal(d: string, min = 0): string {
  const [whole, frac = ''] = d.split('.');
  let f = frac.replace(/0+$/, '');
  if (f.length < min) f = f.padEnd(min, '0');
  return f ? `${whole}.${f}` : (whole as string);
}

/**
 * What is still to be paid: the total less payments and issued credit notes, never below 0. A credit
 * note itself is owed to the customer, not by them: nothing is open on it.
 */
export function openAmountOf(
  r: Pick<InvoiceRow, 'kind' | 'tax_inclusive_amount' | 'paid_amount' | 'credited_amount'>,
) {
  if (r.kind === 'credit_note') return '0.00';
  const open = subtractDecimal(subtractDecimal(r.tax_inclusive_amount, r.paid_amount), r.credited_amount);
  return open.startsWith('-') ? '0.00' : open;
}

export function toListItem(r: InvoiceRow): SalesInvoiceListItem {
  return {
    id: r.id,
    kind: r.kind,
    number: r.number,
    status: r.status,
    customer: { id: r.customer_id, code: r.customer_code, name: r.customer_name },
    dossier: r.dossier_id && r.dossier_number ? { id: r.dossier_id, number: r.dossier_number } : null,
    creditedInvoice: r.credited_invoice_id
      ? { id: r.credited_invoice_id, number: r.credited_number, issueDate: r.credited_issue_date }
      : null,
    currency: r.currency,
    issueDate: r.issue_date,
    dueDate: r.due_date,
    taxInclusiveAmount: r.tax_inclusive_amount,
    paidAmount: r.paid_amount,
    openAmount: openAmountOf(r),
    overdue: r.overdue,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/**
 * The zone whose calendar day "today" is, for a default issue date and for overdue: the company's.
 * Company settings have no zone of their own yet; the forwarder is Dutch.
 */
export const COMPANY_TIME_ZONE = 'Europe/Amsterdam';

/** Overdue is a fact of the company's day, computed where it is read (no stored flag to go stale). */
export const OVERDUE = sql`(i.kind = 'invoice' and i.status in ('issued', 'partially_paid')
  and i.due_date < (now() at time zone ${sql.lit(COMPANY_TIME_ZONE)})::date)`;

const FROM = sql`sales_invoices i join parties c on c.id = i.customer_id
  left join dossiers d on d.id = i.dossier_id
  left join sales_invoices ci on ci.id = i.credited_invoice_id`;
const SELECT = sql`i.*, c.code as customer_code, c.name as customer_name, d.number as dossier_number,
  d.type as dossier_type, ci.number as credited_number, ci.issue_date as credited_issue_date, ${OVERDUE} as overdue`;
const SEARCH = sql`(coalesce(i.number, '') || ' ' || coalesce(i.buyer_reference, '') || ' ' || coalesce(i.order_reference, '') || ' ' || c.name)`;

export const invoiceListSpec = defineListSpec({
  name: 'sales-invoices',
  visibility: salesInvoiceFieldVisibility,
  from: FROM,
  id: { expr: 'i.id', type: 'uuid', nullable: false },
  sortable: {
    number: { expr: 'i.number', type: 'text', nullable: true },
    status: { expr: 'i.status', type: 'text', nullable: false },
    issueDate: { expr: 'i.issue_date', type: 'date', nullable: true },
    dueDate: { expr: 'i.due_date', type: 'date', nullable: true },
    customer: { expr: 'c.name', type: 'text', nullable: false },
    total: { expr: 'i.tax_inclusive_amount', type: 'numeric', nullable: false },
    createdAt: { expr: 'i.created_at', type: 'timestamptz', nullable: false },
    updatedAt: { expr: 'i.updated_at', type: 'timestamptz', nullable: false },
  },
  defaultSort: '-updatedAt',
  search: SEARCH,
  searchFields: ['number', 'buyerReference', 'orderReference', 'customer'],
  countFrom: sql`sales_invoices i join parties c on c.id = i.customer_id`,
});

/** A customer sees their own party's issued documents; drafts are nobody's but staff's. */
function scopeWhere(scope: Scope): RawBuilder<unknown>[] {
  return scope.all ? [] : [sql`i.customer_id = ${scope.partyId}`, sql`i.number is not null`];
}

/** The list's filters, sort and search, without paging (exports take all). */
export type InvoiceFilters = Omit<SalesInvoiceListQuery, 'page' | 'pageSize' | 'cursor'>;

const invoiceList: ListSource<InvoiceFilters, InvoiceRow, SalesInvoiceListItem> = {
  spec: invoiceListSpec,
  select: SELECT,
  scope: scopeWhere,
  filters: {
    status: filter.anyOf('i.status'),
    kind: filter.anyOf('i.kind'),
    customerId: filter.equals('i.customer_id'),
    dossierId: filter.equals('i.dossier_id'),
    issuedFrom: filter.atLeast('i.issue_date', 'date'),
    issuedTo: filter.atMost('i.issue_date', 'date'),
    overdue: filter.yesNo(OVERDUE, sql`not ${OVERDUE}`),
  },
  map: toListItem,
};

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface LineRow {
  id: string;
  position: number;
  charge_id: string | null;
  credited_line_id: string | null;
  charge_code: string;
  description: string;
  quantity: string;
  unit: string;
  unit_price: string;
  vat_code: string;
  vat_rate: string | null;
  exemption_reason: string | null;
  /** BG-27/BG-28 as stored (jsonb, migration 0034). */
  allowance_charges: unknown;
  line_net: string;
}

/** A stored allowance or charge as the API gives it: every field present, the code and reason null when none. */
function toAllowanceCharge(
  raw: unknown,
): AllowanceCharge & { reasonCode: string | null; reason: string | null } {
  const ac = raw as AllowanceCharge;
  return {
    isCharge: ac.isCharge,
    amount: ac.amount,
    reasonCode: ac.reasonCode ?? null,
    reason: ac.reason ?? null,
  };
}

/** The line-level allowances and charges of a stored line (`[]` for lines stored before 0034). */
export function lineAllowanceCharges(stored: unknown) {
  return Array.isArray(stored) ? stored.map(toAllowanceCharge) : [];
}

/** The document-level allowances and charges of a stored invoice, each with its VAT category and rate. */
export function documentAllowanceCharges(
  stored: unknown,
): (DocumentAllowanceCharge & { reasonCode: string | null; reason: string | null })[] {
  return Array.isArray(stored)
    ? stored.map((raw) => {
        const ac = raw as DocumentAllowanceCharge;
        return { ...toAllowanceCharge(ac), vatCode: ac.vatCode, vatRate: ac.vatRate ?? null };
      })
    : [];
}

export function toLine(r: LineRow): InvoiceLine {
  return {
    id: r.id,
    chargeId: r.charge_id,
    creditedLineId: r.credited_line_id,
    chargeCode: r.charge_code as InvoiceLine['chargeCode'],
    description: r.description,
    quantity: trimDecimal(r.quantity),
    unit: r.unit as InvoiceLine['unit'],
    unitPrice: trimDecimal(r.unit_price, 2),
    vatCode: r.vat_code as InvoiceLine['vatCode'],
    vatRate: r.vat_rate === null ? null : trimDecimal(r.vat_rate),
    exemptionReason: r.exemption_reason as InvoiceLine['exemptionReason'],
    allowanceCharges: lineAllowanceCharges(r.allowance_charges),
    lineNet: r.line_net,
  };
}

export function salesInvoicesRepository(db: Db) {
  const list = listReader(db, invoiceList);
  return {
    list: list.page,
    all: list.all,

    /** One invoice by id or number, within scope; `lock` takes its row lock for the transaction. */
    async find(scope: Scope, idOrNumber: string, lock = false): Promise<InvoiceRow | undefined> {
      const byId = UUID_RE.test(idOrNumber);
      const r = await sql<InvoiceRow>`
        select ${SELECT}, u.name as created_by_name
        from ${FROM} left join users u on u.id = i.created_by
        where ${byId ? sql`i.id = ${idOrNumber}` : sql`i.number = ${idOrNumber}`}
          ${sql.join([sql``, ...scopeWhere(scope)], sql` and `)}
        ${lock ? sql`for update of i` : sql``}`.execute(db);
      return r.rows[0];
    },

    async lines(invoiceId: string): Promise<LineRow[]> {
      const r = await sql<LineRow>`
        select id, position, charge_id, credited_line_id, charge_code, description, quantity::text,
          unit, unit_price::text, vat_code, vat_rate::text, exemption_reason, allowance_charges, line_net::text
        from sales_invoice_lines where invoice_id = ${invoiceId} order by position`.execute(db);
      return r.rows;
    },

    async payments(invoiceId: string, withDeleted = false): Promise<(Payment & { deleted: boolean })[]> {
      const r = await sql<{
        id: string;
        paid_on: string;
        amount: string;
        reference: string | null;
        created_at: Date;
        created_by: string | null;
        created_by_name: string | null;
        deleted_at: Date | null;
      }>`
        select p.id, p.paid_on, p.amount::text, p.reference, p.created_at, p.created_by,
          u.name as created_by_name, p.deleted_at
        from sales_invoice_payments p left join users u on u.id = p.created_by
        where p.invoice_id = ${invoiceId} ${withDeleted ? sql`` : sql`and p.deleted_at is null`}
        order by p.created_at, p.id`.execute(db);
      return r.rows.map((p) => ({
        id: p.id,
        paidOn: p.paid_on,
        amount: p.amount,
        reference: p.reference,
        createdAt: p.created_at.toISOString(),
        createdBy: p.created_by && p.created_by_name ? { id: p.created_by, name: p.created_by_name } : null,
        deleted: p.deleted_at !== null,
      }));
    },

    /** Credit notes against an invoice; a customer sees the issued ones. */
    async creditNotes(scope: Scope, invoiceId: string) {
      const r = await sql<{ id: string; number: string | null; status: InvoiceStatus; total: string }>`
        select id, number, status, tax_inclusive_amount::text as total from sales_invoices i
        where credited_invoice_id = ${invoiceId} ${scope.all ? sql`` : sql`and number is not null`}
        order by created_at, id`.execute(db);
      return r.rows.map((c) => ({
        id: c.id,
        number: c.number,
        status: c.status,
        taxInclusiveAmount: c.total,
      }));
    },

    /**
     * Per line of an invoice, the quantity credit notes take already: issued ones, and with
     * `withDrafts` also drafts (so two drafts cannot promise the same quantity back).
     */
    async creditedQuantities(invoiceId: string, withDrafts: boolean): Promise<Map<string, string>> {
      const r = await sql<{ line_id: string; quantity: string }>`
        select cl.credited_line_id as line_id, sum(cl.quantity)::text as quantity
        from sales_invoice_lines cl join sales_invoices cn on cn.id = cl.invoice_id
        where cn.credited_invoice_id = ${invoiceId}
          ${withDrafts ? sql`` : sql`and cn.number is not null`}
        group by cl.credited_line_id`.execute(db);
      return new Map(r.rows.map((x) => [x.line_id, x.quantity]));
    },

    /** Replaces a draft's lines (the trigger refuses this on an issued one). */
    async replaceLines(
      invoiceId: string,
      lines: {
        chargeId?: string | null | undefined;
        creditedLineId?: string | null | undefined;
        chargeCode: string;
        description: string;
        quantity: string;
        unit: string;
        unitPrice: string;
        vatCode: string;
        vatRate?: string | null | undefined;
        exemptionReason?: string | null | undefined;
        allowanceCharges?: readonly AllowanceCharge[] | undefined;
        lineNet: string;
      }[],
    ): Promise<void> {
      await db.deleteFrom('sales_invoice_lines').where('invoice_id', '=', invoiceId).execute();
      if (!lines.length) return;
      await db
        .insertInto('sales_invoice_lines')
        .values(
          lines.map((l, position) => ({
            invoice_id: invoiceId,
            position,
            charge_id: l.chargeId ?? null,
            credited_line_id: l.creditedLineId ?? null,
            charge_code: l.chargeCode,
            description: l.description,
            quantity: l.quantity,
            unit: l.unit,
            unit_price: l.unitPrice,
            vat_code: l.vatCode,
            vat_rate: l.vatRate ?? null,
            exemption_reason: l.exemptionReason ?? null,
            allowance_charges: JSON.stringify(l.allowanceCharges ?? []),
            line_net: l.lineNet,
          })),
        )
        .execute();
    },
  };
}
export type SalesInvoicesRepository = ReturnType<typeof salesInvoicesRepository>;
