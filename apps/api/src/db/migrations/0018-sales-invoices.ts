import { type Kysely, sql } from 'kysely';

/**
 * Sales invoices and credit notes (issue 11). A draft has no number; issuing takes the next number of
 * its series (takeSeriesNumber) in the issuing transaction and snapshots seller and buyer, so a later
 * edit of the company or the party never changes an issued document. From then on the database itself
 * refuses any change to its content and any delete (triggers below), whatever the API does: only the
 * status, the paid and credited amounts, the overdue notice and the row's bookkeeping stay writable.
 * Payments are never deleted either: a removed payment keeps its row with who, when and why.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sales_invoices (
      id uuid primary key default gen_random_uuid(),
      kind text not null check (kind in ('invoice', 'credit_note')),
      number text,
      status text not null default 'draft'
        check (status in ('draft', 'issued', 'partially_paid', 'paid', 'credited')),
      customer_id uuid not null references parties (id),
      dossier_id uuid references dossiers (id),
      credited_invoice_id uuid references sales_invoices (id),
      currency char(3) not null check (currency ~ '^[A-Z]{3}$'),
      exchange_rate numeric(18, 6) check (exchange_rate > 0),
      issue_date date,
      supply_date date,
      due_date date,
      payment_terms_days integer not null check (payment_terms_days between 0 and 365),
      buyer_reference text,
      order_reference text,
      notes text,
      seller jsonb,
      buyer jsonb,
      line_extension_amount numeric(16, 2) not null default 0,
      vat_total numeric(16, 2) not null default 0,
      tax_inclusive_amount numeric(16, 2) not null default 0,
      vat_total_base numeric(16, 2) not null default 0,
      paid_amount numeric(16, 2) not null default 0 check (paid_amount >= 0),
      -- The total of the credit notes issued against this invoice: it lowers what is open.
      credited_amount numeric(16, 2) not null default 0 check (credited_amount >= 0),
      -- When the handler was told it is overdue (once per invoice).
      overdue_notified_at timestamptz,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null,
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id) on delete set null,
      issued_at timestamptz,
      issued_by uuid references users (id) on delete set null,
      constraint sales_invoices_kind_number_key unique (kind, number),
      constraint sales_invoices_numbered_when_issued check ((number is null) = (status = 'draft')),
      constraint sales_invoices_issued_complete check (
        number is null or (issue_date is not null and due_date is not null and seller is not null and buyer is not null)),
      constraint sales_invoices_credit_note_target check ((kind = 'credit_note') = (credited_invoice_id is not null))
    )`.execute(db);
  await sql`create index sales_invoices_customer on sales_invoices (customer_id, updated_at desc, id)`.execute(
    db,
  );
  await sql`create index sales_invoices_dossier on sales_invoices (dossier_id) where dossier_id is not null`.execute(
    db,
  );
  await sql`create index sales_invoices_credited on sales_invoices (credited_invoice_id) where credited_invoice_id is not null`.execute(
    db,
  );
  await sql`create index sales_invoices_updated on sales_invoices (updated_at desc, id)`.execute(db);
  await sql`create index sales_invoices_issue_date on sales_invoices (issue_date, id)`.execute(db);
  // The overdue filter and the job that marks overdue invoices: open invoices by due date only.
  await sql`create index sales_invoices_open_due on sales_invoices (due_date, id)
    where kind = 'invoice' and status in ('issued', 'partially_paid')`.execute(db);

  await sql`
    create table sales_invoice_lines (
      id uuid primary key default gen_random_uuid(),
      invoice_id uuid not null references sales_invoices (id) on delete cascade,
      position integer not null,
      charge_id uuid references dossier_charges (id) on delete set null,
      credited_line_id uuid references sales_invoice_lines (id),
      charge_code text not null,
      description text not null,
      quantity numeric(14, 3) not null check (quantity > 0),
      unit text not null,
      unit_price numeric(16, 4) not null,
      vat_code text not null check (vat_code in ('S', 'Z', 'E', 'AE', 'O')),
      vat_rate numeric(5, 2) check (vat_rate >= 0),
      exemption_reason text,
      line_net numeric(16, 2) not null,
      unique (invoice_id, position)
    )`.execute(db);
  await sql`create index sales_invoice_lines_charge on sales_invoice_lines (charge_id) where charge_id is not null`.execute(
    db,
  );
  await sql`create index sales_invoice_lines_credited on sales_invoice_lines (credited_line_id) where credited_line_id is not null`.execute(
    db,
  );

  await sql`
    create table sales_invoice_payments (
      id uuid primary key default gen_random_uuid(),
      invoice_id uuid not null references sales_invoices (id),
      paid_on date not null,
      amount numeric(16, 2) not null check (amount > 0),
      reference text,
      created_at timestamptz not null default clock_timestamp(),
      created_by uuid references users (id) on delete set null,
      deleted_at timestamptz,
      deleted_by uuid references users (id) on delete set null,
      delete_reason text,
      check ((deleted_at is null) = (delete_reason is null))
    )`.execute(db);
  await sql`create index sales_invoice_payments_invoice on sales_invoice_payments (invoice_id, created_at)`.execute(
    db,
  );

  // The invoice line that bills a revenue charge, once that invoice is issued.
  await sql`alter table dossier_charges
    add column invoiced_line_id uuid references sales_invoice_lines (id) on delete set null`.execute(db);

  // ---- immutability, in the database ----
  await sql`
    create function sales_invoices_immutable() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        if old.number is not null then
          raise exception 'sales invoice % is issued and cannot be deleted', old.number
            using errcode = '55000';
        end if;
        return old;
      end if;
      if old.number is not null and (
        new.kind, new.number, new.customer_id, new.dossier_id, new.credited_invoice_id, new.currency,
        new.exchange_rate, new.issue_date, new.supply_date, new.due_date, new.payment_terms_days,
        new.buyer_reference, new.order_reference, new.notes, new.seller, new.buyer,
        new.line_extension_amount, new.vat_total, new.tax_inclusive_amount, new.vat_total_base,
        new.created_at, new.created_by, new.issued_at, new.issued_by
      ) is distinct from (
        old.kind, old.number, old.customer_id, old.dossier_id, old.credited_invoice_id, old.currency,
        old.exchange_rate, old.issue_date, old.supply_date, old.due_date, old.payment_terms_days,
        old.buyer_reference, old.order_reference, old.notes, old.seller, old.buyer,
        old.line_extension_amount, old.vat_total, old.tax_inclusive_amount, old.vat_total_base,
        old.created_at, old.created_by, old.issued_at, old.issued_by
      ) then
        raise exception 'sales invoice % is issued: its content cannot change', old.number
          using errcode = '55000';
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger sales_invoices_immutable before update or delete on sales_invoices
    for each row execute function sales_invoices_immutable()`.execute(db);

  await sql`
    create function sales_invoice_lines_immutable() returns trigger language plpgsql as $$
    declare
      issued text;
    begin
      select number into issued from sales_invoices
        where id = case when tg_op = 'INSERT' then new.invoice_id else old.invoice_id end;
      if issued is null then
        return case when tg_op = 'DELETE' then old else new end;
      end if;
      -- A revenue charge deleted from its dossier unlinks the line (on delete set null); nothing else.
      if tg_op = 'UPDATE' and new.charge_id is null and old.charge_id is not null
         and (to_jsonb(new) - 'charge_id') = (to_jsonb(old) - 'charge_id') then
        return new;
      end if;
      raise exception 'the lines of sales invoice % are issued and cannot change', issued
        using errcode = '55000';
    end $$`.execute(db);
  await sql`
    create trigger sales_invoice_lines_immutable before insert or update or delete on sales_invoice_lines
    for each row execute function sales_invoice_lines_immutable()`.execute(db);

  await sql`
    create function sales_invoice_payments_kept() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        raise exception 'payments are never deleted; record their removal instead' using errcode = '55000';
      end if;
      if (to_jsonb(new) - 'deleted_at' - 'deleted_by' - 'delete_reason')
         is distinct from (to_jsonb(old) - 'deleted_at' - 'deleted_by' - 'delete_reason')
         or old.deleted_at is not null then
        raise exception 'a payment cannot change, only be removed once' using errcode = '55000';
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger sales_invoice_payments_kept before update or delete on sales_invoice_payments
    for each row execute function sales_invoice_payments_kept()`.execute(db);

  // A new kind of notification: an invoice turned overdue. Other areas add theirs to the same check
  // in their own migrations, so the list is extended from what is there rather than restated.
  await sql`
    do $$
    declare
      kinds text[];
    begin
      select coalesce(array_agg(m[1]), '{}') into kinds
        from pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([^'']+)''', 'g') m
        where c.conrelid = 'notifications'::regclass and c.conname = 'notifications_kind_check';
      if not 'invoice-overdue' = any(kinds) then
        kinds := kinds || 'invoice-overdue'::text;
      end if;
      alter table notifications drop constraint if exists notifications_kind_check;
      execute format('alter table notifications add constraint notifications_kind_check check (kind = any (%L::text[]))', kinds);
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from notifications where kind = 'invoice-overdue'`.execute(db);
  await sql`alter table dossier_charges drop column invoiced_line_id`.execute(db);
  await sql`drop table sales_invoice_payments`.execute(db);
  await sql`drop table sales_invoice_lines`.execute(db);
  await sql`drop table sales_invoices`.execute(db);
  await sql`drop function sales_invoice_payments_kept()`.execute(db);
  await sql`drop function sales_invoice_lines_immutable()`.execute(db);
  await sql`drop function sales_invoices_immutable()`.execute(db);
}
