import { NO_INTERNAL_FIELDS, type Party, type PartyListQuery, type PartyRef } from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { defineListSpec, filter, type ListSource, listReader } from '../../records/list.ts';
import type { Scope } from '../../records/scope.ts';

interface PartyRow {
  id: string;
  code: string;
  name: string;
  kinds: string[];
  country_code: string;
  vat_number: string | null;
  eori: string | null;
  peppol_scheme: string | null;
  peppol_id: string | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  email: string | null;
  phone: string | null;
  contacts: Party['contacts'];
  version: number;
  created_at: Date;
  updated_at: Date;
}

export function toParty(r: PartyRow): Party {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    kinds: r.kinds,
    countryCode: r.country_code,
    vatNumber: r.vat_number,
    eori: r.eori,
    peppolScheme: r.peppol_scheme,
    peppolId: r.peppol_id,
    street: r.street,
    postalCode: r.postal_code,
    city: r.city,
    email: r.email,
    phone: r.phone,
    contacts: r.contacts,
    version: r.version,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

const listSpec = defineListSpec({
  name: 'parties',
  visibility: NO_INTERNAL_FIELDS,
  from: sql`parties p`,
  id: { expr: 'p.id', type: 'uuid', nullable: false },
  sortable: {
    name: { expr: 'p.name', type: 'text', nullable: false },
    code: { expr: 'p.code', type: 'text', nullable: false },
    countryCode: { expr: 'p.country_code', type: 'text', nullable: false },
    updatedAt: { expr: 'p.updated_at', type: 'timestamptz', nullable: false },
  },
  defaultSort: 'name',
  search: sql`(p.name || ' ' || p.code || ' ' || coalesce(p.vat_number, '') || ' ' || coalesce(p.eori, '') || ' ' || coalesce(p.city, ''))`,
  searchFields: ['name', 'code', 'vatNumber', 'eori', 'city'],
});

function scopeWhere(scope: Scope): RawBuilder<unknown>[] {
  return scope.all ? [] : [sql`p.id = ${scope.partyId}`];
}

const partyList: ListSource<PartyListQuery, PartyRow, Party> = {
  spec: listSpec,
  select: sql`p.*`,
  scope: scopeWhere,
  filters: {
    kind: (kind) => sql`${kind} = any(p.kinds)`,
    countryCode: filter.equals('p.country_code'),
  },
  map: toParty,
};

export function partiesRepository(db: Db) {
  const list = listReader(db, partyList);
  return {
    list: list.page,
    all: list.all,

    async get(scope: Scope, id: string): Promise<Party | undefined> {
      let q = db.selectFrom('parties').selectAll().where('id', '=', id);
      if (!scope.all) q = q.where('id', '=', scope.partyId);
      const row = await q.executeTakeFirst();
      return row ? toParty(row as unknown as PartyRow) : undefined;
    },

    async refs(ids: string[]): Promise<Map<string, PartyRef>> {
      if (!ids.length) return new Map();
      const rows = await db
        .selectFrom('parties')
        .select(['id', 'code', 'name'])
        .where('id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [r.id, r]));
    },

    insert: (values: Record<string, unknown>) =>
      db
        .insertInto('parties')
        .values(values as never)
        .returning('id')
        .executeTakeFirstOrThrow(),

    isReferenced: async (id: string) => {
      const r = await sql<{ used: boolean }>`
        select exists (select 1 from users where party_id = ${id})
            or exists (select 1 from dossiers where ${id} in (customer_id, consignor_id, consignee_id, notify_party_id))
            or exists (select 1 from dossier_charges where party_id = ${id})
            or exists (select 1 from transports where carrier_id = ${id})
            or exists (select 1 from sales_offers where customer_id = ${id})
            or exists (select 1 from sales_invoices where customer_id = ${id})
            or exists (select 1 from declarations where customer_id = ${id})
            or exists (select 1 from documents where party_id = ${id}) as used`.execute(db);
      return r.rows[0]?.used ?? false;
    },

    remove: (id: string) => db.deleteFrom('parties').where('id', '=', id).execute(),
  };
}
