import type { DashboardCardName } from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Scope } from '../../records/scope.ts';
import { dayStart } from '../../records/time-zone.ts';
import { COMPANY_TIME_ZONE } from '../sales-invoices/sales-invoices.repository.ts';

/*
 * The dashboard's SQL, one query per card, each answering in a few milliseconds at a million dossiers
 * (ADR 0037): counts by status and invoice sums come from `dashboard_counts`/`dashboard_totals` (kept by
 * triggers, migration 0026, whose conditions mirror the lists' filters), this week's transports and the
 * last 24 h of container events from a range scan of an index with the list's own WHERE.
 */

export type CountedArea = 'dossiers' | 'declarations' | 'stock' | 'shipments' | 'open-invoices' | 'revenue';

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

/** Counts per key: one party's rows of `dashboard_counts`, or the sharded totals over every party. */
function countsByKey(
  area: CountedArea,
  keys: readonly string[],
  scope: Scope,
): RawBuilder<{ key: string; n: number }> {
  return sql<{ key: string; n: number }>`
    select key, sum(n)::int as n from ${scope.all ? sql`dashboard_totals` : sql`dashboard_counts`}
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
  },
): Record<DashboardCardName, RawBuilder<Record<string, unknown>>> {
  const customer = (col: string) => (scope.all ? sql`` : sql`and ${sql.raw(col)} = ${scope.partyId}`);
  const counted = scope.all ? sql`dashboard_totals` : sql`dashboard_counts`;
  const party = scope.all ? sql`` : sql`and party_id = ${scope.partyId}`;
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
    // The overdue list's rows (OVERDUE: open invoices due before the company's today), per currency.
    invoices: sql`
      select key, sum(n)::int as n, sum(amount)::numeric(18, 2)::text as amount
      from ${counted}
      where area = 'open-invoices' and day < (now() at time zone ${sql.lit(COMPANY_TIME_ZONE)})::date ${party}
      group by key`,
    // Numbered invoices less credit notes by week of this month, in base currency.
    revenue: sql`
      select to_char(greatest(date_trunc('week', day)::date, ${w.monthFrom}::date), 'YYYY-MM-DD') as key,
        sum(n)::int as n, sum(amount)::numeric(18, 2)::text as amount
      from ${counted}
      where area = 'revenue' and day >= ${w.monthFrom}::date and day <= ${w.monthTo}::date ${party}
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

/**
 * Recounts `dashboard_counts`/`dashboard_totals` from the tables (migration 0026's function): after a
 * bulk load that ran with triggers off (session_replication_role = replica), e.g. seed-scale.
 */
export async function rebuildDashboardCounts(db: Db): Promise<void> {
  await sql`select dashboard_counts_rebuild()`.execute(db);
}
