import { type Kysely, sql } from 'kysely';

/**
 * VAT by country and Peppol addresses of parties (issue 23 items 4 and 6; ADRs 0042, 0043).
 *
 * - Lines of offers and invoices take the categories K (intra-Community supply of goods, art. 138) and
 *   G (export of goods outside the EU, art. 146) next to the ones they had; K and G lines are 0 %.
 * - A party gains its Peppol electronic address (BT-49 when it is the buyer): an EAS scheme (four
 *   digits; the contract holds the list) and an endpoint id, both or neither. Existing parties have
 *   none: their invoices use the VAT number's scheme where there is one, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sales_invoice_lines drop constraint sales_invoice_lines_vat_code_check`.execute(db);
  await sql`alter table sales_invoice_lines add constraint sales_invoice_lines_vat_code_check
    check (vat_code in ('S', 'Z', 'E', 'AE', 'K', 'G', 'O'))`.execute(db);
  await sql`alter table sales_invoice_lines add constraint sales_invoice_lines_zero_rated_codes
    check (vat_code not in ('K', 'G') or vat_rate = 0)`.execute(db);
  await sql`alter table sales_offer_lines drop constraint sales_offer_lines_vat_code_check`.execute(db);
  await sql`alter table sales_offer_lines add constraint sales_offer_lines_vat_code_check
    check (vat_code in ('S', 'Z', 'E', 'AE', 'K', 'G', 'O'))`.execute(db);

  await sql`alter table parties
    add column peppol_scheme text check (peppol_scheme ~ '^[0-9]{4}$'),
    add column peppol_id text check (peppol_id ~ '^[A-Za-z0-9][A-Za-z0-9.:_-]{0,49}$'),
    add constraint parties_peppol_pair check ((peppol_scheme is null) = (peppol_id is null))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table parties drop constraint parties_peppol_pair, drop column peppol_id, drop column peppol_scheme`.execute(
    db,
  );
  await sql`alter table sales_offer_lines drop constraint sales_offer_lines_vat_code_check`.execute(db);
  await sql`alter table sales_offer_lines add constraint sales_offer_lines_vat_code_check
    check (vat_code in ('S', 'Z', 'E', 'AE', 'O'))`.execute(db);
  await sql`alter table sales_invoice_lines drop constraint sales_invoice_lines_zero_rated_codes`.execute(db);
  await sql`alter table sales_invoice_lines drop constraint sales_invoice_lines_vat_code_check`.execute(db);
  await sql`alter table sales_invoice_lines add constraint sales_invoice_lines_vat_code_check
    check (vat_code in ('S', 'Z', 'E', 'AE', 'O'))`.execute(db);
}
