import {
  type Charge,
  type chargeInputSchema,
  chargeUnits,
  type Dossier,
  type DossierListItem,
  type DossierListQuery,
  dossierFieldVisibility,
  multiplyDecimal,
  type PartyRef,
  trimDecimal,
} from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { defineListSpec, type Filters, filter, type ListSource, listReader } from '../../records/list.ts';
import type { Scope } from '../../records/scope.ts';

/**
 * The chat messages of a dossier a viewer may read (ADR 0044): staff all, a customer only what was said
 * to or by their own party (`party_id`, the dossier's customer when the message was written), so a
 * dossier given to another customer does not hand its earlier conversation over.
 */
export function chatVisibleTo(scope: Scope, alias = 'm'): RawBuilder<unknown> {
  return scope.all ? sql`true` : sql`${sql.ref(`${alias}.party_id`)} = ${scope.partyId}`;
}

export interface DossierRow {
  id: string;
  number: string;
  status: Dossier['status'];
  type: Dossier['type'];
  mode: Dossier['mode'];
  customer_id: string;
  customer_code: string;
  customer_name: string;
  consignor_id: string | null;
  consignee_id: string | null;
  notify_party_id: string | null;
  incoterm: string | null;
  incoterm_place: string | null;
  origin_locode: string | null;
  destination_locode: string | null;
  etd: string | null;
  eta: string | null;
  atd: string | null;
  ata: string | null;
  customer_reference: string | null;
  booking_number: string | null;
  master_bl: string | null;
  house_bl: string | null;
  cmr_number: string | null;
  cargo_description: string | null;
  packages: number | null;
  package_type: string | null;
  gross_weight_kg: string | null;
  volume_m3: string | null;
  chargeable_weight_kg: string | null;
  handler_id: string | null;
  handler_name: string | null;
  containers: Dossier['containers'];
  cost_total: string;
  revenue_total: string;
  profit: string;
  version: number;
  created_at: Date;
  created_by: string | null;
  created_by_name: string | null;
  /** The sales offer whose acceptance created the dossier (detail reads only). */
  offer?: { id: string; number: string } | null;
  updated_at: Date;
}

export function toListItem(r: DossierRow): DossierListItem {
  return {
    id: r.id,
    number: r.number,
    status: r.status,
    type: r.type,
    mode: r.mode,
    customer: { id: r.customer_id, code: r.customer_code, name: r.customer_name },
    originLocode: r.origin_locode,
    destinationLocode: r.destination_locode,
    etd: r.etd,
    eta: r.eta,
    customerReference: r.customer_reference,
    masterBl: r.master_bl,
    containerCount: r.containers.length,
    profit: r.profit,
    handler: r.handler_id && r.handler_name ? { id: r.handler_id, name: r.handler_name } : null,
    updatedAt: r.updated_at.toISOString(),
  };
}

const FROM = sql`dossiers d join parties c on c.id = d.customer_id left join users h on h.id = d.handler_id`;
const SELECT = sql`d.*, c.code as customer_code, c.name as customer_name, h.name as handler_name`;
/** The same expression as the trigram index `dossiers_search_trgm`, so `q` is served by it. */
const SEARCH = sql`(d.number || ' ' || coalesce(d.customer_reference, '') || ' ' || coalesce(d.booking_number, '') || ' ' || coalesce(d.master_bl, '') || ' ' || coalesce(d.house_bl, '') || ' ' || coalesce(d.cmr_number, ''))`;

export const dossierListSpec = defineListSpec({
  name: 'dossiers',
  visibility: dossierFieldVisibility,
  from: FROM,
  id: { expr: 'd.id', type: 'uuid', nullable: false },
  sortable: {
    number: { expr: 'd.number', type: 'text', nullable: false },
    status: { expr: 'd.status', type: 'text', nullable: false },
    etd: { expr: 'd.etd', type: 'date', nullable: true },
    eta: { expr: 'd.eta', type: 'date', nullable: true },
    createdAt: { expr: 'd.created_at', type: 'timestamptz', nullable: false },
    updatedAt: { expr: 'd.updated_at', type: 'timestamptz', nullable: false },
    customer: { expr: 'c.name', type: 'text', nullable: false },
    profit: { expr: 'd.profit', type: 'numeric', nullable: false },
  },
  defaultSort: '-updatedAt',
  filterFields: { profitMin: 'profit', profitMax: 'profit' },
  search: SEARCH,
  searchFields: ['number', 'customerReference', 'bookingNumber', 'masterBl', 'houseBl', 'cmrNumber'],
  searchPrefix: (q) => {
    const prefix = `${q.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql`(${sql.join(
      ['number', 'customer_reference', 'booking_number', 'master_bl', 'house_bl', 'cmr_number'].map(
        (c) => sql`upper(${sql.ref(`d.${c}`)}) like ${prefix}`,
      ),
      sql` or `,
    )})`;
  },
  // Every dossier has exactly one customer and at most one handler: counting needs no joins.
  countFrom: sql`dossiers d`,
});

const dossierFilters: Filters<DossierListQuery> = {
  status: filter.anyOf('d.status'),
  type: filter.anyOf('d.type'),
  mode: filter.anyOf('d.mode'),
  customerId: filter.equals('d.customer_id'),
  handlerId: filter.equals('d.handler_id'),
  originLocode: filter.equals('d.origin_locode'),
  destinationLocode: filter.equals('d.destination_locode'),
  etdFrom: filter.atLeast('d.etd', 'date'),
  etdTo: filter.atMost('d.etd', 'date'),
  container: (c) => sql`d.container_numbers @> array[${c}]::text[]`,
  profitMin: filter.atLeast('d.profit', 'numeric'),
  profitMax: filter.atMost('d.profit', 'numeric'),
};

const dossierList: ListSource<DossierListQuery, DossierRow, DossierListItem> = {
  spec: dossierListSpec,
  select: SELECT,
  scope: (scope) => (scope.all ? [] : [sql`d.customer_id = ${scope.partyId}`]),
  filters: dossierFilters,
  map: toListItem,
};

export function dossiersRepository(db: Db) {
  const list = listReader(db, dossierList);
  return {
    list: list.page,
    all: list.all,

    /**
     * Per dossier, the chat messages from others that `userId` has not read: one grouped query for
     * a whole page (served by the chat's (dossier_id, sent_at) index). Dossiers without any are absent.
     */
    async unreadMessages(scope: Scope, userId: string, dossierIds: string[]): Promise<Map<string, number>> {
      if (dossierIds.length === 0) return new Map();
      const r = await sql<{ dossier_id: string; n: number }>`
        select m.dossier_id, count(*)::int as n
        from chat_messages m
        left join chat_reads r on r.dossier_id = m.dossier_id and r.user_id = ${userId}
        where m.dossier_id = any(${dossierIds}::uuid[]) and m.author_id <> ${userId} and ${chatVisibleTo(scope)}
          and m.sent_at > coalesce(r.last_read_at, '-infinity')
        group by m.dossier_id`.execute(db);
      return new Map(r.rows.map((x) => [x.dossier_id, x.n]));
    },

    /** One dossier by id or by number, within scope. */
    async find(scope: Scope, idOrNumber: string, lock = false): Promise<DossierRow | undefined> {
      const byId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrNumber);
      const r = await sql<DossierRow>`
        select ${SELECT}, u.name as created_by_name,
          (select json_build_object('id', so.id, 'number', so.number) from sales_offers so
            where so.dossier_id = d.id
              -- The offer was made to a party: after a move a customer sees it only if it was theirs (ADR 0044).
              ${scope.all ? sql`` : sql`and so.customer_id = ${scope.partyId}`}) as offer
        from ${FROM} left join users u on u.id = d.created_by
        where ${byId ? sql`d.id = ${idOrNumber}` : sql`d.number = ${idOrNumber}`}
          ${scope.all ? sql`` : sql`and d.customer_id = ${scope.partyId}`}
        ${lock ? sql`for update of d` : sql``}`.execute(db);
      return r.rows[0];
    },

    async charges(dossierId: string): Promise<Charge[]> {
      const rows = await db
        .selectFrom('dossier_charges as ch')
        .leftJoin('parties as p', 'p.id', 'ch.party_id')
        .select([
          'ch.id',
          'ch.kind',
          'ch.charge_code',
          'ch.quantity',
          'ch.unit',
          'ch.unit_price',
          'ch.description',
          'ch.amount',
          'ch.currency',
          'ch.exchange_rate',
          'ch.base_amount',
          'p.id as party_id',
          'p.code as party_code',
          'p.name as party_name',
        ])
        .where('ch.dossier_id', '=', dossierId)
        .orderBy('ch.position')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        chargeCode: r.charge_code as Charge['chargeCode'],
        quantity: r.quantity === null ? null : trimDecimal(String(r.quantity)),
        unit: r.unit as Charge['unit'],
        unitPrice: r.unit_price === null ? null : trimDecimal(String(r.unit_price)),
        description: r.description,
        party:
          r.party_id && r.party_code && r.party_name
            ? { id: r.party_id, code: r.party_code, name: r.party_name }
            : null,
        amount: r.amount,
        currency: r.currency,
        exchangeRate: r.exchange_rate,
        baseAmount: r.base_amount,
      }));
    },

    async partyRefs(ids: (string | null)[]): Promise<Map<string, PartyRef>> {
      const wanted = [...new Set(ids.filter((x): x is string => !!x))];
      if (!wanted.length) return new Map();
      const rows = await db
        .selectFrom('parties')
        .select(['id', 'code', 'name'])
        .where('id', 'in', wanted)
        .execute();
      return new Map(rows.map((r) => [r.id, r]));
    },

    /** The next number of the year's series. The series row stays locked until the transaction ends: no gaps, no duplicates. */
    async nextNumber(year: number): Promise<string> {
      const r = await sql<{ last_value: number }>`
        insert into number_series (series, year, last_value) values ('dossier', ${year}, 1)
        on conflict (series, year) do update set last_value = number_series.last_value + 1
        returning last_value`.execute(db);
      return `D-${year}-${String(r.rows[0]?.last_value).padStart(6, '0')}`;
    },

    insert: (values: Record<string, unknown>) =>
      db
        .insertInto('dossiers')
        .values(values as never)
        .returning(['id', 'number'])
        .executeTakeFirstOrThrow(),

    /** The lines in their order, each with its amount in the base currency (amount × rate, 2 decimals). */
    async replaceCharges(
      dossierId: string,
      lines: readonly z.output<typeof chargeInputSchema>[],
    ): Promise<{ cost: string; revenue: string }> {
      // A charge an issued invoice bills stays billed when the lines are saved again unchanged: the
      // form sends no ids, so the same charge is recognised by what it says.
      const key = (c: {
        kind: string;
        code: string;
        description: string;
        amount: string;
        currency: string;
        rate: string;
      }) =>
        [
          c.kind,
          c.code,
          c.description,
          multiplyDecimal(c.amount, '1', 2),
          c.currency.trim(),
          multiplyDecimal(c.rate, '1', 6),
        ].join('|');
      const invoiced = await db
        .selectFrom('dossier_charges')
        .select([
          'kind',
          'charge_code',
          'description',
          'amount',
          'currency',
          'exchange_rate',
          'invoiced_line_id',
        ])
        .where('dossier_id', '=', dossierId)
        .where('invoiced_line_id', 'is not', null)
        .execute();
      const billed = new Map<string, string[]>();
      for (const c of invoiced) {
        const k = key({ ...c, code: c.charge_code, amount: String(c.amount), rate: String(c.exchange_rate) });
        billed.set(k, [...(billed.get(k) ?? []), c.invoiced_line_id as string]);
      }
      await db.deleteFrom('dossier_charges').where('dossier_id', '=', dossierId).execute();
      if (lines.length)
        await db
          .insertInto('dossier_charges')
          .values(
            lines
              .map((c, position) => ({ c, position, units: chargeUnits(c) }))
              .map(({ c, position, units }) => ({
                dossier_id: dossierId,
                position,
                kind: c.kind,
                charge_code: c.chargeCode,
                // Kept only while they still make the amount (chargeUnits): else a lump sum.
                quantity: units?.quantity ?? null,
                unit: units?.unit ?? null,
                unit_price: units?.unitPrice ?? null,
                description: c.description,
                party_id: c.partyId ?? null,
                amount: c.amount,
                currency: c.currency,
                exchange_rate: c.exchangeRate,
                base_amount: multiplyDecimal(c.amount, c.exchangeRate, 2),
                invoiced_line_id:
                  billed
                    .get(
                      key({
                        kind: c.kind,
                        code: c.chargeCode,
                        description: c.description,
                        amount: c.amount,
                        currency: c.currency,
                        rate: c.exchangeRate,
                      }),
                    )
                    ?.shift() ?? null,
              })),
          )
          .execute();
      const r = await sql<{ cost: string; revenue: string }>`
        select coalesce(sum(base_amount) filter (where kind = 'cost'), 0)::numeric(16,2)::text as cost,
               coalesce(sum(base_amount) filter (where kind = 'revenue'), 0)::numeric(16,2)::text as revenue
        from dossier_charges where dossier_id = ${dossierId}`.execute(db);
      return r.rows[0] ?? { cost: '0.00', revenue: '0.00' };
    },

    isStaffUser: async (id: string) =>
      !!(await db
        .selectFrom('users')
        .select('id')
        .where('id', '=', id)
        .where('role', 'in', ['admin', 'staff'])
        .where('active', '=', true)
        .executeTakeFirst()),

    remove: (id: string) => db.deleteFrom('dossiers').where('id', '=', id).execute(),
  };
}
