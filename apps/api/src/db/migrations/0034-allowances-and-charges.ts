import { type Kysely, sql } from 'kysely';

/**
 * Allowances and charges (issue 23 item 5, ADR 0049): discounts and surcharges on the whole document
 * (EN 16931 BG-20/BG-21) and on lines (BG-27/BG-28).
 *
 * - Stored as jsonb arrays on their invoice and line (`allowance_charges`, `[]` when none): they are
 *   always read and written with their parent, never queried on their own, and the parents' existing
 *   triggers freeze them at issue with everything else (the lines' trigger compares whole rows; the
 *   invoices' column list gains them below). A check on each array keeps its shape: amounts above 0
 *   with at most 2 decimals, a reason code or text, and at document level a VAT category.
 * - The invoice keeps BT-107 and BT-108 (`allowance_total_amount`, `charge_total_amount`, 0 for every
 *   existing invoice, so each keeps exactly its totals).
 * - At issue (the number set, or a row written numbered), a trigger recomputes what the service
 *   computed and refuses stored totals that do not add up: each line net = round(q × p, 2) + its
 *   charges − its allowances (BT-131), BT-106 = Σ line nets, BT-107/BT-108 = Σ the document's
 *   allowances/charges, the VAT of each (category, rate) group from the group's taxable amount
 *   (document allowances and charges included, BR-CO-17/18), and BT-112 = BT-106 − BT-107 + BT-108 +
 *   BT-110 (BR-CO-13, BR-CO-15). A check violation naming `sales_invoices_totals_add_up`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function allowance_charges_valid(list jsonb, document boolean) returns boolean
    language sql immutable as $$
      select jsonb_typeof(list) = 'array' and not exists (
        select 1 from jsonb_array_elements(list) e
        where jsonb_typeof(e) is distinct from 'object'
           or jsonb_typeof(e -> 'isCharge') is distinct from 'boolean'
           or coalesce(e ->> 'amount', '') !~ '^[0-9]{1,14}([.][0-9]{1,2})?$'
           or (e ->> 'amount')::numeric <= 0
           or (coalesce(btrim(e ->> 'reasonCode'), '') = '' and coalesce(btrim(e ->> 'reason'), '') = '')
           or (document and coalesce(e ->> 'vatCode', '') not in ('S', 'Z', 'E', 'AE', 'K', 'G', 'O')))
    $$`.execute(db);
  // Charges add, allowances subtract; `charge` null: the signed sum, else the sum of that kind.
  await sql`
    create function allowance_charge_sum(list jsonb, charge boolean) returns numeric
    language sql immutable as $$
      select coalesce(sum(case when charge is not null then (e ->> 'amount')::numeric
                               when (e ->> 'isCharge')::boolean then (e ->> 'amount')::numeric
                               else -(e ->> 'amount')::numeric end), 0)
      from jsonb_array_elements(list) e
      where charge is null or (e ->> 'isCharge')::boolean = charge
    $$`.execute(db);

  await sql`alter table sales_invoices
    add column allowance_charges jsonb not null default '[]'
      constraint sales_invoices_allowance_charges_valid check (allowance_charges_valid(allowance_charges, true)),
    add column allowance_total_amount numeric(16, 2) not null default 0 check (allowance_total_amount >= 0),
    add column charge_total_amount numeric(16, 2) not null default 0 check (charge_total_amount >= 0)`.execute(
    db,
  );
  await sql`alter table sales_invoice_lines
    add column allowance_charges jsonb not null default '[]'
      constraint sales_invoice_lines_allowance_charges_valid check (allowance_charges_valid(allowance_charges, false))`.execute(
    db,
  );

  await immutable(db, true);

  await sql`
    create function sales_invoices_totals() returns trigger language plpgsql as $$
    declare
      lines_sum numeric;
      vat numeric;
    begin
      if new.number is null or (tg_op = 'UPDATE' and old.number is not null) then
        return new;
      end if;
      if exists (select 1 from sales_invoice_lines l where l.invoice_id = new.id
                 and l.line_net <> round(l.quantity * l.unit_price, 2) + allowance_charge_sum(l.allowance_charges, null)) then
        raise exception 'a line net of % is not quantity × price + charges − allowances', coalesce(new.number, new.id::text)
          using errcode = '23514', constraint = 'sales_invoices_totals_add_up';
      end if;
      select coalesce(sum(line_net), 0) into lines_sum from sales_invoice_lines where invoice_id = new.id;
      with taxable as (
        select vat_code as code, case when vat_code = 'O' then null else coalesce(vat_rate, 0) end as rate,
               line_net as amount
        from sales_invoice_lines where invoice_id = new.id
        union all
        select e ->> 'vatCode', case when e ->> 'vatCode' = 'O' then null else coalesce((e ->> 'vatRate')::numeric, 0) end,
               case when (e ->> 'isCharge')::boolean then (e ->> 'amount')::numeric else -(e ->> 'amount')::numeric end
        from jsonb_array_elements(new.allowance_charges) e
      )
      select coalesce(sum(g.vat), 0) into vat
      from (select round(sum(amount) * coalesce(rate, 0) / 100, 2) as vat from taxable group by code, rate) g;
      if new.line_extension_amount <> lines_sum
         or new.allowance_total_amount <> allowance_charge_sum(new.allowance_charges, false)
         or new.charge_total_amount <> allowance_charge_sum(new.allowance_charges, true)
         or new.vat_total <> vat
         or new.tax_inclusive_amount
            <> new.line_extension_amount - new.allowance_total_amount + new.charge_total_amount + new.vat_total then
        raise exception 'the totals of % do not add up to its lines, allowances and charges', coalesce(new.number, new.id::text)
          using errcode = '23514', constraint = 'sales_invoices_totals_add_up';
      end if;
      return new;
    end $$`.execute(db);
  // Named after sales_invoices_integrity (0029): triggers fire in name order, its refusals come first.
  await sql`
    create trigger sales_invoices_totals before insert or update on sales_invoices
    for each row execute function sales_invoices_totals()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists sales_invoices_totals on sales_invoices`.execute(db);
  await sql`drop function if exists sales_invoices_totals()`.execute(db);
  await immutable(db, false);
  await sql`alter table sales_invoice_lines drop column allowance_charges`.execute(db);
  await sql`alter table sales_invoices drop column allowance_charges, drop column allowance_total_amount,
    drop column charge_total_amount`.execute(db);
  await sql`drop function if exists allowance_charge_sum(jsonb, boolean)`.execute(db);
  await sql`drop function if exists allowance_charges_valid(jsonb, boolean)`.execute(db);
}

/** Migration 0018's freeze of an issued invoice, with (or, going down, without) the new columns. */
async function immutable(db: Kysely<unknown>, withAllowances: boolean): Promise<void> {
  const cols = (t: 'new' | 'old') =>
    sql.raw(
      [
        'kind',
        'number',
        'customer_id',
        'dossier_id',
        'credited_invoice_id',
        'currency',
        'exchange_rate',
        'issue_date',
        'supply_date',
        'due_date',
        'payment_terms_days',
        'buyer_reference',
        'order_reference',
        'notes',
        'seller',
        'buyer',
        'line_extension_amount',
        'vat_total',
        'tax_inclusive_amount',
        'vat_total_base',
        'created_at',
        'created_by',
        'issued_at',
        'issued_by',
        ...(withAllowances ? ['allowance_charges', 'allowance_total_amount', 'charge_total_amount'] : []),
      ]
        .map((c) => `${t}.${c}`)
        .join(', '),
    );
  await sql`
    create or replace function sales_invoices_immutable() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        if old.number is not null then
          raise exception 'sales invoice % is issued and cannot be deleted', old.number
            using errcode = '55000';
        end if;
        return old;
      end if;
      if old.number is not null and (${cols('new')}) is distinct from (${cols('old')}) then
        raise exception 'sales invoice % is issued: its content cannot change', old.number
          using errcode = '55000';
      end if;
      return new;
    end $$`.execute(db);
}
