import {
  lineNet,
  type OfferLine,
  type OfferLineValues,
  type SalesOffer,
  type SalesOfferListItem,
  type SalesOfferListQuery,
  salesOfferFieldVisibility,
  totalsPerCurrency,
  type VatCode,
} from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { defineListSpec, filter, type ListSource, listReader } from '../../records/list.ts';
import type { Scope } from '../../records/scope.ts';

/** What a line's totals need, as the list reads it in one subquery per row. */
interface LineFigures {
  quantity: string;
  unitPrice: string;
  currency: string;
  vatCode: VatCode;
  vatRate: string | null;
}

export interface SalesOfferRow {
  id: string;
  number: string;
  status: SalesOffer['status'];
  customer_id: string;
  customer_code: string;
  customer_name: string;
  contact_name: string | null;
  contact_email: string | null;
  valid_until: string;
  origin_locode: string | null;
  destination_locode: string | null;
  mode: SalesOffer['mode'];
  incoterm: string | null;
  incoterm_place: string | null;
  dossier_type: SalesOffer['dossierType'];
  cargo_description: string | null;
  packages: number | null;
  package_type: string | null;
  gross_weight_kg: string | null;
  volume_m3: string | null;
  notes: string | null;
  dossier_id: string | null;
  dossier_number: string | null;
  sent_at: Date | null;
  decided_at: Date | null;
  decided_by: string | null;
  version: number;
  created_at: Date;
  created_by: string | null;
  created_by_name: string | null;
  updated_at: Date;
  line_figures: LineFigures[];
}

export function toListItem(r: SalesOfferRow): SalesOfferListItem {
  return {
    id: r.id,
    number: r.number,
    status: r.status,
    customer: { id: r.customer_id, code: r.customer_code, name: r.customer_name },
    contactName: r.contact_name,
    validUntil: r.valid_until,
    originLocode: r.origin_locode,
    destinationLocode: r.destination_locode,
    mode: r.mode,
    totals: totalsPerCurrency(r.line_figures),
    dossier: r.dossier_id && r.dossier_number ? { id: r.dossier_id, number: r.dossier_number } : null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

const FROM = sql`sales_offers o join parties c on c.id = o.customer_id left join dossiers dd on dd.id = o.dossier_id`;
const SELECT = sql`o.*, c.code as customer_code, c.name as customer_name, dd.number as dossier_number,
  coalesce((
    select json_agg(json_build_object('quantity', l.quantity::text, 'unitPrice', l.unit_price::text,
      'currency', l.currency, 'vatCode', l.vat_code, 'vatRate', l.vat_rate::text) order by l.position)
    from sales_offer_lines l where l.offer_id = o.id), '[]'::json) as line_figures`;
/** The same expression as the trigram index `sales_offers_search_trgm`. */
const SEARCH = sql`(o.number || ' ' || coalesce(o.contact_name, '') || ' ' || coalesce(o.cargo_description, ''))`;

export const salesOfferListSpec = defineListSpec({
  name: 'sales-offers',
  visibility: salesOfferFieldVisibility,
  from: FROM,
  id: { expr: 'o.id', type: 'uuid', nullable: false },
  sortable: {
    number: { expr: 'o.number', type: 'text', nullable: false },
    status: { expr: 'o.status', type: 'text', nullable: false },
    validUntil: { expr: 'o.valid_until', type: 'date', nullable: false },
    customer: { expr: 'c.name', type: 'text', nullable: false },
    createdAt: { expr: 'o.created_at', type: 'timestamptz', nullable: false },
    updatedAt: { expr: 'o.updated_at', type: 'timestamptz', nullable: false },
  },
  defaultSort: '-updatedAt',
  search: SEARCH,
  searchFields: ['number', 'contactName', 'cargoDescription'],
  searchPrefix: (q) => sql`upper(o.number) like ${`${q.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`,
  // Every offer has one customer and at most one dossier: counting needs no joins.
  countFrom: sql`sales_offers o`,
});

/** A customer's offers: their party's, never drafts (a draft is not sent to anyone yet). */
function scopeWhere(scope: Scope): RawBuilder<unknown>[] {
  return scope.all ? [] : [sql`o.customer_id = ${scope.partyId}`, sql`o.status <> 'draft'`];
}

const salesOfferList: ListSource<SalesOfferListQuery, SalesOfferRow, SalesOfferListItem> = {
  spec: salesOfferListSpec,
  select: SELECT,
  scope: scopeWhere,
  filters: {
    status: filter.anyOf('o.status'),
    mode: filter.anyOf('o.mode'),
    customerId: filter.equals('o.customer_id'),
    dossierId: filter.equals('o.dossier_id'),
    validFrom: filter.atLeast('o.valid_until', 'date'),
    validTo: filter.atMost('o.valid_until', 'date'),
  },
  map: toListItem,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function salesOffersRepository(db: Db) {
  const list = listReader(db, salesOfferList);
  return {
    list: list.page,
    all: list.all,

    /** One offer by id or number, within scope; `lock` takes the row lock (accept, send, expiry). */
    async find(scope: Scope, idOrNumber: string, lock = false): Promise<SalesOfferRow | undefined> {
      const r = await sql<SalesOfferRow>`
        select ${SELECT}, u.name as created_by_name
        from ${FROM} left join users u on u.id = o.created_by
        where ${sql.join(
          [
            UUID.test(idOrNumber) ? sql`o.id = ${idOrNumber}` : sql`o.number = ${idOrNumber}`,
            ...scopeWhere(scope),
          ],
          sql` and `,
        )}
        ${lock ? sql`for update of o` : sql``}`.execute(db);
      return r.rows[0];
    },

    async lines(offerId: string): Promise<OfferLine[]> {
      const rows = await db
        .selectFrom('sales_offer_lines')
        .selectAll()
        .where('offer_id', '=', offerId)
        .orderBy('position')
        .execute();
      return rows.map((l) => ({
        id: l.id,
        chargeCode: l.charge_code as OfferLine['chargeCode'],
        description: l.description,
        quantity: l.quantity,
        unit: l.unit as OfferLine['unit'],
        unitPrice: l.unit_price,
        currency: l.currency,
        exchangeRate: l.exchange_rate,
        vatCode: l.vat_code as OfferLine['vatCode'],
        vatRate: l.vat_rate,
        lineNet: l.line_net,
      }));
    },

    insert: (values: Record<string, unknown>) =>
      db
        .insertInto('sales_offers')
        .values(values as never)
        .returning(['id', 'number'])
        .executeTakeFirstOrThrow(),

    /** Replaces every line; each line's net is computed here, exactly (q × p, 2 decimals). */
    async replaceLines(offerId: string, lines: readonly OfferLineValues[]): Promise<void> {
      await db.deleteFrom('sales_offer_lines').where('offer_id', '=', offerId).execute();
      if (!lines.length) return;
      await db
        .insertInto('sales_offer_lines')
        .values(
          lines.map((l, position) => ({
            offer_id: offerId,
            position,
            charge_code: l.chargeCode,
            description: l.description,
            quantity: l.quantity,
            unit: l.unit,
            unit_price: l.unitPrice,
            currency: l.currency,
            exchange_rate: l.exchangeRate,
            vat_code: l.vatCode,
            vat_rate: l.vatRate,
            line_net: lineNet(l.quantity, l.unitPrice),
          })),
        )
        .execute();
    },

    remove: (id: string) => db.deleteFrom('sales_offers').where('id', '=', id).execute(),
  };
}
