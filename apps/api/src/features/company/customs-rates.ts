import {
  addMonths,
  CUSTOMS_RATE_ZONE,
  type CustomsRatesOfMonth,
  customsMonthOf,
  monthName,
  trimDecimal,
} from '@fvg/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { problems } from '../../http/problem.ts';
import { writeAudit } from '../../records/audit.ts';
import { requireStaff } from '../../records/scope.ts';
import type { SessionUser } from '../users/users.repository.ts';
import { COMPANY_ID } from './company.service.ts';

export { customsMonthOf } from '@fvg/contracts';

/** `2026-11` → the stored first day `2026-11-01`. */
const firstDay = (month: string) => `${month}-01`;

/**
 * The company's customs rate for a currency in a month, or null when it keeps none (the lodging rules'
 * `customsRate`, the prefills' default rate).
 */
export async function customsRateOf(db: Db, currency: string, month: string): Promise<string | null> {
  const row = await db
    .selectFrom('customs_exchange_rates')
    .select('rate')
    .where('currency', '=', currency.toUpperCase())
    .where('month', '=', firstDay(month))
    .executeTakeFirst();
  return row ? trimDecimal(row.rate) : null;
}

/** One cell's change in the company's history, as field `customsRates.2026-11.USD`. */
function audit(
  trx: Db,
  user: SessionUser,
  month: string,
  currency: string,
  from: string | null,
  to: string | null,
) {
  return writeAudit(trx, {
    kind: 'company',
    id: COMPANY_ID,
    action: 'updated',
    actorId: user.id,
    changes: [{ field: `customsRates.${month}.${currency}`, from, to }],
  });
}

export function customsRatesService(db: Db) {
  async function ofMonth(month: string): Promise<CustomsRatesOfMonth> {
    const rows = await sql<{ currency: string; rate: string; updated_at: Date; updated_by: string | null }>`
      select r.currency, r.rate::text as rate, r.updated_at, u.name as updated_by
      from customs_exchange_rates r left join users u on u.id = r.updated_by
      where r.month = ${firstDay(month)}::date
      order by r.currency`.execute(db);
    const before = await db
      .selectFrom('customs_exchange_rates')
      .select('currency')
      .where('month', '=', firstDay(addMonths(month, -1)))
      .orderBy('currency')
      .execute();
    const have = new Set(rows.rows.map((r) => r.currency));
    return {
      month,
      rates: rows.rows.map((r) => ({
        currency: r.currency,
        rate: trimDecimal(r.rate),
        updatedAt: r.updated_at.toISOString(),
        updatedBy: r.updated_by,
      })),
      missingFromLastMonth: before.map((r) => r.currency).filter((c) => !have.has(c)),
    };
  }

  return {
    /** Staff: the rates of a month (the current one when none is asked for). */
    async list(user: SessionUser, month = customsMonthOf()): Promise<CustomsRatesOfMonth> {
      requireStaff(user);
      return ofMonth(month);
    },

    /** Staff set a month's rate for a currency (new or corrected); the company's history keeps each change. */
    async put(
      user: SessionUser,
      month: string,
      currency: string,
      rate: string,
    ): Promise<CustomsRatesOfMonth> {
      requireStaff(user);
      await inTransaction(db, async (trx) => {
        const was = await customsRateOf(trx, currency, month);
        const now = trimDecimal(rate);
        if (was === now) return;
        await sql`
          insert into customs_exchange_rates (month, currency, rate, updated_by)
          values (${firstDay(month)}::date, ${currency}, ${rate}, ${user.id})
          on conflict (month, currency) do update
          set rate = excluded.rate, updated_at = now(), updated_by = excluded.updated_by`.execute(trx);
        await audit(trx, user, month, currency, was, now);
      });
      return ofMonth(month);
    },

    /**
     * Staff remove a rate typed by mistake, as long as no declaration was converted at it: the ones lodged
     * that month in that currency keep it as their record of the conversion (correct it instead).
     */
    async remove(user: SessionUser, month: string, currency: string): Promise<CustomsRatesOfMonth> {
      requireStaff(user);
      await inTransaction(db, async (trx) => {
        const was = await customsRateOf(trx, currency, month);
        if (was === null)
          throw problems.notFound(
            `There is no customs exchange rate for ${currency} in ${monthName(month)}.`,
          );
        const used = await sql<{ lrn: string }>`
          select lrn from declarations
          where upper(currency) = ${currency} and lodged_at is not null
            and to_char(lodged_at at time zone ${CUSTOMS_RATE_ZONE}, 'YYYY-MM') = ${month}
          order by lodged_at limit 3`.execute(trx);
        if (used.rows.length)
          throw problems.conflict(
            `Declarations lodged in ${monthName(month)} were converted at this rate (${used.rows
              .map((r) => r.lrn)
              .join(', ')}${used.rows.length === 3 ? ', …' : ''}); correct the rate instead of removing it.`,
            [{ field: 'currency', message: `${currency} of ${monthName(month)} is in use` }],
          );
        await trx
          .deleteFrom('customs_exchange_rates')
          .where('month', '=', firstDay(month))
          .where('currency', '=', currency)
          .execute();
        await audit(trx, user, month, currency, was, null);
      });
      return ofMonth(month);
    },
  };
}
export type CustomsRatesService = ReturnType<typeof customsRatesService>;
