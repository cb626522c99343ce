import { type Kysely, sql } from 'kysely';

/**
 * Issue 26 item 1: the Annex B data elements a real lodgement needs besides what the SAD boxes held.
 * Items: additional procedure codes (DE 1/11), valuation method (DE 4/16), supplementary units (DE 6/2).
 * Header: the location of goods' type and qualifier (DE 5/23; `location_of_goods` stays its
 * identification), authorisations (DE 2/3), additional information (DE 2/2), seals (DE 7/18) and a
 * transit's limit date. The columns keep out what is not a code; the lodging rules say the rest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table declaration_items
      add column additional_procedure_codes text[] not null default '{}'
        check (array_to_string(additional_procedure_codes, ',') ~ '^([A-Z0-9]{3}(,[A-Z0-9]{3})*)?$'),
      add column valuation_method text check (valuation_method in ('1','2','3','4','5','6')),
      add column supplementary_units numeric(14,3) check (supplementary_units > 0)`.execute(db);
  await sql`
    alter table declarations
      add column location_of_goods_type text check (location_of_goods_type in ('A','B','C','D')),
      add column location_of_goods_qualifier text
        check (location_of_goods_qualifier in ('T','U','V','W','X','Y','Z')),
      add column authorisations jsonb not null default '[]' check (jsonb_typeof(authorisations) = 'array'),
      add column additional_information jsonb not null default '[]'
        check (jsonb_typeof(additional_information) = 'array'),
      add column seals jsonb not null default '[]' check (jsonb_typeof(seals) = 'array'),
      add column limit_date date`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table declarations drop column if exists location_of_goods_type,
      drop column if exists location_of_goods_qualifier, drop column if exists authorisations,
      drop column if exists additional_information, drop column if exists seals,
      drop column if exists limit_date`.execute(db);
  await sql`
    alter table declaration_items drop column if exists additional_procedure_codes,
      drop column if exists valuation_method, drop column if exists supplementary_units`.execute(db);
}
