import {
  type Company,
  type companyUpdateSchema,
  formatSeriesNumber,
  issueParams,
  NO_INTERNAL_FIELDS,
  SERIES_KINDS,
  type Series,
  type SeriesKind,
} from '@fvg/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { problems } from '../../http/problem.ts';
import { diff, historyOf, writeAudit } from '../../records/audit.ts';
import { columnsOf } from '../../records/mutation.ts';
import { requireAdmin, requireStaff, scopeOf } from '../../records/scope.ts';
import type { SessionUser } from '../users/users.repository.ts';

type Update = z.output<typeof companyUpdateSchema>;

/** The fixed id of the one row (migration 0016), under which the audit trail files its history. */
export const COMPANY_ID = '00000000-0000-0000-0000-00000000c0de';

/** API field → column. The audit trail records API field names. */
const COLUMNS = columnsOf([
  'legalName',
  'street',
  'postalCode',
  'city',
  'countryCode',
  'vatNumber',
  'eori',
  'registrationNumber',
  'iban',
  'bic',
  'email',
  'peppolScheme',
  'peppolId',
  'baseCurrency',
  'paymentTermsDays',
  'invoiceFooter',
  'gs1CompanyPrefix',
  'ssccExtensionDigit',
  'booksClosedUpTo',
]);
const FIELDS = Object.keys(COLUMNS) as (keyof typeof COLUMNS)[];

/** The calendar year numbers are counted in (UTC, as the issue dates are). */
export const currentYear = () => new Date().getUTCFullYear();

/** Today in the company's zone (the forwarder is Dutch; company settings have no zone of their own yet). */
function todayIn(zone = 'Europe/Amsterdam', now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** A series as the audit trail names it: `series.invoice.2026`. */
const seriesField = (kind: string, year: number) => `series.${kind}.${year}`;

export async function readCompany(db: Db, year = currentYear()): Promise<Company> {
  const row = await db.selectFrom('company_settings').selectAll().executeTakeFirstOrThrow();
  const series = await sql<{
    kind: SeriesKind;
    prefix: string;
    next_number: number | null;
    last_issued: number | null;
  }>`
    select s.kind, s.prefix, y.next_number, y.last_issued
    from document_series s
    left join document_series_years y on y.kind = s.kind and y.year = ${year}`.execute(db);
  const byKind = new Map(series.rows.map((r) => [r.kind, r]));
  return {
    legalName: row.legal_name,
    street: row.street,
    postalCode: row.postal_code,
    city: row.city,
    countryCode: row.country_code,
    vatNumber: row.vat_number,
    eori: row.eori,
    registrationNumber: row.registration_number,
    iban: row.iban,
    bic: row.bic,
    email: row.email,
    peppolScheme: row.peppol_scheme,
    peppolId: row.peppol_id,
    baseCurrency: row.base_currency,
    paymentTermsDays: row.payment_terms_days,
    invoiceFooter: row.invoice_footer,
    gs1CompanyPrefix: row.gs1_company_prefix,
    ssccExtensionDigit: row.sscc_extension_digit,
    booksClosedUpTo: row.books_closed_up_to,
    // In the order of SERIES_KINDS, so every screen lists them alike.
    series: SERIES_KINDS.flatMap((kind): Series[] => {
      const r = byKind.get(kind);
      if (!r) return [];
      return [
        { kind, prefix: r.prefix, year, nextNumber: r.next_number ?? 1, lastIssued: r.last_issued ?? 0 },
      ];
    }),
    version: row.version,
    updatedAt: row.updated_at.toISOString(),
  };
}

export function companyService(db: Db) {
  return {
    /** Staff and admins; a customer sees the company only as printed on their documents. */
    async get(user: SessionUser): Promise<Company> {
      requireStaff(user);
      return readCompany(db);
    },

    async update(user: SessionUser, input: Update): Promise<Company> {
      requireStaff(user);
      requireAdmin(user);
      const { version, series, ...fields } = input;
      const year = currentYear();
      await inTransaction(db, async (trx) => {
        // The row lock orders concurrent saves; the version check then refuses the later one.
        const locked = await sql<{ version: number }>`
          select version from company_settings for update`.execute(trx);
        const current = locked.rows[0]?.version ?? 0;
        if (current !== version) {
          throw problems.conflict(
            `The company settings were changed by someone else since you opened them (you had version ${version}, they are now at ${current}). Reload them to see their changes, then apply yours again.`,
            [{ field: 'version', message: `Stale version ${version}; current is ${current}` }],
          );
        }
        const before = await readCompany(trx, year);
        const after = { ...before, ...fields } as Record<string, unknown>;
        if (Boolean(after.peppolScheme) !== Boolean(after.peppolId)) {
          const field = after.peppolScheme ? 'peppolId' : 'peppolScheme';
          throw problems.validation([
            {
              field,
              message: after.peppolScheme
                ? 'Enter the endpoint id that goes with the scheme'
                : 'Choose the scheme of the endpoint id',
              code: 'peppol_endpoint',
              params: issueParams('peppol_endpoint'),
            },
          ]);
        }
        if (fields.booksClosedUpTo && fields.booksClosedUpTo > todayIn())
          throw problems.unprocessable('The books cannot be closed for days still to come.', [
            { field: 'booksClosedUpTo', message: 'Close the books up to today at the latest' },
          ]);
        const changes = diff(
          before as unknown as Record<string, unknown>,
          fields as Record<string, unknown>,
          FIELDS,
        );
        if (series?.length) changes.push(...(await saveSeries(trx, series, year)));

        const values: Record<string, unknown> = {};
        for (const f of FIELDS) if (fields[f] !== undefined) values[COLUMNS[f]] = fields[f];
        await trx
          .updateTable('company_settings')
          .set((eb) => ({
            ...(values as object),
            version: eb('version', '+', 1),
            updated_at: new Date(),
            updated_by: user.id,
          }))
          .execute();
        await writeAudit(trx, {
          kind: 'company',
          id: COMPANY_ID,
          action: 'updated',
          actorId: user.id,
          changes,
        });
      });
      return readCompany(db);
    },

    async history(user: SessionUser) {
      requireStaff(user);
      return historyOf(db, 'company', COMPANY_ID, { scope: scopeOf(user), visibility: NO_INTERNAL_FIELDS });
    },
  };
}
export type CompanyService = ReturnType<typeof companyService>;

/**
 * Writes the prefixes and next numbers given, refusing a next number at or below the last one issued
 * that year (numbers already on documents would be given out twice). The rows are locked while read,
 * so an issue running at the same time either comes before (and is seen) or waits.
 */
async function saveSeries(
  trx: Db,
  series: NonNullable<Update['series']>,
  year: number,
): Promise<{ field: string; from: unknown; to: unknown }[]> {
  const changes: { field: string; from: unknown; to: unknown }[] = [];
  const errors: {
    field: string;
    message: string;
    code?: string;
    params?: Record<string, string | number>;
  }[] = [];
  // Issue 23 item 7: a next number changes with a reason, kept in the history (422 without).
  const reasons: { field: string; message: string }[] = [];
  const prefixes = new Map(
    (await trx.selectFrom('document_series').select(['kind', 'prefix']).execute()).map((r) => [
      r.kind,
      r.prefix,
    ]),
  );
  for (const [i, s] of series.entries()) {
    const y = s.year ?? year;
    const row = (
      await sql<{ next_number: number; last_issued: number }>`
        select next_number, last_issued from document_series_years
        where kind = ${s.kind} and year = ${y} for update`.execute(trx)
    ).rows[0];
    const lastIssued = row?.last_issued ?? 0;
    const nextNumber = row?.next_number ?? 1;
    if (s.nextNumber <= lastIssued) {
      errors.push({
        field: `series.${i}.nextNumber`,
        message: `Number ${lastIssued} of ${y} is already issued; the next number must be ${lastIssued + 1} or more`,
        code: 'series_below_issued',
        params: issueParams('series_below_issued', { lastIssued, year: y }),
      });
      continue;
    }
    if (s.nextNumber !== nextNumber && !s.reason) {
      reasons.push({
        field: `series.${i}.reason`,
        message: `Say why the next number of ${y} changes from ${nextNumber} to ${s.nextNumber}`,
      });
      continue;
    }
    if (s.nextNumber !== nextNumber) {
      await sql`
        insert into document_series_years (kind, year, next_number) values (${s.kind}, ${y}, ${s.nextNumber})
        on conflict (kind, year) do update set next_number = excluded.next_number`.execute(trx);
      changes.push(
        { field: `${seriesField(s.kind, y)}.nextNumber`, from: nextNumber, to: s.nextNumber },
        { field: `${seriesField(s.kind, y)}.reason`, from: null, to: s.reason },
      );
    }
    const prefix = prefixes.get(s.kind);
    if (prefix !== s.prefix) {
      await trx.updateTable('document_series').set({ prefix: s.prefix }).where('kind', '=', s.kind).execute();
      changes.push({ field: `series.${s.kind}.prefix`, from: prefix ?? null, to: s.prefix });
      prefixes.set(s.kind, s.prefix);
    }
  }
  if (errors.length) throw problems.validation(errors);
  if (reasons.length)
    throw problems.unprocessable('A series’ next number changes only with a reason.', reasons);
  return changes;
}

/**
 * The next number of a series for a year, taken inside the caller's transaction (issuing an invoice,
 * sending an offer): the row stays locked until commit, so concurrent takers queue and a rollback gives
 * the number back — consecutive, no gap, no duplicate. The year's row is made on first use.
 */
export async function takeSeriesNumber(
  trx: Db,
  kind: SeriesKind,
  year: number,
): Promise<{ value: number; number: string }> {
  const take = () =>
    sql<{ value: number; prefix: string }>`
    update document_series_years y
    set next_number = y.next_number + 1, last_issued = y.next_number
    from document_series s
    where y.kind = ${kind} and y.year = ${year} and s.kind = y.kind
    returning y.last_issued as value, s.prefix`.execute(trx);
  // One statement while the year's row exists (every issue but the year's first one): the row lock is
  // what concurrent issuers queue on, so nothing else runs before it.
  let row = (await take()).rows[0];
  if (!row) {
    await sql`
      insert into document_series_years (kind, year, next_number) values (${kind}, ${year}, 1)
      on conflict (kind, year) do nothing`.execute(trx);
    row = (await take()).rows[0];
  }
  if (!row) throw new Error(`number series ${kind} does not exist`);
  return { value: row.value, number: formatSeriesNumber(row.prefix, year, row.value) };
}
