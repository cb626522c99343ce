import { type Kysely, sql } from 'kysely';

/**
 * Issue 23 (ADR 0040, 0041): the last line of defence behind the invoices service's rules, whatever
 * writes the rows. Each refusal is a check violation (23514) naming a constraint, which the service
 * maps to a 422 on the field concerned (pgConstraintProblem).
 *
 * - Company settings gain "books closed up to": nothing is issued or paid on or before it.
 * - A credit note is its invoice's: same customer, currency and exchange rate; issued, its lines each
 *   credit a line of that invoice, no line is credited beyond its quantity and the issued credit notes
 *   together never exceed the invoice's total (the note that credits every line in full by rounding
 *   only: at most 0.01 per earlier credit note, ADR 0040). The invoice row is locked while this is checked, so
 *   two credit notes issued at once are checked one after the other.
 * - At issue: a credit note not dated before its invoice. (The order of issue dates within a series
 *   is the service's, checked while the series row is locked: bulk loads that number many rows in one
 *   statement visit them in no set order, so a row trigger could not judge it; ADR 0041.)
 * - A draft invoice on a dossier is for that dossier's customer (only when the invoice's own customer
 *   or dossier is written: a dossier changing customer is not blocked here).
 * - A payment is not dated before its invoice's issue date nor in a closed period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table company_settings add column books_closed_up_to date`.execute(db);

  await sql`
    create function sales_invoices_integrity() returns trigger language plpgsql as $$
    declare
      inv record;
      closed date;
      credited numeric;
      earlier int;
    begin
      if new.kind = 'credit_note' then
        select * into inv from sales_invoices where id = new.credited_invoice_id;
        if inv.kind <> 'invoice' or inv.number is null then
          raise exception 'a credit note credits an issued invoice'
            using errcode = '23514', constraint = 'sales_invoices_credit_note_of_issued_invoice';
        end if;
        if (new.customer_id, new.currency, new.exchange_rate)
           is distinct from (inv.customer_id, inv.currency, inv.exchange_rate) then
          raise exception 'a credit note has its invoice''s customer, currency and exchange rate'
            using errcode = '23514', constraint = 'sales_invoices_credit_note_matches_invoice';
        end if;
      elsif new.number is null and new.dossier_id is not null and (tg_op = 'INSERT'
            or (new.customer_id, new.dossier_id) is distinct from (old.customer_id, old.dossier_id)) then
        if not exists (select 1 from dossiers d where d.id = new.dossier_id and d.customer_id = new.customer_id) then
          raise exception 'an invoice on a dossier is for the dossier''s customer'
            using errcode = '23514', constraint = 'sales_invoices_dossier_customer';
        end if;
      end if;

      -- Issuing: the number is set now, or the row is written numbered (a bulk load, an operator's SQL).
      if new.number is not null and (tg_op = 'INSERT' or old.number is null) then
        select books_closed_up_to into closed from company_settings limit 1;
        if closed is not null and new.issue_date <= closed then
          raise exception 'the books are closed up to %', closed
            using errcode = '23514', constraint = 'sales_invoices_books_closed';
        end if;
        if new.kind = 'credit_note' then
          -- Credit notes of one invoice are checked one at a time.
          perform 1 from sales_invoices where id = new.credited_invoice_id for update;
          if new.issue_date < inv.issue_date then
            raise exception 'a credit note is not dated before its invoice'
              using errcode = '23514', constraint = 'sales_invoices_credit_note_after_invoice';
          end if;
          if exists (select 1 from sales_invoice_lines cl where cl.invoice_id = new.id
                     and not exists (select 1 from sales_invoice_lines l
                                     where l.id = cl.credited_line_id and l.invoice_id = new.credited_invoice_id)) then
            raise exception 'each line of a credit note credits a line of its invoice'
              using errcode = '23514', constraint = 'sales_invoices_credit_within_invoice';
          end if;
          if exists (select 1 from sales_invoice_lines l where l.invoice_id = new.credited_invoice_id
                     and l.quantity < (select coalesce(sum(cl.quantity), 0) from sales_invoice_lines cl
                                       join sales_invoices cn on cn.id = cl.invoice_id
                                       where cl.credited_line_id = l.id and (cn.number is not null or cn.id = new.id))) then
            raise exception 'a line is credited beyond its quantity'
              using errcode = '23514', constraint = 'sales_invoices_credit_within_invoice';
          end if;
          select coalesce(sum(tax_inclusive_amount), 0), count(*) into credited, earlier from sales_invoices
            where credited_invoice_id = new.credited_invoice_id and number is not null and id <> new.id;
          -- The note that credits every line in full may exceed by rounding only: 0.01 per earlier note.
          if exists (select 1 from sales_invoice_lines l where l.invoice_id = new.credited_invoice_id
                     and l.quantity > (select coalesce(sum(cl.quantity), 0) from sales_invoice_lines cl
                                       join sales_invoices cn on cn.id = cl.invoice_id
                                       where cl.credited_line_id = l.id and (cn.number is not null or cn.id = new.id))) then
            earlier := 0;
          end if;
          if credited + new.tax_inclusive_amount > inv.tax_inclusive_amount + 0.01 * earlier then
            raise exception 'the credit notes of % exceed its total', inv.number
              using errcode = '23514', constraint = 'sales_invoices_credit_within_invoice';
          end if;
        end if;
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger sales_invoices_integrity before insert or update on sales_invoices
    for each row execute function sales_invoices_integrity()`.execute(db);

  await sql`
    create function sales_invoice_payments_dated() returns trigger language plpgsql as $$
    declare
      issued date;
      closed date;
    begin
      select issue_date into issued from sales_invoices where id = new.invoice_id;
      if issued is null or new.paid_on < issued then
        raise exception 'a payment is not dated before its invoice is issued'
          using errcode = '23514', constraint = 'sales_invoice_payments_after_issue';
      end if;
      select books_closed_up_to into closed from company_settings limit 1;
      if closed is not null and new.paid_on <= closed then
        raise exception 'the books are closed up to %', closed
          using errcode = '23514', constraint = 'sales_invoice_payments_books_closed';
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger sales_invoice_payments_dated before insert on sales_invoice_payments
    for each row execute function sales_invoice_payments_dated()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists sales_invoice_payments_dated on sales_invoice_payments`.execute(db);
  await sql`drop function if exists sales_invoice_payments_dated()`.execute(db);
  await sql`drop trigger if exists sales_invoices_integrity on sales_invoices`.execute(db);
  await sql`drop function if exists sales_invoices_integrity()`.execute(db);
  await sql`alter table company_settings drop column if exists books_closed_up_to`.execute(db);
}
