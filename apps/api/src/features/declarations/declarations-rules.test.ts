import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import type { Json } from '../../test/helpers.ts';
import { looseLine, receiptBody, testMrn } from '../warehouse/stock/test-support.ts';
import { content } from './sandbox/test-support.ts';
import { recordingGateway } from './test-support.ts';

/**
 * Issue 23 items 11, 13 and 14 (ADRs 0046, 0047): the pre-lodging check is the one rule function the
 * sandbox authority re-runs, so everything that can be decided before lodging is refused before
 * anything is sent (the invoice total to the cent, Union offices and EORIs, transit guarantees, the
 * procedures warehouse stock leaves by); invalidation under control is refused (UCC art. 174(1)).
 */
const recorder = recordingGateway();
const setup = apiTest({ deps: { customsGateway: recorder.gateway } });
const { db, staff, admin, partyId, call } = setup;

const errors = (body: Json) => (body.errors as { field: string; message: string }[] | undefined) ?? [];

async function draft(body: Json) {
  const r = await call('POST', '/declarations', staff, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as Json & { id: string; version: number; lrn: string };
}

async function lodge(body: Json) {
  const d = await draft(body);
  const before = recorder.calls.length;
  const r = await call('POST', `/declarations/${d.id}/lodge`, staff, { version: d.version });
  return { d, r, sent: recorder.calls.length - before };
}

/** Lodging is refused (422) with these errors, and nothing reaches the gateway. */
async function refusedBeforeLodging(body: Json) {
  const { d, r, sent } = await lodge(body);
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  expect(sent).toBe(0);
  expect((await call('GET', `/declarations/${d.id}`, staff)).body.status).toBe('draft');
  return errors(r.body);
}

describe('the check before lodging covers what the sandbox authority would refuse', () => {
  it('refuses an invoice total that differs from the items by a cent', async () => {
    const found = await refusedBeforeLodging({ ...content('import', partyId.ACME), invoiceTotal: '1000.01' });
    expect(found).toEqual([
      {
        field: 'invoiceTotal',
        message:
          "Invoice total 1,000.01 EUR differs from the sum of the items' invoice values, 1,000.00 EUR (Annex B, DE 4/11 and 4/14)",
      },
    ]);
    const items = (content('import', partyId.ACME).items as Json[]).map((i) => ({
      ...i,
      invoiceValue: null,
    }));
    const missing = await refusedBeforeLodging({ ...content('import', partyId.ACME), items });
    expect(missing.map((e) => e.field)).toEqual(['items.0.invoiceValue']);
  });

  it('refuses offices, EORIs and countries outside the Union where the Union is required', async () => {
    const imp = await refusedBeforeLodging({
      ...content('import', partyId.ACME),
      officeOfLodgement: 'US000123',
      officeOfExitEntry: 'CN000001',
      declarant: { name: 'Importer', countryCode: 'US', eori: 'US12345' },
    });
    expect(imp).toEqual([
      { field: 'declarant.eori', message: 'Declarant EORI US12345 was not issued in the Union (UCC art. 9)' },
      {
        field: 'officeOfLodgement',
        message: 'Office of lodgement US000123 is not a customs office of the Union (UCC art. 159)',
      },
      {
        field: 'officeOfExitEntry',
        message: 'Office of entry CN000001 is not a customs office of the Union (UCC art. 127)',
      },
    ]);
    const dispatchedHere = await refusedBeforeLodging({
      ...content('import', partyId.ACME),
      countryOfDispatch: 'NL',
    });
    expect(dispatchedHere.map((e) => e.field)).toEqual(['countryOfDispatch']);
    const exp = await refusedBeforeLodging({
      ...content('export', partyId.ACME),
      countryOfDispatch: 'US',
      countryOfDestination: 'DE',
    });
    expect(exp.map((e) => e.field)).toEqual(['countryOfDestination', 'countryOfDispatch']);
  });

  it('refuses a transit guarantee short of the duties at stake and an office outside common transit', async () => {
    const found = await refusedBeforeLodging({
      ...content('transit', partyId.ACME),
      guaranteeAmount: '728.00',
      officesOfTransit: ['RU000002'],
    });
    expect(found).toEqual([
      {
        field: 'officesOfTransit.0',
        message:
          'Office of transit RU000002 is not in a common transit country (Convention on a common transit procedure, art. 1)',
      },
      {
        field: 'guaranteeAmount',
        message:
          'Guarantee amount 728.00 EUR does not cover the duties and taxes at stake on the items, 728.01 EUR (UCC art. 89–90, IA art. 148)',
      },
    ]);
  });

  it('refuses an amendment that breaks them, before it is sent', async () => {
    const { d, r } = await lodge(content('import', partyId.ACME));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await sql`update declarations set status = 'accepted', mrn = ${testMrn()} where id = ${d.id}`.execute(
      db.db,
    );
    const now = (await call('GET', `/declarations/${d.id}`, staff)).body;
    const before = recorder.calls.length;
    const amend = await call('POST', `/declarations/${d.id}/amend`, staff, {
      version: now.version,
      reason: 'Entered at another office',
      changes: { officeOfExitEntry: 'US000001' },
    });
    expect(amend.status, JSON.stringify(amend.body)).toBe(422);
    expect(errors(amend.body).map((e) => e.field)).toEqual(['changes.officeOfExitEntry']);
    expect(recorder.calls.length).toBe(before);
  });
});

describe('goods leave the warehouse by the procedures their customs status allows', () => {
  async function received(customsStatus: string, sku: string) {
    const mrn = testMrn();
    const r = await call(
      'POST',
      '/stock-receipts',
      admin,
      receiptBody(partyId.ACME, [looseLine({ sku })], {
        customsStatus,
        inboundMrn: mrn,
        ...(customsStatus === 'non_union_customs_warehousing' ? { inboundMrnExternal: true } : {}),
      }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return mrn;
  }
  const citing = (procedureCode: string, type: string, reference: string) => {
    const body = content('import', partyId.ACME);
    return {
      ...body,
      items: (body.items as Json[]).map((i) => ({
        ...i,
        procedureCode,
        previousDocuments: [{ type, reference }],
      })),
    };
  };

  it('refuses 4071 for goods in temporary storage and wants their reference cited as N337', async () => {
    const mrn = await received('temporary_storage', 'TS-1');
    const found = await refusedBeforeLodging(citing('4071', 'MRN', mrn));
    expect(found.map((e) => e.field)).toEqual(['items.0.procedureCode', 'items.0.previousDocuments.0.type']);
    expect(found[0]?.message).toMatch(
      /^Goods in temporary storage are not under customs warehousing, which 4071 presumes/,
    );
    const { r } = await lodge(citing('4000', 'N337', mrn));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it('wants a procedure that discharges customs warehousing for goods under it', async () => {
    const mrn = await received('non_union_customs_warehousing', 'CW-1');
    const found = await refusedBeforeLodging(citing('4000', 'MRN', mrn));
    expect(found).toEqual([
      {
        field: 'items.0.procedureCode',
        message:
          'Goods under customs warehousing leave by a procedure that discharges it (previous procedure 71), e.g. 4071 release for free circulation or 3171 re-export, not 4000',
      },
    ]);
    const { r } = await lodge(citing('4071', 'MRN', mrn));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });
});

describe('invalidation under control', () => {
  it('is refused with the reason (409), and the action is not offered', async () => {
    const { d, r } = await lodge(content('import', partyId.ACME));
    expect(r.status).toBe(200);
    await sql`update declarations set status = 'under_control', mrn = ${testMrn()} where id = ${d.id}`.execute(
      db.db,
    );
    const now = (await call('GET', `/declarations/${d.id}`, staff)).body;
    expect(now.allowedActions).not.toContain('cancel');
    const before = recorder.calls.length;
    const cancel = await call('POST', `/declarations/${d.id}/cancel`, staff, {
      version: now.version,
      reason: 'Goods not shipped',
    });
    expect(cancel.status).toBe(409);
    expect(cancel.body.detail).toBe(
      `${d.lrn} is under control: customs have announced a control of the goods: a declaration cannot be cancelled while they are examined (UCC art. 174(1)); ask again once the control is over.`,
    );
    expect(errors(cancel.body).map((e) => e.field)).toEqual(['status']);
    expect(recorder.calls.length).toBe(before);
    expect((await call('GET', `/declarations/${d.id}`, staff)).body.pendingRequest).toBeNull();
  });
});

describe('amendment under control', () => {
  it('is refused with the reason (409) before anything is sent, and the action is not offered', async () => {
    const { d, r } = await lodge(content('import', partyId.ACME));
    expect(r.status).toBe(200);
    await sql`update declarations set status = 'under_control', mrn = ${testMrn()} where id = ${d.id}`.execute(
      db.db,
    );
    const now = (await call('GET', `/declarations/${d.id}`, staff)).body;
    expect(now.allowedActions).not.toContain('amend');
    const before = recorder.calls.length;
    const amend = await call('POST', `/declarations/${d.id}/amend`, staff, {
      version: now.version,
      reason: 'Typo in the place',
      changes: { locationOfGoods: 'NLRTM APM 2' },
    });
    expect(amend.status, JSON.stringify(amend.body)).toBe(409);
    expect(amend.body.detail).toBe(
      `${d.lrn} is under control: customs have announced a control of the goods: a declaration cannot be amended while they are examined (UCC art. 173(1)); ask again once the control is over.`,
    );
    expect(errors(amend.body).map((e) => e.field)).toEqual(['status']);
    expect(recorder.calls.length).toBe(before);
    const after = (await call('GET', `/declarations/${d.id}`, staff)).body;
    expect(after.pendingRequest).toBeNull();
    expect(after.locationOfGoods).toBe(now.locationOfGoods);
    // Once the control is over without a release decision yet (accepted), the amendment is offered again.
    await sql`update declarations set status = 'accepted' where id = ${d.id}`.execute(db.db);
    expect((await call('GET', `/declarations/${d.id}`, staff)).body.allowedActions).toContain('amend');
  });
});
