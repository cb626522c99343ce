import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { todayIn } from './sales-invoices.service.ts';

/**
 * The invoice rules of issue 23 as a fact of the stored data, for the demo test and the rules' tests:
 * issue dates follow the numbers within each series, none after today, payments between their
 * invoice's issue date and today, credit notes within, after and for the customer of their invoice,
 * invoices on a dossier for its customer. Each break names its rule and the record; none: `[]`.
 */
export async function invoiceRuleBreaks(d: Db, today = todayIn()): Promise<{ rule: string; id: string }[]> {
  const broken = await sql<{ rule: string; id: string }>`
    with numbered as (
      select id, kind, issue_date, extract(year from issue_date) as year,
        (regexp_match(number, '([0-9]+)$'))[1]::int as n
      from sales_invoices where number is not null)
    select 'issue dates follow the numbers' as rule, a.id from numbered a join numbered b
      on b.kind = a.kind and b.year = a.year and b.n < a.n and b.issue_date > a.issue_date
    union all
    select 'no issue date after today', id from sales_invoices where issue_date > ${today}::date
    union all
    select 'payments after issue, not after today', p.id from sales_invoice_payments p
      join sales_invoices i on i.id = p.invoice_id where p.paid_on < i.issue_date or p.paid_on > ${today}::date
    union all
    select 'credit notes within their invoice', i.id from sales_invoices i
      where i.kind = 'invoice' and i.number is not null and i.tax_inclusive_amount < (
        -- ADR 0040: the last note may round over, by 0.01 per earlier note at most.
        select coalesce(sum(cn.tax_inclusive_amount), 0) - 0.01 * greatest(count(*) - 1, 0) from sales_invoices cn
        where cn.credited_invoice_id = i.id and cn.number is not null)
    union all
    select 'credit notes after their invoice', cn.id from sales_invoices cn join sales_invoices i on i.id = cn.credited_invoice_id
      where cn.number is not null and cn.issue_date < i.issue_date
    union all
    select 'credit notes are their invoice''s customer''s', cn.id from sales_invoices cn
      join sales_invoices i on i.id = cn.credited_invoice_id where cn.customer_id <> i.customer_id
    union all
    select 'invoices on a dossier are its customer''s', i.id from sales_invoices i join dossiers d on d.id = i.dossier_id
      where i.kind = 'invoice' and i.customer_id <> d.customer_id`.execute(d);
  return broken.rows;
}
