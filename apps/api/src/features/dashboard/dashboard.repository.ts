import type { DashboardCardName } from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Scope } from '../../records/scope.ts';
import { dayStart } from '../../records/time-zone.ts';
import { OVERDUE } from '../sales-invoices/sales-invoices.repository.ts';

/*
 * The dashboard's SQL, one query per card, each answering in a few milliseconds at a million dossiers
 * (ADR 0037): counts by status come from `dashboard_counts` (kept by triggers, migration 0026), figures
 * over a window from a range scan of an index. Every WHERE mirrors the list the figure links to.
 */

export type CountedArea = 'dossiers' | 'declarations' | 'stock' | 'shipments';

/** The parameters a card's query needs (all computed by the service, so the links use the same values). */
export interface CardWindow {
  tz: string;
  /** Transports: Monday of this week and the Monday after, days in `tz`. */
  weekFrom: string;
  /** Revenue: the first and last day of this month in `tz`. */
  monthFrom: string;
  monthTo: string;
  /** Container events: the last 24 hours, as instants. */
  since: string;
  until: string;
}

/** Rows of `dashboard_counts` per key, for one party or summed over all. */
function countsByKey(area: CountedArea, keys: readonly string[], scope: Scope): RawBuilder<{ key: string; n: number }> {
  return sql<{ key: string; n: number }>`
    select key, sum(n)::int as n from dashboard_counts
    where area = ${area} and key = any(${keys as string[]}::text[])
      ${scope.all ? sql`` : sql`and party_id = ${scope.partyId}`}
    group by key`;
}

/**
 * Every card's query as SQL, for EXPLAIN and the benchmark (bench/dashboard.ts runs these next to the
 * HTTP endpoints). `keys` are the statuses the card counts.
 */
export function cardQueries(
  scope: Scope,
  w: CardWindow,
  keys: {
    dossiers: readonly string[];
    declarations: readonly string[];
    stock: readonly string[];
    shipments: readonly string[];
    transports: readonly string[];
    invoices: readonly string[];
  },
): Record<DashboardCardName, RawBuilder<Record<string, unknown>>> {
  const customer = (col: string) => (scope.all ? sql`` : sql`and ${sql.raw(col)} = ${scope.partyId}`);
  return {
    dossiers: countsByKey('dossiers', keys.dossiers, scope),
    declarations: countsByKey('declarations', keys.declarations, scope),
    stock: countsByKey('stock', keys.stock, scope),
    shipments: countsByKey('shipments', keys.shipments, scope),
    // This week's legs by pickup day in the zone (transports_pickup (pickup_from, id) range).
    transports: sql`
      select to_char((t.pickup_from at time zone ${w.tz})::date, 'YYYY-MM-DD') as key, count(*)::int as n
      from transports t ${scope.all ? sql`` : sql`join dossiers d on d.id = t.dossier_id`}
      where t.pickup_from >= ${dayStart(w.weekFrom, w.tz)} and t.pickup_from < ${dayStart(w.weekFrom, w.tz, 7)}
        and t.status = any(${keys.transports as string[]}::text[]) ${customer('d.customer_id')}
      group by 1`,
    // The overdue list's own predicate; count and open amount per currency (sales_invoices_dashboard_open).
    invoices: sql`
      select i.currency as key, count(*)::int as n,
        sum(greatest(i.tax_inclusive_amount - i.paid_amount - i.credited_amount, 0))::numeric(18, 2)::text as amount
      from sales_invoices i
      where ${OVERDUE} ${scope.all ? sql`` : sql`and i.customer_id = ${scope.partyId} and i.number is not null`}
      group by i.currency`,
    // Numbered invoices less credit notes by week of this month, in base currency, each document rounded
    // to cents as its own base amount is (sales_invoices_dashboard_issued).
    revenue: sql`
      select to_char(greatest(date_trunc('week', i.issue_date)::date, ${w.monthFrom}::date), 'YYYY-MM-DD') as key,
        count(*)::int as n,
        coalesce(sum(round(i.line_extension_amount * coalesce(i.exchange_rate, 1), 2)
          * case when i.kind = 'credit_note' then -1 else 1 end), 0)::numeric(18, 2)::text as amount
      from sales_invoices i
      where i.number is not null and i.status = any(${keys.invoices as string[]}::text[])
        and i.issue_date >= ${w.monthFrom}::date and i.issue_date <= ${w.monthTo}::date
        ${customer('i.customer_id')}
      group by 1`,
    // Containers whose latest event fell in the window, by its DCSA type (container_summaries_last_event).
    'container-events': sql`
      select s.latest_event_type as key, count(*)::int as n
      from container_summaries s ${scope.all ? sql`` : sql`join dossiers d on d.id = s.dossier_id`}
      where s.latest_event_date_time >= ${w.since}::timestamptz and s.latest_event_date_time <= ${w.until}::timestamptz
        ${customer('d.customer_id')}
      group by 1`,
  };
}

export interface KeyCount {
  key: string;
  n: number;
  amount?: string;
}

export function dashboardRepository(db: Db) {
  return {
    run: async (query: RawBuilder<Record<string, unknown>>): Promise<KeyCount[]> =>
      (await query.execute(db)).rows as unknown as KeyCount[],
    baseCurrency: async (): Promise<string> => {
      const row = await db.selectFrom('company_settings').select('base_currency').executeTakeFirst();
      return row?.base_currency ?? 'EUR';
    },
  };
}
