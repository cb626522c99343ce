import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import type { Json } from '../../test/helpers.ts';
import { todayIn } from './sales-invoices.service.ts';
import { completeCompany, draftBody, line } from './test-support.ts';

const setup = apiTest({ prepare: completeCompany });
const { db, staff, partyId, call } = setup;
const year = Number(todayIn().slice(0, 4));

const seq = (number: unknown) => Number(String(number).slice(-6));

async function draft(body: Json = draftBody(partyId.ACME)) {
  const r = await call('POST', '/sales-invoices', staff, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; version: number };
}
const issue = (d: { id: string; version: number }) =>
  call('POST', `/sales-invoices/${d.id}/issue`, staff, { version: d.version });

async function lastIssued(kind = 'invoice'): Promise<number> {
  const r = await sql<{ last_issued: number }>`
    select last_issued from document_series_years where kind = ${kind} and year = ${year}`.execute(db.db);
  return r.rows[0]?.last_issued ?? 0;
}

describe('invoice numbers', () => {
  it('are consecutive, without gaps or duplicates, under 50 concurrent issues', async () => {
    const start = await lastIssued();
    const drafts = [];
    for (let i = 0; i < 50; i++) drafts.push(await draft());
    const results = await Promise.all(drafts.map(issue));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const numbers = results.map((r) => seq(r.body.number)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => start + 1 + i));
    expect(await lastIssued()).toBe(start + 50);
  });

  it('are taken once when two issue one draft at the same time', async () => {
    const start = await lastIssued();
    const d = await draft();
    const [a, b] = await Promise.all([issue(d), issue(d)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await lastIssued()).toBe(start + 1);
  });

  it('are not taken by an issue that the checks refuse', async () => {
    const start = await lastIssued();
    const refused = await draft(draftBody(partyId.ACME, { lines: [line({ vatCode: 'E', vatRate: '0' })] }));
    const r = await issue(refused);
    expect(r.status).toBe(422);
    expect((r.body.errors as { field: string }[]).map((e) => e.field)).toEqual(['lines.0.exemptionReason']);
    expect(await lastIssued()).toBe(start);
    const next = await issue(await draft());
    expect(seq(next.body.number)).toBe(start + 1);
  });

  it('are given back when the issuing transaction fails after taking one', async () => {
    // A failure late in the transaction, after the number was taken: marking the dossier's charges.
    await sql`
      create function boom() returns trigger language plpgsql as $$
      begin
        if new.invoiced_line_id is not null and new.description = 'BOOM' then
          raise exception 'the disk is full';
        end if;
        return new;
      end $$`.execute(db.db);
    await sql`create trigger boom before update on dossier_charges for each row execute function boom()`.execute(
      db.db,
    );
    try {
      const d = await call('POST', '/dossiers', staff, {
        type: 'domestic',
        mode: 'road',
        customerId: partyId.ACME,
      });
      const charged = await call('PUT', `/dossiers/${d.body.id}/charges`, staff, {
        version: d.body.version,
        charges: [
          { kind: 'revenue', chargeCode: 'FREIGHT', description: 'BOOM', amount: '10', currency: 'EUR' },
        ],
      });
      expect(charged.status).toBe(200);
      const start = await lastIssued();
      const failing = await draft({ dossierId: d.body.id });
      const r = await issue(failing);
      expect(r.status).toBe(500);
      expect(await lastIssued()).toBe(start);
      const still = await call('GET', `/sales-invoices/${failing.id}`, staff);
      expect(still.body).toMatchObject({ status: 'draft', number: null });
      const charges = await sql<{ invoiced_line_id: string | null }>`
        select invoiced_line_id from dossier_charges where dossier_id = ${d.body.id as string}`.execute(
        db.db,
      );
      expect(charges.rows).toEqual([{ invoiced_line_id: null }]);
      const next = await issue(await draft());
      expect(seq(next.body.number)).toBe(start + 1);
    } finally {
      await sql`drop trigger boom on dossier_charges`.execute(db.db);
      await sql`drop function boom()`.execute(db.db);
    }
  });

  it('of credit notes come from their own series', async () => {
    const startInvoices = await lastIssued();
    const startCredits = await lastIssued('credit_note');
    const inv = await issue(await draft());
    const cn = await call('POST', `/sales-invoices/${inv.body.id}/credit-notes`, staff, {
      version: inv.body.version,
    });
    const issued = await issue(cn.body as { id: string; version: number });
    expect(issued.body.number).toBe(`C-${year}-${String(startCredits + 1).padStart(6, '0')}`);
    expect(await lastIssued()).toBe(startInvoices + 1);
  });
});
