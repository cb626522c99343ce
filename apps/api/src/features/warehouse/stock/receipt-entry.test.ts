import { makeMrn } from '@fvg/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as m0032 from '../../../db/migrations/0032-receipt-entries.ts';
import { apiTest } from '../../../test/api-test.ts';
import type { Json } from '../../../test/helpers.ts';
import { looseLine, receiptBody, testMrn } from './test-support.ts';

/**
 * Issue 23 item 10 (ADR 0046): a customs-warehouse receipt names a real entry — its owner's released
 * H2 declaration of this system, or an MRN marked as external — on every path, with the database's
 * check and trigger (migration 0032) as the last line.
 */
const setup = apiTest();
const { db, admin, partyId, call } = setup;

const errors = (body: Json) => (body.errors as { field: string; message: string }[] | undefined) ?? [];

let lrnSerial = 0;
/** An import declaration of `customerId` in `status` with `mrn`, written as the authority left it. */
async function declaration(customerId: string, category: 'H1' | 'H2', status: string, mrn: string) {
  const lrn = `LRN-I23-${++lrnSerial}`;
  const r = await sql<{ id: string }>`
    insert into declarations (type, category, status, lrn, mrn, customer_id, lodged_at)
    values ('import', ${category}, ${status}, ${lrn}, ${mrn}, ${customerId}, now())
    returning id`.execute(db.db);
  return { id: r.rows[0]?.id as string, lrn, mrn };
}

const warehoused = (over: Json) =>
  receiptBody(partyId.ACME, [looseLine()], { customsStatus: 'non_union_customs_warehousing', ...over });

async function refused(body: Json) {
  const r = await call('POST', '/stock-receipts', admin, body);
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  return errors(r.body);
}

describe('a customs-warehouse receipt names a real entry', () => {
  it('refuses the MRN of our own H1 declaration that is not released, with the reason', async () => {
    const h1 = await declaration(partyId.ACME, 'H1', 'accepted', testMrn());
    const typed = await refused(warehoused({ inboundMrn: h1.mrn }));
    expect(typed).toEqual([
      {
        field: 'inboundMrn',
        message: expect.stringContaining(`${h1.lrn} is a release for free circulation (H1)`),
      },
    ]);
    // Marking it external changes nothing: it is ours, and judged as ours.
    const marked = await refused(warehoused({ inboundMrn: h1.mrn, inboundMrnExternal: true }));
    expect(marked.map((e) => e.field)).toEqual(['inboundMrn']);
    expect(marked[0]?.message).toContain(h1.lrn);
    const count = await db.db
      .selectFrom('stock_receipts')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('inbound_mrn', '=', h1.mrn)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('refuses an H2 entry that customs have not released yet, and another owner’s', async () => {
    const accepted = await declaration(partyId.ACME, 'H2', 'accepted', testMrn());
    const byId = await refused(warehoused({ entryDeclarationId: accepted.id }));
    expect(byId).toEqual([
      {
        field: 'entryDeclarationId',
        message: `${accepted.lrn} is accepted: goods enter customs warehousing once customs have released their H2 declaration`,
      },
    ]);
    expect((await refused(warehoused({ inboundMrn: accepted.mrn }))).map((e) => e.field)).toEqual([
      'inboundMrn',
    ]);
    const globex = await declaration(partyId.GLOBEX, 'H2', 'released', testMrn());
    const theirs = await refused(warehoused({ inboundMrn: globex.mrn }));
    expect(theirs[0]?.message).toContain("another customer's declaration");
    expect((await refused(warehoused({ entryDeclarationId: globex.id }))).map((e) => e.field)).toEqual([
      'entryDeclarationId',
    ]);
  });

  it('links the owner’s released H2 named by its id or by its MRN', async () => {
    const h2 = await declaration(partyId.ACME, 'H2', 'released', testMrn());
    const byMrn = await call('POST', '/stock-receipts', admin, warehoused({ inboundMrn: h2.mrn }));
    expect(byMrn.status, JSON.stringify(byMrn.body)).toBe(201);
    expect(byMrn.body).toMatchObject({
      inboundMrn: h2.mrn,
      inboundMrnExternal: false,
      entryDeclaration: { id: h2.id, lrn: h2.lrn, mrn: h2.mrn },
    });
    const byId = await call('POST', '/stock-receipts', admin, warehoused({ entryDeclarationId: h2.id }));
    expect(byId.status, JSON.stringify(byId.body)).toBe(201);
    expect(byId.body).toMatchObject({ inboundMrn: h2.mrn, entryDeclaration: { id: h2.id } });
  });

  it('takes an MRN no declaration of ours holds only when it is marked external', async () => {
    const mrn = testMrn();
    const unmarked = await refused(warehoused({ inboundMrn: mrn }));
    expect(unmarked).toEqual([
      {
        field: 'inboundMrn',
        message: `No declaration in the system has MRN ${mrn}: link the entry declaration, or mark the MRN as external (lodged by another declarant)`,
      },
    ]);
    const r = await call(
      'POST',
      '/stock-receipts',
      admin,
      warehoused({ inboundMrn: mrn, inboundMrnExternal: true }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ inboundMrn: mrn, inboundMrnExternal: true, entryDeclaration: null });
    // An external entry is an import MRN, check character verified.
    const exportMrn = makeMrn({ year: 26, country: 'NL', serial: '000000009999', letter: 'A' });
    const wrongType = await refused(warehoused({ inboundMrn: exportMrn, inboundMrnExternal: true }));
    expect(wrongType[0]?.field).toBe('inboundMrn');
    expect(wrongType[0]?.message).toMatch(/Position 17 of an import MRN/);
    // With a linked declaration the mark contradicts it.
    const h2 = await declaration(partyId.ACME, 'H2', 'released', testMrn());
    const both = await refused(warehoused({ entryDeclarationId: h2.id, inboundMrnExternal: true }));
    expect(both.map((e) => e.field)).toEqual(['inboundMrnExternal']);
  });

  it('the database refuses what the API would, whoever writes the receipt', async () => {
    const h1 = await declaration(partyId.ACME, 'H1', 'released', testMrn());
    const insert = (values: { entry: string | null; mrn: string | null; external: boolean }) =>
      sql`
        insert into stock_receipts (number, owner_id, received_on, customs_status, inbound_mrn,
                                    inbound_mrn_external, entry_declaration_id)
        values (${`R-I23-${Math.random().toString(36).slice(2, 9)}`}, ${partyId.ACME}, current_date,
                'non_union_customs_warehousing', ${values.mrn}, ${values.external}, ${values.entry})`.execute(
        db.db,
      );
    await expect(insert({ entry: h1.id, mrn: h1.mrn, external: false })).rejects.toMatchObject({
      constraint: 'stock_receipts_entry_released_h2',
    });
    await expect(insert({ entry: null, mrn: h1.mrn, external: true })).rejects.toMatchObject({
      constraint: 'stock_receipts_entry_external_not_ours',
    });
    await expect(insert({ entry: null, mrn: testMrn(), external: false })).rejects.toMatchObject({
      constraint: 'stock_receipts_entry_named',
    });
    await expect(insert({ entry: null, mrn: testMrn(), external: true })).resolves.toBeDefined();
    const h2 = await declaration(partyId.ACME, 'H2', 'released', testMrn());
    await expect(
      sql`insert into stock_receipts (number, owner_id, received_on, customs_status, entry_declaration_id)
          values ('R-I23-UNION', ${partyId.ACME}, current_date, 'union', ${h2.id})`.execute(db.db),
    ).rejects.toMatchObject({ constraint: 'stock_receipts_entry_warehousing_only' });
  });

  it('links an entry declaration only for goods under customs warehousing', async () => {
    const h2 = await declaration(partyId.ACME, 'H2', 'released', testMrn());
    const union = await refused(receiptBody(partyId.ACME, [looseLine()], { entryDeclarationId: h2.id }));
    expect(union.map((e) => e.field)).toEqual(['entryDeclarationId']);
    // Another customer's declaration never shows on a receipt, whatever the status.
    const globex = await declaration(partyId.GLOBEX, 'H2', 'released', testMrn());
    const r = await call(
      'POST',
      '/stock-receipts',
      admin,
      receiptBody(partyId.ACME, [looseLine()], {
        customsStatus: 'temporary_storage',
        entryDeclarationId: globex.id,
      }),
    );
    expect(r.status).toBe(422);
  });
});

describe('migration 0032 on the receipts written before it', () => {
  it('links only the owner’s released H2 with that MRN; another party’s or an unreleased one’s MRN becomes external', async () => {
    const own = await declaration(partyId.ACME, 'H2', 'released', testMrn());
    const others = await declaration(partyId.GLOBEX, 'H2', 'released', testMrn());
    const notReleased = await declaration(partyId.ACME, 'H2', 'accepted', testMrn());
    const rollback = new Error('rollback');
    const after = await db.db
      .transaction()
      .execute(async (trx) => {
        // The state before 0032: receipts under customs warehousing with a typed MRN and no link.
        await m0032.down(trx as never);
        const insert = async (mrn: string) =>
          (
            await sql<{ id: string }>`
              insert into stock_receipts (number, owner_id, received_on, customs_status, inbound_mrn)
              values (${`R-OLD-${Math.random().toString(36).slice(2, 9)}`}, ${partyId.ACME}, current_date,
                      'non_union_customs_warehousing', ${mrn})
              returning id`.execute(trx)
          ).rows[0]?.id as string;
        const ids = [await insert(own.mrn), await insert(others.mrn), await insert(notReleased.mrn)];
        await m0032.up(trx as never);
        const rows = await sql<{
          id: string;
          entry_declaration_id: string | null;
          inbound_mrn_external: boolean;
        }>`
          select id, entry_declaration_id, inbound_mrn_external from stock_receipts where id = any(${ids}::uuid[])`.execute(
          trx,
        );
        const result = ids.map((id) => rows.rows.find((r) => r.id === id));
        throw Object.assign(rollback, { result });
      })
      .catch((e) => (e === rollback ? (rollback as Error & { result: unknown }).result : Promise.reject(e)));
    expect(after).toEqual([
      expect.objectContaining({ entry_declaration_id: own.id, inbound_mrn_external: false }),
      expect.objectContaining({ entry_declaration_id: null, inbound_mrn_external: true }),
      expect.objectContaining({ entry_declaration_id: null, inbound_mrn_external: true }),
    ]);
  });
});
