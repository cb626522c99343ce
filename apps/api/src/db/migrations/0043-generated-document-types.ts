import { type Kysely, sql } from 'kysely';

/**
 * Issue 27 item 3: the PDFs the product made of its offers, invoices and credit notes were filed as
 * "other"; they become `sales_offer`, `sales_invoice` and `credit_note` (the file the issue stored, by its
 * number's name). Uploads a user filed as "other" stay as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update documents d set document_type = case i.kind when 'credit_note' then 'credit_note' else 'sales_invoice' end
    from sales_invoices i
    where d.record_type = 'invoice' and d.record_id = i.id and d.document_type = 'other'
      and i.number is not null and d.file_name = i.number || '.pdf'`.execute(db);
  await sql`
    update documents d set document_type = 'sales_offer'
    from sales_offers o
    where d.record_type = 'offer' and d.record_id = o.id and d.document_type = 'other'
      and o.number is not null and d.file_name = o.number || '.pdf'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update documents set document_type = 'other'
    where document_type in ('sales_offer', 'sales_invoice', 'credit_note')`.execute(db);
}
