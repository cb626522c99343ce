import {
  type AllowanceCharge,
  allowanceChargeErrors,
  allowanceChargeLabel,
  type Company,
  chargeUnits,
  type creditNoteCreateSchema,
  type DocumentAllowanceCharge,
  type Dossier,
  defaultVat,
  documentTotals,
  eInvoiceProblems,
  type InvoiceAction,
  type InvoiceParty,
  type InvoiceSeller,
  type invoiceIssueSchema,
  type invoiceLineInputSchema,
  issueProblems,
  lineNet,
  lineNetWithAllowances,
  multiplyDecimal,
  type PaymentCreate,
  type paymentCreateSchema,
  type SalesChargeCode,
  type SalesInvoice,
  type SalesInvoiceCreateParsed,
  type SalesInvoiceListQuery,
  type SalesUnit,
  salesInvoiceFieldVisibility,
  type salesInvoiceFromDossierSchema,
  type salesInvoiceFromLinesSchema,
  type salesInvoiceUpdateSchema,
  subtractDecimal,
  sumDecimal,
  type VatCode,
  type VatExemptionReason,
} from '@fvg/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { peppolBuyer } from '../../e-invoice/peppol-buyer.ts';
import { problems } from '../../http/problem.ts';
import { enqueue } from '../../jobs/jobs.ts';
import { printDate } from '../../print/format.ts';
import { auditDeletion, type Change, diff, historyOf, writeAudit } from '../../records/audit.ts';
import type { RecordEvents } from '../../records/events.ts';
import { checkVersion, columnsOf, pgConstraintProblem, versionedUpdate } from '../../records/mutation.ts';
import { orNotFound, requireStaff, type Scope, scopeOf } from '../../records/scope.ts';
import { redact } from '../../records/visibility.ts';
import { readCompany, takeSeriesNumber } from '../company/company.service.ts';
import { type NotificationBus, newSignals } from '../notifications/notification-bus.ts';
import {
  insertNotifications,
  type NotificationDelivery,
  recipients,
} from '../notifications/notifications.repository.ts';
import type { SessionUser } from '../users/users.repository.ts';
import {
  COMPANY_TIME_ZONE,
  documentAllowanceCharges,
  type InvoiceFilters,
  type InvoiceRow,
  type LineRow,
  openAmountOf,
  salesInvoicesRepository,
  toLine,
  toListItem,
  trimDecimal,
} from './sales-invoices.repository.ts';

type LineInput = z.output<typeof invoiceLineInputSchema>;
type Update = z.output<typeof salesInvoiceUpdateSchema>;
type Issue = z.output<typeof invoiceIssueSchema>;
type CreditInput = z.output<typeof creditNoteCreateSchema>;
type PaymentInput = z.output<typeof paymentCreateSchema>;
type DocumentAcInput = NonNullable<Update['allowanceCharges']>;

/** The audit trail's and the hub's name of the record. */
const KIND = 'sales-invoice';

export function todayIn(zone = COMPANY_TIME_ZONE, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A user id that no user has: the scheduled jobs act as nobody (notifications skip their actor). */
const NOBODY = '00000000-0000-0000-0000-000000000000';

const REFERENCES = {
  sales_invoices_customer_id_fkey: { field: 'customerId', message: 'No such party' },
  sales_invoices_dossier_id_fkey: { field: 'dossierId', message: 'No such dossier' },
  sales_invoices_kind_number_key: { field: 'number', message: 'This number is taken' },
  // Migration 0029's triggers, the last line behind the rules below.
  sales_invoices_dossier_customer: { field: 'dossierId', message: 'This dossier is for another customer' },
  sales_invoices_credit_note_matches_invoice: {
    field: 'customerId',
    message: 'A credit note has its invoice’s customer, currency and exchange rate',
  },
  sales_invoices_credit_note_of_issued_invoice: {
    field: 'creditedInvoice',
    message: 'A credit note credits an issued invoice',
  },
  sales_invoices_credit_within_invoice: {
    field: 'lines',
    message: 'More than is left to credit on the invoice',
  },
  sales_invoices_credit_note_after_invoice: {
    field: 'issueDate',
    message: 'A credit note is not dated before its invoice',
  },
  sales_invoices_books_closed: { field: 'issueDate', message: 'The books are closed for this date' },
  sales_invoice_payments_after_issue: {
    field: 'paidOn',
    message: 'A payment is not dated before the invoice’s issue date',
  },
  sales_invoice_payments_books_closed: { field: 'paidOn', message: 'The books are closed for this date' },
};

/** API field → column of the header fields a draft edit may change; the history records API names. */
const COLUMNS = columnsOf([
  'customerId',
  'dossierId',
  'currency',
  'exchangeRate',
  'supplyDate',
  'buyerReference',
  'orderReference',
  'notes',
  'paymentTermsDays',
]);
type Field = keyof typeof COLUMNS;
const FIELDS = Object.keys(COLUMNS) as Field[];

/** The header fields an invoice draft takes from either way of drafting it (lines, a dossier). */
type DraftHeaderInput = Pick<
  z.output<typeof salesInvoiceFromLinesSchema>,
  'supplyDate' | 'buyerReference' | 'orderReference' | 'notes' | 'paymentTermsDays' | 'allowanceCharges'
>;

function fieldsOf(r: InvoiceRow): Record<Field, unknown> {
  const out = {} as Record<Field, unknown>;
  for (const f of FIELDS) {
    const v = (r as unknown as Record<string, unknown>)[COLUMNS[f]];
    out[f] = f === 'exchangeRate' && typeof v === 'string' ? trimDecimal(v) : v;
  }
  return out;
}

export function sellerOf(company: Company): InvoiceSeller {
  return {
    name: company.legalName,
    street: company.street,
    postalCode: company.postalCode,
    city: company.city,
    countryCode: company.countryCode,
    vatNumber: company.vatNumber,
    registrationNumber: company.registrationNumber,
    peppolScheme: company.peppolScheme,
    peppolId: company.peppolId,
    email: company.email,
    iban: company.iban,
    bic: company.bic,
    footer: company.invoiceFooter,
  };
}

interface PartyRow {
  id: string;
  name: string;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  country_code: string;
  vat_number: string | null;
  peppol_scheme: string | null;
  peppol_id: string | null;
  email: string | null;
}

function buyerOf(p: PartyRow): InvoiceParty {
  return {
    name: p.name,
    street: p.street,
    postalCode: p.postal_code,
    city: p.city,
    countryCode: p.country_code,
    vatNumber: p.vat_number,
    // Parties keep no registration number yet; their Peppol endpoint is BT-49 (ADR 0043).
    registrationNumber: null,
    peppolScheme: p.peppol_scheme,
    peppolId: p.peppol_id,
    email: p.email,
  };
}

async function partyRow(db: Db, id: string): Promise<PartyRow | undefined> {
  return db
    .selectFrom('parties')
    .select([
      'id',
      'name',
      'street',
      'postal_code',
      'city',
      'country_code',
      'vat_number',
      'peppol_scheme',
      'peppol_id',
      'email',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A line as the math sees it. */
const mathLine = (l: {
  quantity: string;
  unitPrice: string;
  vatCode: VatCode;
  vatRate: string | null;
  exemptionReason: VatExemptionReason | null;
  allowanceCharges?: readonly AllowanceCharge[] | undefined;
}) => ({
  quantity: l.quantity,
  unitPrice: l.unitPrice,
  vatCode: l.vatCode,
  vatRate: l.vatRate,
  exemptionReason: l.exemptionReason,
  allowanceCharges: l.allowanceCharges ?? [],
});

interface StoredLine {
  chargeId?: string | null | undefined;
  creditedLineId?: string | null | undefined;
  chargeCode: string;
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  vatCode: VatCode;
  vatRate: string | null;
  exemptionReason: VatExemptionReason | null;
  allowanceCharges: AllowanceCharge[];
  lineNet: string;
}

type StoredAc = AllowanceCharge & { reasonCode: string | null; reason: string | null };
type StoredDocumentAc = DocumentAllowanceCharge & { reasonCode: string | null; reason: string | null };

/** An allowance or charge as stored: the amount as sent (2 decimals at most), no code or reason is null. */
const storedAc = (ac: AllowanceCharge): StoredAc => ({
  isCharge: ac.isCharge,
  amount: ac.amount,
  reasonCode: ac.reasonCode?.trim() || null,
  reason: ac.reason?.trim() || null,
});

/** A document allowance or charge as stored: O without a rate, 0 for the other rateless codes (as a line). */
function storedDocumentAcs(
  list: DocumentAcInput | readonly DocumentAllowanceCharge[] | undefined,
): StoredDocumentAc[] {
  return (list ?? []).map((ac) => ({
    ...storedAc(ac),
    vatCode: ac.vatCode,
    vatRate: ac.vatCode === 'O' ? null : (ac.vatRate ?? '0'),
  }));
}

/** Lines as stored: each with its net computed here (never sent by a client), O without a rate, 0 for Z/E/AE. */
function storedLines(lines: LineInput[]): StoredLine[] {
  return lines.map((l) => ({
    chargeId: l.chargeId ?? null,
    creditedLineId: l.creditedLineId ?? null,
    chargeCode: l.chargeCode,
    description: l.description,
    quantity: l.quantity,
    unit: l.unit,
    unitPrice: l.unitPrice,
    vatCode: l.vatCode,
    vatRate: l.vatCode === 'O' ? null : (l.vatRate ?? '0'),
    exemptionReason: l.exemptionReason ?? null,
    allowanceCharges: (l.allowanceCharges ?? []).map(storedAc),
    lineNet: lineNetWithAllowances({
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      allowanceCharges: l.allowanceCharges ?? [],
    }),
  }));
}

/** The stored totals of a document in `currency`, with its VAT in the base currency. */
function totalsOf(
  lines: StoredLine[] | ReturnType<typeof toLine>[],
  exchangeRate: string | null,
  allowanceCharges: readonly DocumentAllowanceCharge[],
) {
  const totals = documentTotals(
    lines.map((l) => mathLine(l as Parameters<typeof mathLine>[0])),
    undefined,
    '0',
    allowanceCharges,
  );
  return {
    ...totals,
    vatTotalBase: multiplyDecimal(totals.vatTotal, exchangeRate ?? '1', 2),
  };
}

function totalColumns(t: ReturnType<typeof totalsOf>) {
  return {
    line_extension_amount: t.lineExtensionAmount,
    allowance_total_amount: t.allowanceTotalAmount,
    charge_total_amount: t.chargeTotalAmount,
    vat_total: t.vatTotal,
    tax_inclusive_amount: t.taxInclusiveAmount,
    vat_total_base: t.vatTotalBase,
  };
}

/** The status an issued invoice has from what was paid and credited. */
function paymentStatus(total: string, paid: string, credited: string): 'issued' | 'partially_paid' | 'paid' {
  const open = subtractDecimal(subtractDecimal(total, paid), credited);
  if (!open.startsWith('-') && open !== '0.00') return Number(paid) > 0 ? 'partially_paid' : 'issued';
  return 'paid';
}

type FieldError = { field: string; message: string; code?: string };

/** The issue check's problems carry a code; a rule's error without one gets the rule's name. */
const coded = (errors: FieldError[], code: string) => errors.map((e) => ({ ...e, code: e.code ?? code }));

/**
 * Issue 23 item 5 (ADR 0049), the ONE rule over a document's allowances and charges, on every path
 * (create, edit, issue, credit note, seed): each valid, no line and no document below zero.
 */
function allowanceErrors(
  allowanceCharges: readonly AllowanceCharge[],
  lines: readonly StoredLine[] | ReturnType<typeof toLine>[],
): FieldError[] {
  return allowanceChargeErrors({ allowanceCharges, lines }).map((e) => ({ ...e, code: 'allowance_charge' }));
}

/** How the history shows a list of allowances and charges. */
const acAudit = (list: readonly (AllowanceCharge & { vatCode?: VatCode; vatRate?: string | null })[]) =>
  list.map(
    (ac) =>
      `${ac.isCharge ? 'surcharge' : 'discount'} ${ac.amount} ${allowanceChargeLabel(ac)}${ac.vatCode ? ` ${ac.vatCode}${ac.vatRate === null || ac.vatRate === undefined ? '' : ` ${trimDecimal(ac.vatRate)}%`}` : ''}`,
  );

/** Refuses with 422 when there are errors. */
function refuse(detail: string, errors: FieldError[]): void {
  if (errors.length) throw problems.unprocessable(detail, errors);
}

/**
 * Issue 23 item 2: an invoice on a dossier is for that dossier's customer (create, edit, issue). The
 * error goes on `field`, the one the caller changed.
 */
async function dossierCustomerErrors(
  trx: Db,
  customerId: string,
  dossierId: string | null,
  field: 'customerId' | 'dossierId',
): Promise<FieldError[]> {
  if (!dossierId) return [];
  const d = (
    await sql<{ number: string; customer_id: string; customer_name: string }>`
      select d.number, d.customer_id, p.name as customer_name
      from dossiers d join parties p on p.id = d.customer_id where d.id = ${dossierId}`.execute(trx)
  ).rows[0];
  if (!d) return [{ field: 'dossierId', message: 'No such dossier' }];
  if (d.customer_id === customerId) return [];
  return [{ field, message: `${d.number} is ${d.customer_name}’s: its invoices are for ${d.customer_name}` }];
}

/** A credit note line as the credit rule reads it. */
interface CreditLine {
  creditedLineId?: string | null | undefined;
  quantity: string;
  unitPrice: string;
  vatCode: VatCode;
  vatRate: string | null;
  exemptionReason: VatExemptionReason | null;
  allowanceCharges?: readonly AllowanceCharge[] | undefined;
}

/** The same allowances and charges (amounts compared as numbers, code and reason as texts). */
function sameAcs(
  a: readonly (AllowanceCharge & { vatCode?: VatCode; vatRate?: string | null })[],
  b: readonly (AllowanceCharge & { vatCode?: VatCode; vatRate?: string | null })[],
): boolean {
  const key = (ac: AllowanceCharge & { vatCode?: VatCode; vatRate?: string | null }) =>
    JSON.stringify([
      ac.isCharge,
      Number(ac.amount),
      ac.reasonCode?.trim() || null,
      ac.reason?.trim() || null,
      ac.vatCode ?? null,
      ac.vatRate === null || ac.vatRate === undefined ? null : Number(ac.vatRate),
    ]);
  return a.length === b.length && a.every((ac, i) => key(ac) === key(b[i] as AllowanceCharge));
}

/**
 * Issue 23 item 1, ONE rule for a credit note's lines against its invoice (`credited`, whose row the
 * caller has locked): each line credits a line of that invoice at its price and VAT, no line beyond
 * what is left of its quantity, and the whole note not beyond what is left of the invoice's total.
 * "Left" counts the other credit notes: issued ones at issue; drafts too when drafting or editing
 * (two drafts cannot promise the same money back). `selfId`: the credit note itself, not counted.
 */
async function creditNoteErrors(
  trx: Db,
  credited: InvoiceRow,
  lines: CreditLine[],
  allowanceCharges: readonly DocumentAllowanceCharge[],
  exchangeRate: string | null,
  selfId: string | null,
  withDrafts: boolean,
): Promise<FieldError[]> {
  const others = sql`cn.credited_invoice_id = ${credited.id} and cn.id <> ${selfId ?? NOBODY}
    ${withDrafts ? sql`` : sql`and cn.number is not null`}`;
  const [originals, taken, creditedSum] = await Promise.all([
    salesInvoicesRepository(trx).lines(credited.id),
    sql<{ line_id: string; quantity: string }>`
      select cl.credited_line_id as line_id, sum(cl.quantity)::text as quantity
      from sales_invoice_lines cl join sales_invoices cn on cn.id = cl.invoice_id
      where ${others} group by cl.credited_line_id`.execute(trx),
    sql<{ total: string; count: number }>`
      select coalesce(sum(cn.tax_inclusive_amount), 0)::text as total, count(*)::int as count
      from sales_invoices cn where ${others}`.execute(trx),
  ]);
  const byId = new Map(originals.map((l) => [l.id, toLine(l)]));
  const used = new Map(taken.rows.map((r) => [r.line_id, r.quantity]));
  const errors: FieldError[] = [];
  lines.forEach((l, i) => {
    const original = l.creditedLineId ? byId.get(l.creditedLineId) : undefined;
    if (!original) {
      errors.push({
        field: `lines.${i}.creditedLineId`,
        message: `Each line of a credit note credits a line of ${credited.number}`,
        code: 'credit_line_unknown',
      });
      return;
    }
    if (Number(l.unitPrice) !== Number(original.unitPrice))
      errors.push({
        field: `lines.${i}.unitPrice`,
        message: `A credit note gives back the invoiced price: ${original.unitPrice}`,
        code: 'credit_price',
      });
    if (
      l.vatCode !== original.vatCode ||
      Number(l.vatRate ?? -1) !== Number(original.vatRate ?? -1) ||
      (l.exemptionReason ?? null) !== (original.exemptionReason ?? null)
    )
      errors.push({
        field: `lines.${i}.vatCode`,
        message: `A credit note gives back the VAT as invoiced: ${original.vatCode}${original.vatRate === null ? '' : ` ${original.vatRate} %`}`,
        code: 'credit_vat',
      });
    const left = subtractDecimal(original.quantity, used.get(original.id) ?? '0', 3);
    if (Number(l.quantity) > Number(left))
      errors.push({
        field: `lines.${i}.quantity`,
        message:
          Number(left) > 0
            ? `Only ${trimDecimal(left)} of this line is left to credit`
            : 'This line is credited in full already',
        code: 'credit_exceeds_invoice',
      });
    // ADR 0049: a line with discounts or surcharges is credited whole, with them as invoiced.
    if (!sameAcs(l.allowanceCharges ?? [], original.allowanceCharges))
      errors.push({
        field: `lines.${i}.allowanceCharges`,
        message: original.allowanceCharges.length
          ? 'A credit note gives back this line’s discounts and surcharges as invoiced'
          : 'This line of the invoice has no discount or surcharge to give back',
        code: 'credit_allowances',
      });
    else if (original.allowanceCharges.length && Number(l.quantity) !== Number(original.quantity))
      errors.push({
        field: `lines.${i}.quantity`,
        message: `This line has a discount or surcharge: it is credited whole (${trimDecimal(original.quantity)}), not in part`,
        code: 'credit_allowances',
      });
    used.set(original.id, sumDecimal([used.get(original.id) ?? '0', l.quantity], 3));
  });
  // ADR 0049: the invoice's document discounts and surcharges go back only with the whole invoice.
  const invoiceAcs = documentAllowanceCharges(credited.allowance_charges);
  const whole =
    originals.length === lines.length &&
    originals.every((o) =>
      lines.some((l) => l.creditedLineId === o.id && Number(l.quantity) === Number(o.quantity)),
    );
  if (invoiceAcs.length && !whole)
    errors.push({
      field: 'lines',
      message: `${credited.number} has discounts or surcharges on the whole invoice: a credit note credits all of it, every line in full`,
      code: 'credit_allowances',
    });
  else if (!sameAcs(allowanceCharges, whole ? invoiceAcs : []))
    errors.push({
      field: 'allowanceCharges',
      message: invoiceAcs.length
        ? `A credit note of all of ${credited.number} gives back its discounts and surcharges as invoiced`
        : `${credited.number} has no discount or surcharge on the whole invoice to give back`,
      code: 'credit_allowances',
    });
  if (!errors.length) {
    const total = totalsOf(
      lines.map(mathLine) as unknown as StoredLine[],
      exchangeRate,
      allowanceCharges,
    ).taxInclusiveAmount;
    const left = subtractDecimal(credited.tax_inclusive_amount, creditedSum.rows[0]?.total ?? '0');
    // ADR 0040: each credit note rounds its own VAT, so the note that credits everything still left
    // may exceed the amount left by rounding only, at most 0.01 per earlier credit note.
    const completes = originals.every((o) => Number(used.get(o.id) ?? '0') >= Number(o.quantity));
    const rounding = completes ? (creditedSum.rows[0]?.count ?? 0) * 0.01 : 0;
    if (Math.round(Number(total) * 100) > Math.round((Number(left) + rounding) * 100))
      errors.push({
        field: 'lines',
        message: `This credit note gives back ${total} ${credited.currency}; only ${left.startsWith('-') ? '0.00' : left} is left to credit on ${credited.number}`,
        code: 'credit_exceeds_invoice',
      });
  }
  return errors;
}

/**
 * Issue 23 item 3, the dates an issue must respect that do not need the series lock: not after today in
 * the company's zone, not in a closed period, a credit note not before its invoice.
 */
function issueDateErrors(
  issueDate: string,
  booksClosedUpTo: string | null,
  credited: Pick<InvoiceRow, 'number' | 'issue_date'> | undefined,
): FieldError[] {
  const errors: FieldError[] = [];
  if (issueDate > todayIn())
    errors.push({ field: 'issueDate', message: `The issue date cannot be after today (${todayIn()})` });
  if (booksClosedUpTo && issueDate <= booksClosedUpTo)
    errors.push({
      field: 'issueDate',
      message: `The books are closed up to ${booksClosedUpTo}: issue on a later date`,
      code: 'books_closed',
    });
  if (credited?.issue_date && issueDate < credited.issue_date)
    errors.push({
      field: 'issueDate',
      message: `A credit note is not dated before ${credited.number} (issued ${credited.issue_date})`,
    });
  return errors;
}

/**
 * Issue 23 item 3, the order of a series, checked after the number is taken (its year's row is locked
 * then, and the kind's row here, so concurrent issuers are judged one after the other): not before the
 * latest issue date of the series (kind and year), and no year opened once a later year has numbers.
 */
async function seriesOrderErrors(trx: Db, kind: string, issueDate: string): Promise<FieldError[]> {
  await sql`select 1 from document_series where kind = ${kind} for update`.execute(trx);
  const year = issueDate.slice(0, 4);
  const r = (
    await sql<{ latest: string | null; later: string | null }>`
      select
        (select max(issue_date) from sales_invoices where kind = ${kind} and number is not null
           and issue_date between ${`${year}-01-01`}::date and ${`${year}-12-31`}::date) as latest,
        (select min(extract(year from issue_date))::text from sales_invoices where kind = ${kind}
           and number is not null and issue_date > ${`${year}-12-31`}::date) as later`.execute(trx)
  ).rows[0];
  if (r?.latest && r.latest > issueDate)
    return [
      {
        field: 'issueDate',
        message: `The series of ${year} has a document issued on ${r.latest}: issue on that day or later`,
        code: 'issue_date_order',
      },
    ];
  if (!r?.latest && r?.later)
    return [
      {
        field: 'issueDate',
        message: `The ${r.later} series has numbers already: a ${year} series cannot be opened now`,
        code: 'series_year_order',
      },
    ];
  return [];
}

/** Issue 23 item 3: a payment is received after the issue, not in the future, not in a closed period. */
function paymentDateErrors(
  inv: Pick<InvoiceRow, 'number' | 'issue_date'>,
  paidOn: string,
  booksClosedUpTo: string | null,
): FieldError[] {
  const errors: FieldError[] = [];
  if (paidOn > todayIn())
    errors.push({ field: 'paidOn', message: 'A payment cannot be received in the future' });
  if (inv.issue_date && paidOn < inv.issue_date)
    errors.push({
      field: 'paidOn',
      message: `${inv.number} was issued on ${inv.issue_date}: not paid before`,
    });
  if (booksClosedUpTo && paidOn <= booksClosedUpTo)
    errors.push({
      field: 'paidOn',
      message: `The books are closed up to ${booksClosedUpTo}: record the payment on a later date`,
      code: 'books_closed',
    });
  return errors;
}

/** A credit note's customer, currency, exchange rate and dossier are its invoice's: a draft edit may not change them. */
function lockedCreditFieldErrors(before: InvoiceRow, changes: Partial<Record<Field, unknown>>): FieldError[] {
  if (before.kind !== 'credit_note') return [];
  const same = (f: Field, now: unknown) => {
    const v = changes[f];
    if (v === undefined) return true;
    if (f === 'exchangeRate') return (v === null ? null : Number(v)) === (now === null ? null : Number(now));
    return (v ?? null) === (now ?? null);
  };
  const current = fieldsOf(before);
  return (['customerId', 'dossierId', 'currency', 'exchangeRate'] as const)
    .filter((f) => !same(f, current[f]))
    .map((f) => ({
      field: f,
      message: `A credit note’s ${f === 'customerId' ? 'customer' : f === 'dossierId' ? 'dossier' : f === 'currency' ? 'currency' : 'exchange rate'} is its invoice’s`,
    }));
}

/** Only a credit note's lines credit an invoice line. */
function creditedLineOnInvoiceErrors(lines: { creditedLineId?: string | null | undefined }[]): FieldError[] {
  return lines.flatMap((l, i) =>
    l.creditedLineId
      ? [{ field: `lines.${i}.creditedLineId`, message: 'Only a credit note’s lines credit an invoice line' }]
      : [],
  );
}

const lineAudit = (l: {
  chargeCode: string;
  description: string;
  quantity: string;
  unitPrice: string;
  vatCode: string;
  vatRate: string | null;
  allowanceCharges?: readonly AllowanceCharge[];
}) =>
  `${l.chargeCode} ${l.description} ${trimDecimal(l.quantity)} × ${trimDecimal(l.unitPrice, 2)} ${l.vatCode}${l.vatRate === null ? '' : ` ${trimDecimal(l.vatRate)}%`}${(l.allowanceCharges ?? []).length ? ` (${acAudit(l.allowanceCharges ?? []).join('; ')})` : ''}`;

export function salesInvoicesService(db: Db, events: RecordEvents, notices: NotificationBus) {
  const repo = salesInvoicesRepository(db);

  async function rowOr404(scope: Scope, idOrNumber: string): Promise<InvoiceRow> {
    return orNotFound(await repo.find(scope, idOrNumber), 'invoice');
  }

  /** Customers hear of an invoice once it is theirs to see: issued. */
  function announce(
    action: 'created' | 'updated' | 'deleted',
    row: { id: string; customer_id: string; number: string | null },
  ) {
    events.publish({ kind: KIND, id: row.id, action, partyIds: row.number ? [row.customer_id] : [] });
  }

  function allowedActions(scope: Scope, row: InvoiceRow): InvoiceAction[] {
    if (!scope.all) return [];
    if (row.status === 'draft') return ['edit', 'delete', 'issue'];
    if (row.kind === 'credit_note') return [];
    const actions: InvoiceAction[] = [];
    if (row.status !== 'credited') actions.push('credit');
    if (row.status === 'issued' || row.status === 'partially_paid') actions.push('pay');
    return actions;
  }

  /** The record as `scope` sees it (staff: `{ all: true }`). */
  async function detail(user: SessionUser | Scope, row: InvoiceRow): Promise<SalesInvoice> {
    const scope = 'all' in user ? user : scopeOf(user);
    const [lineRows, payments, creditNotes] = await Promise.all([
      repo.lines(row.id),
      repo.payments(row.id),
      repo.creditNotes(scope, row.id),
    ]);
    const lines = lineRows.map(toLine);
    // A draft shows the live company and customer; an issued one what it was issued with.
    let seller = row.seller as InvoiceSeller | null;
    let buyer = row.buyer as InvoiceParty | null;
    if (!seller || !buyer) {
      const [company, party] = await Promise.all([readCompany(db), partyRow(db, row.customer_id)]);
      seller = sellerOf(company);
      buyer = party ? buyerOf(party) : ({ name: row.customer_name } as InvoiceParty);
    }
    const allowanceCharges = documentAllowanceCharges(row.allowance_charges);
    const { lineNets: _nets, ...totals } = totalsOf(lines, row.exchange_rate, allowanceCharges);
    // Whether it goes out as a Peppol file (ADR 0043): a draft's warning, an issued one's reason.
    const eInvoice = eInvoiceProblems({ seller, buyer: await peppolBuyer(db, buyer, row.customer_id) });
    return redact(scope, salesInvoiceFieldVisibility, {
      ...toListItem(row),
      creditNotes,
      exchangeRate: row.exchange_rate === null ? null : trimDecimal(row.exchange_rate),
      supplyDate: row.supply_date,
      paymentTermsDays: row.payment_terms_days,
      buyerReference: row.buyer_reference,
      orderReference: row.order_reference,
      notes: row.notes,
      seller,
      buyer,
      eInvoiceProblems: eInvoice,
      lines,
      allowanceCharges,
      // Issued: the stored figures are the document's (the lines give the same, the trigger keeps both).
      totals: row.number
        ? {
            ...totals,
            lineExtensionAmount: row.line_extension_amount,
            allowanceTotalAmount: row.allowance_total_amount,
            chargeTotalAmount: row.charge_total_amount,
            taxExclusiveAmount: sumDecimal([
              row.line_extension_amount,
              subtractDecimal(row.charge_total_amount, row.allowance_total_amount),
            ]),
            vatTotal: row.vat_total,
            taxInclusiveAmount: row.tax_inclusive_amount,
            vatTotalBase: row.vat_total_base,
          }
        : totals,
      payments: payments.map(({ deleted: _d, ...p }) => p),
      version: row.version,
      createdBy:
        row.created_by && row.created_by_name ? { id: row.created_by, name: row.created_by_name } : null,
      issuedAt: row.issued_at ? row.issued_at.toISOString() : null,
      allowedActions: allowedActions(scope, row),
    });
  }

  /** The exchange rate an invoice in `currency` needs: none in the base currency. */
  function rateFor(currency: string, base: string, given: string | null | undefined): string | null {
    return currency === base ? null : (given ?? null);
  }

  /** Lines that name a charge must name an open revenue charge of the invoice's dossier. */
  async function checkChargeLinks(
    trx: Db,
    dossierId: string | null,
    lines: StoredLine[],
    invoiceId?: string,
  ) {
    const linked = lines
      .map((l, i) => ({ id: l.chargeId, i }))
      .filter((x): x is { id: string; i: number } => !!x.id);
    if (!linked.length) return;
    const rows = await sql<{ id: string; open: boolean }>`
      select ch.id, (ch.invoiced_line_id is null and not exists (
        select 1 from sales_invoice_lines l join sales_invoices i on i.id = l.invoice_id
        where l.charge_id = ch.id and i.number is null ${invoiceId ? sql`and i.id <> ${invoiceId}` : sql``})) as open
      from dossier_charges ch
      where ch.id = any(${linked.map((x) => x.id)}::uuid[]) and ch.kind = 'revenue'
        and ch.dossier_id = ${dossierId ?? NOBODY}`.execute(trx);
    const known = new Map(rows.rows.map((r) => [r.id, r.open]));
    const errors = linked.flatMap(({ id, i }) => {
      const open = known.get(id);
      if (open === undefined)
        return [{ field: `lines.${i}.chargeId`, message: 'Not a revenue charge of this invoice’s dossier' }];
      if (!open) return [{ field: `lines.${i}.chargeId`, message: 'This charge is invoiced already' }];
      return [];
    });
    const seen = new Set<string>();
    for (const { id, i } of linked) {
      if (seen.has(id))
        errors.push({ field: `lines.${i}.chargeId`, message: 'This charge is on another line' });
      seen.add(id);
    }
    if (errors.length) throw problems.unprocessable('Some lines bill charges they cannot.', errors);
  }

  async function insertDraft(
    user: SessionUser,
    values: {
      kind: 'invoice' | 'credit_note';
      customer_id: string;
      dossier_id: string | null;
      credited_invoice_id?: string | null;
      currency: string;
      exchange_rate: string | null;
      supply_date?: string | null | undefined;
      buyer_reference?: string | null | undefined;
      order_reference?: string | null | undefined;
      notes?: string | null | undefined;
      payment_terms_days: number;
    },
    lines: StoredLine[],
    allowanceCharges: StoredDocumentAc[],
    audit: Change[],
    trx: Db,
  ): Promise<string> {
    // The one rule on allowances and charges, whichever way the draft came (lines, dossier, credit, seed).
    refuse('These discounts and surcharges cannot stand.', allowanceErrors(allowanceCharges, lines));
    const totals = totalsOf(lines, values.exchange_rate, allowanceCharges);
    const row = await trx
      .insertInto('sales_invoices')
      .values({
        ...values,
        ...totalColumns(totals),
        allowance_charges: JSON.stringify(allowanceCharges),
        created_by: user.id,
        updated_by: user.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await salesInvoicesRepository(trx).replaceLines(row.id, lines);
    await writeAudit(trx, {
      kind: KIND,
      id: row.id,
      action: values.kind === 'credit_note' ? 'credit note drafted' : 'created',
      actorId: user.id,
      changes: [
        ...audit,
        { field: 'lines', from: null, to: lines.map(lineAudit) },
        ...(allowanceCharges.length
          ? [{ field: 'allowanceCharges', from: null, to: acAudit(allowanceCharges) }]
          : []),
      ],
    });
    return row.id;
  }

  /** The dossier's revenue charges that no issued invoice bills and no draft holds. */
  async function openCharges(trx: Db, dossierId: string) {
    const r = await sql<{
      id: string;
      charge_code: SalesChargeCode;
      description: string;
      amount: string;
      currency: string;
      exchange_rate: string;
      quantity: string | null;
      unit: string | null;
      unit_price: string | null;
    }>`
      select ch.id, ch.charge_code, ch.description, ch.amount::text, trim(ch.currency) as currency,
        ch.exchange_rate::text, ch.quantity::text, ch.unit, ch.unit_price::text
      from dossier_charges ch
      where ch.dossier_id = ${dossierId} and ch.kind = 'revenue' and ch.invoiced_line_id is null
        and not exists (select 1 from sales_invoice_lines l join sales_invoices i on i.id = l.invoice_id
                        where l.charge_id = ch.id and i.number is null)
      order by ch.position`.execute(trx);
    return r.rows;
  }

  /**
   * An invoice draft of `header` (customer, dossier, currency and rate) with the input's other header
   * fields, the company's payment terms where it names none; its creation is its history's first entry.
   */
  function insertInvoiceDraft(
    user: SessionUser,
    trx: Db,
    header: { customerId: string; dossierId: string | null; currency: string; exchangeRate: string | null },
    input: DraftHeaderInput,
    paymentTermsDays: number,
    lines: StoredLine[],
  ): Promise<string> {
    const fields = {
      ...header,
      supplyDate: input.supplyDate ?? null,
      buyerReference: input.buyerReference ?? null,
      orderReference: input.orderReference ?? null,
      notes: input.notes ?? null,
      paymentTermsDays: input.paymentTermsDays ?? paymentTermsDays,
    };
    return insertDraft(
      user,
      {
        kind: 'invoice',
        customer_id: fields.customerId,
        dossier_id: fields.dossierId,
        currency: fields.currency,
        exchange_rate: fields.exchangeRate,
        supply_date: fields.supplyDate,
        buyer_reference: fields.buyerReference,
        order_reference: fields.orderReference,
        notes: fields.notes,
        payment_terms_days: fields.paymentTermsDays,
      },
      lines,
      storedDocumentAcs(input.allowanceCharges),
      diff({}, fields, FIELDS),
      trx,
    );
  }

  async function createFromDossier(
    user: SessionUser,
    input: z.output<typeof salesInvoiceFromDossierSchema>,
  ): Promise<string> {
    return inTransaction(db, async (trx) => {
      // The dossier's row lock: two "invoice this dossier" clicks draft its charges once.
      const dossier = (
        await sql<{ id: string; number: string; type: Dossier['type']; customer_id: string }>`
          select id, number, type, customer_id from dossiers where id = ${input.dossierId} for update`.execute(
          trx,
        )
      ).rows[0];
      if (!dossier)
        throw problems.unprocessable('No such dossier.', [
          { field: 'dossierId', message: 'No such dossier' },
        ]);
      const company = await readCompany(trx);
      const customer = (await partyRow(trx, dossier.customer_id)) as PartyRow;
      let charges = await openCharges(trx, dossier.id);
      if (!charges.length)
        throw problems.unprocessable(`Every revenue charge of ${dossier.number} is invoiced.`, [
          { field: 'dossierId', message: `Every revenue charge of ${dossier.number} is invoiced` },
        ]);
      const currencies = [...new Set(charges.map((c) => c.currency))];
      let currency = input.currency;
      if (currency) {
        charges = charges.filter((c) => c.currency === currency);
        if (!charges.length)
          throw problems.unprocessable(`No open revenue charge of ${dossier.number} is in ${currency}.`, [
            {
              field: 'currency',
              message: `The open revenue charges of ${dossier.number} are in ${currencies.join(', ')}`,
            },
          ]);
      } else if (currencies.length > 1) {
        throw problems.unprocessable(
          `The open revenue charges of ${dossier.number} are in ${currencies.join(' and ')}: an invoice has one currency.`,
          [
            {
              field: 'currency',
              message: `Choose the currency to invoice: the charges are in ${currencies.join(' and ')}`,
            },
          ],
        );
      } else currency = currencies[0] as string;
      const vat = defaultVat({
        dossierType: dossier.type,
        sellerCountry: company.countryCode,
        buyerCountry: customer.country_code,
        buyerVatNumber: customer.vat_number,
      });
      const lines: StoredLine[] = charges.map((c) => {
        // The charge's own units when it was priced per unit (chargeUnits), else one lump sum.
        const units = chargeUnits({
          amount: c.amount,
          quantity: c.quantity,
          unit: c.unit as SalesUnit | null,
          unitPrice: c.unit_price,
        }) ?? { quantity: '1', unit: 'LS' as const, unitPrice: c.amount };
        return {
          chargeId: c.id,
          chargeCode: c.charge_code,
          description: c.description,
          quantity: units.quantity,
          unit: units.unit,
          unitPrice: units.unitPrice,
          vatCode: vat.vatCode,
          vatRate: vat.vatRate,
          exemptionReason: vat.exemptionReason,
          allowanceCharges: [],
          lineNet: lineNet(units.quantity, units.unitPrice),
        };
      });
      const exchangeRate = rateFor(
        currency,
        company.baseCurrency,
        input.exchangeRate ?? charges[0]?.exchange_rate,
      );
      const header = { customerId: dossier.customer_id, dossierId: dossier.id, currency, exchangeRate };
      return insertInvoiceDraft(user, trx, header, input, company.paymentTermsDays, lines);
    });
  }

  async function createFromLines(
    user: SessionUser,
    input: z.output<typeof salesInvoiceFromLinesSchema>,
  ): Promise<string> {
    return inTransaction(db, async (trx) => {
      const company = await readCompany(trx);
      const lines = storedLines(input.lines);
      refuse('This invoice cannot be drafted as it is.', [
        ...(await dossierCustomerErrors(trx, input.customerId, input.dossierId ?? null, 'dossierId')),
        ...creditedLineOnInvoiceErrors(lines),
      ]);
      await checkChargeLinks(trx, input.dossierId ?? null, lines);
      const exchangeRate = rateFor(input.currency, company.baseCurrency, input.exchangeRate);
      const header = {
        customerId: input.customerId,
        dossierId: input.dossierId ?? null,
        currency: input.currency,
        exchangeRate,
      };
      return insertInvoiceDraft(user, trx, header, input, company.paymentTermsDays, lines);
    }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
  }

  /** Locks an invoice for a change within `trx`; 404 out of scope, 409 on a stale version. */
  async function locked(
    trx: Db,
    user: SessionUser,
    idOrNumber: string,
    version?: number,
  ): Promise<InvoiceRow> {
    const row = orNotFound(
      await salesInvoicesRepository(trx).find(scopeOf(user), idOrNumber, true),
      'invoice',
    );
    requireStaff(user);
    checkVersion('invoice', row.version, version);
    return row;
  }

  /**
   * A payment recorded or removed: the new paid amount, the status it gives, and one audit entry
   * with what the caller says happened plus the paid amount and status changes.
   */
  async function settlePaid(
    trx: Db,
    user: SessionUser,
    inv: InvoiceRow,
    paid: string,
    action: 'payment recorded' | 'payment removed',
    changes: Change[],
  ): Promise<void> {
    const status = paymentStatus(inv.tax_inclusive_amount, paid, inv.credited_amount);
    await trx
      .updateTable('sales_invoices')
      .set((eb) => ({
        paid_amount: paid,
        status,
        version: eb('version', '+', 1),
        updated_at: new Date(),
        updated_by: user.id,
      }))
      .where('id', '=', inv.id)
      .execute();
    await writeAudit(trx, {
      kind: KIND,
      id: inv.id,
      action,
      actorId: user.id,
      changes: [
        ...changes,
        { field: 'paidAmount', from: inv.paid_amount, to: paid },
        ...(status !== inv.status ? [{ field: 'status', from: inv.status, to: status }] : []),
      ],
    });
  }

  /**
   * The rules a draft edit must keep (issue 23 items 1 and 2): a credit note keeps its invoice's
   * customer, currency, rate and dossier and stays within what is left to credit (its invoice's row
   * locked); an invoice on a dossier stays with the dossier's customer.
   */
  async function checkDraftEdit(
    trx: Db,
    before: InvoiceRow,
    changes: Partial<Record<Field, unknown>>,
    merged: Record<Field, unknown>,
    lines: StoredLine[] | undefined,
    allowanceCharges: readonly DocumentAllowanceCharge[],
  ): Promise<void> {
    if (before.kind === 'credit_note') {
      refuse(`${label(before)} cannot be changed so.`, lockedCreditFieldErrors(before, changes));
      const credited = await salesInvoicesRepository(trx).find(
        { all: true },
        before.credited_invoice_id as string,
        true,
      );
      if (!credited) throw problems.notFound('The credited invoice does not exist.');
      const current = lines ?? (await salesInvoicesRepository(trx).lines(before.id)).map(toLine);
      refuse(
        `More than is left to credit on ${credited.number}.`,
        await creditNoteErrors(
          trx,
          credited,
          current,
          allowanceCharges,
          before.exchange_rate,
          before.id,
          true,
        ),
      );
      return;
    }
    refuse('This invoice cannot be changed so.', [
      ...(await dossierCustomerErrors(
        trx,
        String(merged.customerId),
        (merged.dossierId as string | null) ?? null,
        changes.dossierId !== undefined && changes.dossierId !== before.dossier_id
          ? 'dossierId'
          : 'customerId',
      )),
      ...(lines ? creditedLineOnInvoiceErrors(lines) : []),
    ]);
  }

  const label = (r: Pick<InvoiceRow, 'kind' | 'number'>) =>
    r.number ?? (r.kind === 'credit_note' ? 'This draft credit note' : 'This draft');

  /** Whether the issued credit notes of an invoice give back every line in full. */
  async function fullyCredited(trx: Db, invoiceId: string): Promise<boolean> {
    const r = await sql<{ left: number }>`
      select count(*)::int as left from sales_invoice_lines l
      where l.invoice_id = ${invoiceId} and l.quantity > coalesce((
        select sum(cl.quantity) from sales_invoice_lines cl join sales_invoices cn on cn.id = cl.invoice_id
        where cl.credited_line_id = l.id and cn.number is not null), 0)`.execute(trx);
    return (r.rows[0]?.left ?? 1) === 0;
  }

  return {
    list: (user: SessionUser, query: SalesInvoiceListQuery) => repo.list(scopeOf(user), query),
    all: (user: SessionUser, query: InvoiceFilters) => repo.all(scopeOf(user), query),

    async get(user: SessionUser, idOrNumber: string): Promise<SalesInvoice> {
      return detail(user, await rowOr404(scopeOf(user), idOrNumber));
    },

    async create(user: SessionUser, input: SalesInvoiceCreateParsed): Promise<SalesInvoice> {
      requireStaff(user);
      const id =
        'customerId' in input ? await createFromLines(user, input) : await createFromDossier(user, input);
      const row = await rowOr404({ all: true }, id);
      announce('created', row);
      return detail(user, row);
    },

    async update(user: SessionUser, idOrNumber: string, input: Update): Promise<SalesInvoice> {
      const { version, lines: lineInput, allowanceCharges: acInput, ...changes } = input;
      const id = await inTransaction(db, async (trx) => {
        const before = await locked(trx, user, idOrNumber, version);
        if (before.status !== 'draft')
          throw problems.conflict(`${label(before)} is issued: it cannot be edited. Credit it instead.`);
        const company = await readCompany(trx);
        const merged = { ...fieldsOf(before), ...changes } as Record<Field, unknown>;
        const currency = String(merged.currency);
        if (changes.currency !== undefined || changes.exchangeRate !== undefined)
          merged.exchangeRate = rateFor(currency, company.baseCurrency, merged.exchangeRate as string | null);
        const lines = lineInput ? storedLines(lineInput) : undefined;
        const beforeAcs = documentAllowanceCharges(before.allowance_charges);
        const allowanceCharges = acInput ? storedDocumentAcs(acInput) : beforeAcs;
        const current = lines ?? (await salesInvoicesRepository(trx).lines(before.id)).map(toLine);
        refuse('These discounts and surcharges cannot stand.', allowanceErrors(allowanceCharges, current));
        await checkDraftEdit(trx, before, changes, merged, lines, allowanceCharges);
        if (lines) await checkChargeLinks(trx, (merged.dossierId as string | null) ?? null, lines, before.id);
        const values: Record<string, unknown> = {};
        for (const f of FIELDS) if (f in changes || f === 'exchangeRate') values[COLUMNS[f]] = merged[f];
        const audit = diff(fieldsOf(before), merged, FIELDS);
        if (lines) {
          const oldLines = (await salesInvoicesRepository(trx).lines(before.id)).map(toLine);
          await salesInvoicesRepository(trx).replaceLines(before.id, lines);
          const from = oldLines.map(lineAudit);
          const to = lines.map(lineAudit);
          if (JSON.stringify(from) !== JSON.stringify(to)) audit.push({ field: 'lines', from, to });
        }
        if (acInput) {
          values.allowance_charges = JSON.stringify(allowanceCharges);
          const from = acAudit(beforeAcs);
          const to = acAudit(allowanceCharges);
          if (JSON.stringify(from) !== JSON.stringify(to))
            audit.push({ field: 'allowanceCharges', from, to });
        }
        Object.assign(
          values,
          totalColumns(totalsOf(current, merged.exchangeRate as string | null, allowanceCharges)),
        );
        await versionedUpdate(trx, {
          table: 'sales_invoices',
          id: before.id,
          version,
          values,
          actorId: user.id,
          what: 'invoice',
        });
        await writeAudit(trx, {
          kind: KIND,
          id: before.id,
          action: 'updated',
          actorId: user.id,
          changes: audit,
        });
        return before.id;
      }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
      const row = await rowOr404({ all: true }, id);
      announce('updated', row);
      return detail(user, row);
    },

    async remove(user: SessionUser, idOrNumber: string): Promise<void> {
      const before = await inTransaction(db, async (trx) => {
        const row = await locked(trx, user, idOrNumber);
        if (row.status !== 'draft')
          throw problems.conflict(`${label(row)} is issued: it stays for the books. Credit it instead.`);
        await trx.deleteFrom('sales_invoices').where('id', '=', row.id).execute();
        await auditDeletion(trx, {
          kind: KIND,
          id: row.id,
          actorId: user.id,
          field: 'customerId',
          was: row.customer_id,
        });
        return row;
      });
      announce('deleted', before);
    },

    /**
     * Issues a draft in ONE transaction: the checks the law and Peppol make (nothing written and no
     * number taken when one fails), the seller and buyer frozen, the number taken from the series of
     * the issue date's year, the dossier's charges marked invoiced, and the PDF queued. Any error
     * rolls the number back with everything else: the series has no gaps.
     */
    async issue(user: SessionUser, idOrNumber: string, input: Issue): Promise<SalesInvoice> {
      const result = await inTransaction(db, async (trx) => {
        const row = await locked(trx, user, idOrNumber, input.version);
        if (row.status !== 'draft') throw problems.conflict(`${label(row)} is issued already.`);
        const r = salesInvoicesRepository(trx);
        // Credit notes of one invoice are issued one at a time: each sees what the others gave back.
        const credited = row.credited_invoice_id
          ? await r.find({ all: true }, row.credited_invoice_id, true)
          : undefined;
        const issueDate = input.issueDate ?? todayIn();
        const [company, party, lines] = await Promise.all([
          readCompany(trx),
          partyRow(trx, row.customer_id),
          r.lines(row.id),
        ]);
        const seller = sellerOf(company);
        const buyer = buyerOf(party as PartyRow);
        const apiLines = lines.map(toLine);
        const allowanceCharges = documentAllowanceCharges(row.allowance_charges);
        const found = issueProblems({
          seller,
          buyer,
          lines: apiLines.map(mathLine),
          allowanceCharges,
          currency: row.currency,
          baseCurrency: company.baseCurrency,
          exchangeRate: row.exchange_rate,
          kind: row.kind,
          precedingInvoiceNumber: credited?.number ?? null,
          // The rates of the seller's country on the date of supply, else of issue; a credit note
          // corrects at its invoice's rates (ADR 0042).
          issueDate,
          supplyDate: row.supply_date,
          ratesDate: credited ? (credited.supply_date ?? credited.issue_date) : null,
        });
        // Issue 23: the credit within its invoice, the dates, the dossier's customer, no document of 0.00.
        if (credited)
          found.push(
            ...coded(
              await creditNoteErrors(
                trx,
                credited,
                apiLines,
                allowanceCharges,
                row.exchange_rate,
                row.id,
                false,
              ),
              'credit_exceeds_invoice',
            ),
          );
        else
          found.push(
            ...coded(
              await dossierCustomerErrors(trx, row.customer_id, row.dossier_id, 'customerId'),
              'dossier_customer',
            ),
          );
        found.push(...coded(issueDateErrors(issueDate, company.booksClosedUpTo, credited), 'issue_date'));
        // A draft stored before a rule changed, or written around the API, is judged again.
        found.push(...coded(allowanceErrors(allowanceCharges, apiLines), 'allowance_charge'));
        const totals = totalsOf(apiLines, row.exchange_rate, allowanceCharges);
        if (Number(totals.taxInclusiveAmount) === 0)
          found.push({
            field: 'lines',
            message: `A ${row.kind === 'credit_note' ? 'credit note' : 'document'} of 0.00 is not issued`,
            code: 'zero_total',
          });
        if (found.length)
          throw problems.unprocessable(
            `${label(row)} cannot be issued as it is: ${found.map((p) => p.message).join('; ')}.`,
            found.map((p) => ({ field: p.field, message: p.message, code: p.code })),
          );
        // What does not need the number is written first: the series row stays locked from taking the
        // number until commit, and every concurrent issuer waits on it, so that stretch is kept short.
        if (row.kind === 'invoice') {
          await sql`
            update dossier_charges ch set invoiced_line_id = l.id
            from sales_invoice_lines l where l.invoice_id = ${row.id} and l.charge_id = ch.id`.execute(trx);
        }
        await enqueue(trx, 'invoice.pdf', { invoiceId: row.id }, { jobKey: `invoice.pdf:${row.id}` });
        const { number } = await takeSeriesNumber(trx, row.kind, Number(issueDate.slice(0, 4)));
        refuse(
          `${label(row)} cannot be issued on ${issueDate}.`,
          await seriesOrderErrors(trx, row.kind, issueDate),
        );
        await trx
          .updateTable('sales_invoices')
          .set((eb) => ({
            number,
            status: 'issued',
            issue_date: issueDate,
            due_date: addDays(issueDate, row.kind === 'credit_note' ? 0 : row.payment_terms_days),
            seller: JSON.stringify(seller),
            buyer: JSON.stringify(buyer),
            ...totalColumns(totals),
            issued_at: new Date(),
            issued_by: user.id,
            version: eb('version', '+', 1),
            updated_at: new Date(),
            updated_by: user.id,
          }))
          .where('id', '=', row.id)
          .execute();
        if (credited) {
          const full = await fullyCredited(trx, credited.id);
          // Fully credited, the invoice is credited by its total (a last note may round 0.01s over it).
          const summed = sumDecimal([credited.credited_amount, totals.taxInclusiveAmount]);
          const creditedAmount =
            full && Number(summed) > Number(credited.tax_inclusive_amount)
              ? credited.tax_inclusive_amount
              : summed;
          const status = full
            ? 'credited'
            : paymentStatus(credited.tax_inclusive_amount, credited.paid_amount, creditedAmount);
          await trx
            .updateTable('sales_invoices')
            .set((eb) => ({
              credited_amount: creditedAmount,
              status,
              version: eb('version', '+', 1),
              updated_at: new Date(),
              updated_by: user.id,
            }))
            .where('id', '=', credited.id)
            .execute();
          // Credited in full: its charges are open again, to be invoiced anew.
          if (full)
            await sql`
              update dossier_charges ch set invoiced_line_id = null
              from sales_invoice_lines l where l.invoice_id = ${credited.id} and ch.invoiced_line_id = l.id`.execute(
              trx,
            );
          await writeAudit(trx, {
            kind: KIND,
            id: credited.id,
            action: 'credited',
            actorId: user.id,
            changes: [
              { field: 'creditNote', from: null, to: number },
              ...(status !== credited.status ? [{ field: 'status', from: credited.status, to: status }] : []),
            ],
          });
        }
        await writeAudit(trx, {
          kind: KIND,
          id: row.id,
          action: 'issued',
          actorId: user.id,
          changes: [
            { field: 'number', from: null, to: number },
            { field: 'status', from: 'draft', to: 'issued' },
            { field: 'issueDate', from: null, to: issueDate },
          ],
        });
        return { id: row.id, creditedId: credited?.id };
      }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
      const row = await rowOr404({ all: true }, result.id);
      announce('updated', row);
      if (result.creditedId) announce('updated', await rowOr404({ all: true }, result.creditedId));
      return detail(user, row);
    },

    /** A draft credit note of an issued invoice: chosen lines and quantities, or all that is left. */
    async credit(user: SessionUser, idOrNumber: string, input: CreditInput): Promise<SalesInvoice> {
      const id = await inTransaction(db, async (trx) => {
        const inv = await locked(trx, user, idOrNumber, input.version);
        if (inv.kind !== 'invoice' || !['issued', 'partially_paid', 'paid'].includes(inv.status))
          throw problems.conflict(
            inv.kind === 'credit_note'
              ? 'A credit note cannot be credited.'
              : inv.status === 'draft'
                ? 'A draft is not credited: edit or delete it.'
                : `${inv.number} is credited in full already.`,
          );
        const r = salesInvoicesRepository(trx);
        const lines = await r.lines(inv.id);
        const taken = await r.creditedQuantities(inv.id, true);
        const leftOf = (l: LineRow) => subtractDecimal(l.quantity, taken.get(l.id) ?? '0', 3);
        const byId = new Map(lines.map((l) => [l.id, l]));
        const wanted = input.lines
          ? input.lines.map((w) => ({ line: byId.get(w.lineId), quantity: w.quantity }))
          : lines
              .map((l) => ({ line: l as LineRow | undefined, quantity: leftOf(l) }))
              .filter((w) => Number(w.quantity) > 0);
        const errors = wanted.flatMap((w, i) => {
          if (!w.line) return [{ field: `lines.${i}.lineId`, message: `Not a line of ${inv.number}` }];
          const left = leftOf(w.line);
          if (Number(w.quantity) > Number(left))
            return [
              {
                field: `lines.${i}.quantity`,
                message:
                  Number(left) > 0
                    ? `Only ${trimDecimal(left)} of this line is left to credit`
                    : 'This line is credited in full already',
              },
            ];
          return [];
        });
        if (errors.length) throw problems.unprocessable(`More than ${inv.number} left to credit.`, errors);
        if (!wanted.length)
          throw problems.unprocessable(`Everything on ${inv.number} is credited already.`, [
            {
              field: 'lines',
              message: `Everything on ${inv.number} is credited already (or on a draft credit note)`,
            },
          ]);
        const creditLines: StoredLine[] = wanted.map(({ line, quantity }) => {
          const l = toLine(line as LineRow);
          return {
            creditedLineId: l.id,
            chargeCode: l.chargeCode,
            description: l.description,
            quantity,
            unit: l.unit,
            unitPrice: l.unitPrice,
            vatCode: l.vatCode,
            vatRate: l.vatRate,
            exemptionReason: l.exemptionReason,
            // ADR 0049: a line's discounts and surcharges go back with it (the rule below wants it whole).
            allowanceCharges: l.allowanceCharges,
            lineNet: lineNetWithAllowances({
              quantity,
              unitPrice: l.unitPrice,
              allowanceCharges: l.allowanceCharges,
            }),
          };
        });
        // The document's go back with the whole invoice; a part of such an invoice is refused below.
        const invoiceAcs = documentAllowanceCharges(inv.allowance_charges);
        const whole =
          creditLines.length === lines.length &&
          lines.every((l) =>
            creditLines.some((c) => c.creditedLineId === l.id && Number(c.quantity) === Number(l.quantity)),
          );
        const creditAcs = whole ? invoiceAcs : [];
        refuse(
          `More than ${inv.number} left to credit.`,
          await creditNoteErrors(trx, inv, creditLines, creditAcs, inv.exchange_rate, null, true),
        );
        return insertDraft(
          user,
          {
            kind: 'credit_note',
            customer_id: inv.customer_id,
            dossier_id: inv.dossier_id,
            credited_invoice_id: inv.id,
            currency: inv.currency,
            exchange_rate: inv.exchange_rate,
            supply_date: inv.supply_date,
            buyer_reference: inv.buyer_reference,
            order_reference: inv.order_reference,
            payment_terms_days: 0,
          },
          creditLines,
          creditAcs,
          [{ field: 'creditedInvoice', from: null, to: inv.number }],
          trx,
        );
      }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
      const row = await rowOr404({ all: true }, id);
      announce('created', row);
      return detail(user, row);
    },

    async pay(
      user: SessionUser,
      idOrNumber: string,
      input: PaymentInput | PaymentCreate,
    ): Promise<SalesInvoice> {
      const id = await inTransaction(db, async (trx) => {
        const inv = await locked(trx, user, idOrNumber);
        if (inv.kind !== 'invoice' || (inv.status !== 'issued' && inv.status !== 'partially_paid'))
          throw problems.conflict(
            inv.status === 'draft'
              ? 'Issue the invoice before recording a payment.'
              : inv.kind === 'credit_note'
                ? 'A credit note is not paid by the customer.'
                : `${inv.number} is ${inv.status.replace('_', ' ')}: nothing is open.`,
          );
        refuse(
          `${inv.number} cannot be paid on ${input.paidOn}.`,
          paymentDateErrors(inv, input.paidOn, (await readCompany(trx)).booksClosedUpTo),
        );
        const open = openAmountOf(inv);
        if (Number(input.amount) > Number(open))
          throw problems.unprocessable(`Only ${open} ${inv.currency} is open on ${inv.number}.`, [
            { field: 'amount', message: `Only ${open} ${inv.currency} is open` },
          ]);
        await trx
          .insertInto('sales_invoice_payments')
          .values({
            invoice_id: inv.id,
            paid_on: input.paidOn,
            amount: String(input.amount),
            reference: input.reference ?? null,
            created_by: user.id,
          })
          .execute();
        await settlePaid(
          trx,
          user,
          inv,
          sumDecimal([inv.paid_amount, String(input.amount)]),
          'payment recorded',
          [
            {
              field: 'payment',
              from: null,
              to: `${input.amount} ${inv.currency} on ${input.paidOn}${input.reference ? ` (${input.reference})` : ''}`,
            },
          ],
        );
        return inv.id;
      }).catch((e: unknown) => pgConstraintProblem(e, REFERENCES));
      const row = await rowOr404({ all: true }, id);
      announce('updated', row);
      return detail(user, row);
    },

    /** Removes the last payment (a wrong entry): its row stays, marked, with the reason. */
    async removePayment(
      user: SessionUser,
      idOrNumber: string,
      paymentId: string,
      reason: string,
    ): Promise<SalesInvoice> {
      const id = await inTransaction(db, async (trx) => {
        const inv = await locked(trx, user, idOrNumber);
        const payments = await salesInvoicesRepository(trx).payments(inv.id);
        const payment = payments.find((p) => p.id === paymentId);
        if (!payment) throw problems.notFound('This invoice has no such payment.');
        if (payments.at(-1)?.id !== paymentId)
          throw problems.conflict('Only the last payment can be removed: remove the later ones first.', [
            { field: 'paymentId', message: 'Not the last payment' },
          ]);
        if (inv.status === 'credited')
          throw problems.conflict(`${inv.number} is credited: its payments stay as they are.`);
        const closed = (await readCompany(trx)).booksClosedUpTo;
        if (closed && payment.paidOn <= closed)
          throw problems.unprocessable(`The books are closed up to ${closed}.`, [
            { field: 'paymentId', message: `The books are closed up to ${closed}: this payment stays` },
          ]);
        await trx
          .updateTable('sales_invoice_payments')
          .set({ deleted_at: new Date(), deleted_by: user.id, delete_reason: reason })
          .where('id', '=', paymentId)
          .execute();
        await settlePaid(
          trx,
          user,
          inv,
          subtractDecimal(inv.paid_amount, payment.amount),
          'payment removed',
          [
            { field: 'payment', from: `${payment.amount} ${inv.currency} on ${payment.paidOn}`, to: null },
            { field: 'reason', from: null, to: reason },
          ],
        );
        return inv.id;
      });
      const row = await rowOr404({ all: true }, id);
      announce('updated', row);
      return detail(user, row);
    },

    /** A customer's history starts at the issue: the drafting (and a draft's other customer) is the forwarder's. */
    async history(user: SessionUser, idOrNumber: string) {
      const row = await rowOr404(scopeOf(user), idOrNumber);
      const scope = scopeOf(user);
      const entries = await historyOf(
        db,
        KIND,
        row.id,
        { scope, visibility: salesInvoiceFieldVisibility },
        {
          customerId: 'party',
        },
      );
      if (scope.all) return entries;
      const issued = entries.findIndex((e) => e.action === 'issued');
      return issued < 0 ? [] : entries.slice(0, issued + 1);
    },

    /** The record as a renderer needs it (the PDF job, UBL), seen as staff. */
    async asStaff(idOrNumber: string): Promise<SalesInvoice | undefined> {
      const row = await repo.find({ all: true }, idOrNumber);
      return row ? detail({ all: true }, row) : undefined;
    },

    /**
     * Tells the handler of each invoice that turned overdue (or all staff when it has no dossier or
     * handler), once per invoice: the scheduled job `invoices.mark-overdue`. Rows are claimed with
     * SKIP LOCKED, so two nodes running it at once notify each invoice once.
     */
    async markOverdue(): Promise<number> {
      const deliveries: NotificationDelivery[] = [];
      const count = await inTransaction(db, async (trx) => {
        const due = await sql<{
          id: string;
          number: string;
          dossier_id: string | null;
          customer_name: string;
          currency: string;
          due_date: string;
          kind: 'invoice';
          tax_inclusive_amount: string;
          paid_amount: string;
          credited_amount: string;
        }>`
          select i.id, i.number, i.dossier_id, c.name as customer_name, trim(i.currency) as currency, i.due_date,
            i.kind, i.tax_inclusive_amount::text, i.paid_amount::text, i.credited_amount::text
          from sales_invoices i join parties c on c.id = i.customer_id
          where i.kind = 'invoice' and i.status in ('issued', 'partially_paid')
            and i.due_date < ${todayIn()}::date and i.overdue_notified_at is null
          order by i.due_date, i.id
          limit 500
          for update of i skip locked`.execute(trx);
        for (const inv of due.rows) {
          deliveries.push(
            ...(await insertNotifications(
              trx,
              inv.dossier_id ? recipients.handlerOrStaff(inv.dossier_id) : recipients.staff(),
              {
                kind: 'invoice-overdue',
                title: `Invoice ${inv.number} is overdue`,
                body: `${inv.customer_name} has ${openAmountOf(inv)} ${inv.currency} open, due ${printDate(inv.due_date)}.`,
                link: `/sales-invoices/${inv.number}`,
                dossierId: inv.dossier_id,
              },
              NOBODY,
            )),
          );
        }
        if (due.rows.length)
          await trx
            .updateTable('sales_invoices')
            .set({ overdue_notified_at: new Date() })
            .where(
              'id',
              'in',
              due.rows.map((r) => r.id),
            )
            .execute();
        return due.rows.length;
      });
      notices.publish(newSignals(deliveries));
      return count;
    },
  };
}
export type SalesInvoicesService = ReturnType<typeof salesInvoicesService>;
