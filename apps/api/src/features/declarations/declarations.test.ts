import { addMonths, monthName } from '@fvg/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import { createTestApp, type Json, multipartForm, nextEvent } from '../../test/helpers.ts';
import { customsMonthOf } from '../company/customs-rates.ts';
import { minimalPdf } from '../documents/minimal-pdf.ts';
import { noCustomsGateway } from './declarations.service.ts';
import {
  completeImport,
  declarantCompany,
  importItem,
  party,
  recordingGateway,
  TEST_USD_RATE,
} from './test-support.ts';

const recorder = recordingGateway();
const setup = apiTest({
  prepare: declarantCompany,
  files: 'fvg-declarations-',
  deps: { customsGateway: recorder.gateway },
  hub: true,
});
const { db, staff, acme, globex, partyId, call, hub } = setup;
const year = new Date().getUTCFullYear();

const errors = (body: Json) => (body.errors as { field: string; message: string }[] | undefined) ?? [];
const fields = (body: Json) => errors(body).map((e) => e.field);

async function create(body: Json) {
  const r = await call('POST', '/declarations', staff, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as Json & { id: string; version: number; lrn: string };
}

/** Lodges a draft through the API, then plays the authority's acceptance (the sandbox's job) in SQL. */
async function accepted(body: Json, mrn: string) {
  const d = await create(body);
  const l = await call('POST', `/declarations/${d.id}/lodge`, staff, { version: d.version });
  expect(l.status, JSON.stringify(l.body)).toBe(200);
  await db.db
    .updateTable('declarations')
    .set((eb) => ({ status: 'accepted', mrn, accepted_at: new Date(), version: eb('version', '+', 1) }))
    .where('id', '=', d.id)
    .execute();
  return (await call('GET', `/declarations/${d.id}`, staff)).body as Json & {
    id: string;
    version: number;
    lrn: string;
  };
}

describe('drafts', () => {
  it('creates from scratch with the LRN of the series, the customer as declarant and importer, the company as representative', async () => {
    const r = await create({
      type: 'import',
      customerId: partyId.ACME,
      notes: 'Broker fee agreed at 45 EUR',
    });
    expect(r.lrn).toMatch(new RegExp(`^LRN-${year}-\\d{6}$`));
    expect(r).toMatchObject({
      type: 'import',
      category: 'H1',
      status: 'draft',
      mrn: null,
      customer: { id: partyId.ACME, code: 'ACME' },
      declarant: { partyId: partyId.ACME, name: 'Acme Trading B.V.', eori: 'NL123456789', countryCode: 'NL' },
      consignee: { partyId: partyId.ACME, eori: 'NL123456789' },
      consignor: null,
      representative: { partyId: null, name: 'FVG Forwarding B.V.', eori: 'NL859437215' },
      representativeStatus: '2',
      items: [],
      notes: 'Broker fee agreed at 45 EUR',
      version: 1,
      allowedActions: ['edit', 'delete', 'lodge', 'copy'],
      gateway: { sandbox: true },
    });
    expect(r.totals).toMatchObject({ packages: 0, customsValue: '0.00', duty: null, dutyAndVat: null });
    // By LRN too, any case.
    const byLrn = await call('GET', `/declarations/${r.lrn.toLowerCase()}`, staff);
    expect(byLrn.status).toBe(200);
    expect(byLrn.body.id).toBe(r.id);
  });

  it('edits a draft: items replace the whole array, estimates and totals are computed, the version moves', async () => {
    const d = await create({ type: 'import', customerId: partyId.ACME });
    const r = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: d.version,
      currency: 'usd',
      invoiceTotal: '12000',
      exchangeRate: '0.92',
      items: [
        importItem({ dutyRate: '3.5', vatRate: '21', customsValue: '11500.00', vatCosts: '250.00' }),
        importItem({
          commodityCode: '85176200',
          dutyRate: null,
          packages: 5,
          grossMassKg: '10.5',
          netMassKg: '9',
        }),
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.version).toBe(2);
    expect(r.body.currency).toBe('USD');
    const items = r.body.items as Json[];
    expect(items.map((i) => i.position)).toEqual([1, 2]);
    expect(items[0]?.commodityCode).toBe('84713000');
    // Worked by hand: duty 11500 × 3.5 % = 402.50; VAT base 11500 + 402.50 + 250 = 12152.50;
    // VAT 21 % = 2552.025 → 2552.03 (half away from zero); total 2954.53.
    expect(items[0]?.estimate).toEqual({
      customsValue: '11500.00',
      dutyRate: '3.5',
      duty: '402.50',
      vatCosts: '250.00',
      vatBase: '12152.50',
      vatRate: '21',
      vat: '2552.03',
      total: '2954.53',
    });
    expect(items[1]?.estimate).toBeNull();
    expect(r.body.totals).toMatchObject({
      packages: 105,
      grossMassKg: '1210.500',
      customsValue: '23000.00',
      duty: '402.50',
      vat: '2552.03',
      dutyAndVat: '2954.53',
    });
    const listed = await call('GET', `/declarations?reference=${d.lrn}`, staff);
    expect((listed.body.items as Json[])[0]).toMatchObject({
      customsValue: '23000.00',
      dutyAndVat: '2954.53',
    });

    // A second edit without items keeps them; with [] removes them.
    const kept = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: 2,
      locationOfGoods: 'NLRTMECT',
    });
    expect((kept.body.items as Json[]).length).toBe(2);
    const emptied = await call('PATCH', `/declarations/${d.id}`, staff, { version: 3, items: [] });
    expect(emptied.body.items).toEqual([]);
    expect(emptied.body.totals).toMatchObject({ packages: 0, customsValue: '0.00', dutyAndVat: null });
  });

  it('refuses a stale version with 409 on version, and an LRN that is taken with 409 on lrn', async () => {
    const d = await create({ type: 'export', customerId: partyId.ACME });
    expect((await call('PATCH', `/declarations/${d.id}`, staff, { version: 1, notes: 'a' })).status).toBe(
      200,
    );
    const stale = await call('PATCH', `/declarations/${d.id}`, staff, { version: 1, notes: 'b' });
    expect(stale.status).toBe(409);
    expect(fields(stale.body)).toEqual(['version']);
    const other = await create({ type: 'export', customerId: partyId.ACME, lrn: 'OWN-LRN-1' });
    expect(other.lrn).toBe('OWN-LRN-1');
    const taken = await call('POST', '/declarations', staff, {
      type: 'export',
      customerId: partyId.ACME,
      lrn: 'own-lrn-1',
    });
    expect(taken.status).toBe(409);
    expect(fields(taken.body)).toEqual(['lrn']);
    const renamed = await call('PATCH', `/declarations/${d.id}`, staff, { version: 2, lrn: 'OWN-LRN-1' });
    expect(renamed.status).toBe(409);
    expect(fields(renamed.body)).toEqual(['lrn']);
  });

  it('refuses with 409 on lrn, taking no number, when the series has grown past the 22 characters of an LRN', async () => {
    const year = new Date().getUTCFullYear();
    const next = async () =>
      (
        await sql<{ n: number }>`select next_number as n from document_series_years
          where kind = 'declaration' and year = ${year}`.execute(db.db)
      ).rows[0]?.n;
    // A 12-character prefix (settings refuse it now, an older one may have it) and a counter past 6 digits.
    const original = await next();
    await sql`update document_series set prefix = 'LRN-LONG-PRE' where kind = 'declaration'`.execute(db.db);
    await sql`update document_series_years set next_number = 1000000 where kind = 'declaration' and year = ${year}`.execute(
      db.db,
    );
    const before = await next();
    try {
      const r = await call('POST', '/declarations', staff, { type: 'import', customerId: partyId.ACME });
      expect(r.status).toBe(409);
      expect(fields(r.body)).toEqual(['lrn']);
      expect(r.body.detail).toBe(
        `The declaration series gives LRN-LONG-PRE${year}-1000000, longer than the 22 characters an LRN may have: shorten the series prefix in the company settings, or enter the LRN.`,
      );
      expect(await next()).toBe(before);
      // An LRN given by hand still works.
      expect((await create({ type: 'import', customerId: partyId.ACME, lrn: 'BY-HAND-1' })).lrn).toBe(
        'BY-HAND-1',
      );
    } finally {
      await sql`update document_series set prefix = 'LRN-' where kind = 'declaration'`.execute(db.db);
      await sql`update document_series_years set next_number = ${original} where kind = 'declaration' and year = ${year}`.execute(
        db.db,
      );
    }
  });

  it('deletes a draft, and nothing else', async () => {
    const d = await create({ type: 'transit', customerId: partyId.ACME, category: 'T2' });
    expect(d.category).toBe('T2');
    expect((await call('DELETE', `/declarations/${d.id}`, staff)).status).toBe(204);
    expect((await call('GET', `/declarations/${d.id}`, staff)).status).toBe(404);
    const a = await accepted(completeImport(partyId.ACME), '26NL000396000017R3');
    // (the MRN above is made-up for the test row; the API never checks stored ones)
    const del = await call('DELETE', `/declarations/${a.id}`, staff);
    expect(del.status).toBe(409);
    expect(del.body.detail).toMatch(/is accepted: only a draft can be deleted/);
    const edit = await call('PATCH', `/declarations/${a.id}`, staff, { version: a.version, notes: 'x' });
    expect(edit.status).toBe(409);
    expect(edit.body.detail).toMatch(/only a draft can be edited\. Request an amendment instead\./);
  });

  it('copies a declaration into a new draft with a new LRN', async () => {
    const src = await create(completeImport(partyId.ACME));
    const copy = await create({ type: 'import', copyOf: src.id, notes: 'Second shipment' });
    expect(copy.lrn).not.toBe(src.lrn);
    expect(copy).toMatchObject({
      status: 'draft',
      customer: { id: partyId.ACME },
      officeOfLodgement: 'NL000396',
      currency: 'USD',
      // DE 4/8 goes with the rest of the header.
      methodOfPayment: 'E',
      notes: 'Second shipment',
    });
    expect((copy.items as Json[]).map((i) => i.commodityCode)).toEqual(['84713000']);
    // The declarant in its own name (status 1) has no representative suggested.
    const own = await create({ type: 'export', customerId: partyId.ACME, representativeStatus: '1' });
    expect(own).toMatchObject({
      representativeStatus: '1',
      representative: null,
      consignor: { partyId: partyId.ACME },
    });
    const wrong = await call('POST', '/declarations', staff, { type: 'export', copyOf: src.id });
    expect(wrong.status).toBe(422);
    expect(fields(wrong.body)).toEqual(['type']);
    const history = await call('GET', `/declarations/${copy.id}/history`, staff);
    expect((history.body as unknown as Json[])[0]?.action).toBe('copied');
  });
});

describe('the method of payment (DE 4/8)', () => {
  it('is stored, changed and cleared on a draft, refused when not a code, and needed to lodge an import with duties', async () => {
    const d = await create(completeImport(partyId.ACME, { methodOfPayment: 'A' }));
    expect(d.methodOfPayment).toBe('A');
    const bad = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: d.version,
      methodOfPayment: 'Z',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      expect.objectContaining({
        field: 'methodOfPayment',
        message: 'Choose a method of payment from the list',
      }),
    ]);
    const cleared = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: d.version,
      methodOfPayment: null,
    });
    expect(cleared.body.methodOfPayment).toBeNull();
    const refused = await call('POST', `/declarations/${d.id}/lodge`, staff, {
      version: cleared.body.version,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { field: 'methodOfPayment', message: 'Choose how the duties and taxes are paid (DE 4/8)' },
    ]);
    const set = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: cleared.body.version,
      methodOfPayment: 'H',
    });
    expect((await call('GET', `/declarations/${d.id}`, staff)).body.methodOfPayment).toBe('H');
    expect(
      (await call('POST', `/declarations/${d.id}/lodge`, staff, { version: set.body.version })).status,
    ).toBe(200);
  });
});

describe('the Annex B data elements (issue 26 item 1)', () => {
  const annexB = {
    locationOfGoods: 'nlrtm',
    locationOfGoodsType: 'A',
    locationOfGoodsQualifier: 'U',
    authorisations: [{ type: 'C506', reference: 'nl dpo 0001234' }],
    additionalInformation: [{ code: '00500', text: 'Importer declares itself' }],
    seals: [{ identifier: 'ml 4471230', container: 'MSKU6011672' }],
  };

  it('stores, answers and copies them, item data included, as the contract normalised them', async () => {
    const d = await create(
      completeImport(partyId.ACME, {
        ...annexB,
        items: [
          importItem({ additionalProcedureCodes: ['f45'], valuationMethod: '1', supplementaryUnits: '100' }),
          importItem({
            valuationMethod: '3',
            valuationReason: 'Related parties: similar goods sold at this value',
          }),
        ],
      }),
    );
    const expected = {
      locationOfGoods: 'nlrtm',
      locationOfGoodsType: 'A',
      locationOfGoodsQualifier: 'U',
      authorisations: [{ type: 'C506', reference: 'NLDPO0001234' }],
      additionalInformation: [{ code: '00500', text: 'Importer declares itself' }],
      seals: [{ identifier: 'ML4471230', container: 'MSKU6011672' }],
      limitDate: null,
      items: [
        expect.objectContaining({
          additionalProcedureCodes: ['F45'],
          valuationMethod: '1',
          supplementaryUnits: '100',
        }),
        expect.objectContaining({
          valuationMethod: '3',
          valuationReason: 'Related parties: similar goods sold at this value',
        }),
      ],
    };
    expect((await call('GET', `/declarations/${d.id}`, staff)).body).toMatchObject(expected);
    // A copy takes the content as it stands: the new data too.
    const copy = await create({ type: 'import', copyOf: d.id });
    expect(copy).toMatchObject(expected);
    // Saving the same seals again changes nothing: the history has no seals entry (jsonb reorders keys).
    const same = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: d.version,
      seals: [{ container: 'MSKU6011672', identifier: 'ML4471230' }],
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    const before = (await call('GET', `/declarations/${d.id}/history`, staff)).body as unknown as {
      action: string;
      changes: { field: string }[];
    }[];
    expect(before.some((h) => h.action === 'created')).toBe(true);
    expect(
      before.filter((h) => h.action !== 'created').flatMap((h) => h.changes.map((c) => c.field)),
    ).not.toContain('seals');
    // The lists are replaced whole by an edit; the history names the field that changed.
    const edited = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: same.body.version,
      authorisations: [],
    });
    expect(edited.body.authorisations).toEqual([]);
    const history = (await call('GET', `/declarations/${d.id}/history`, staff)).body as unknown as {
      changes: { field: string }[];
    }[];
    expect(history.flatMap((h) => h.changes.map((c) => c.field))).toContain('authorisations');
  });

  it('refuses to lodge without what the rules ask, citing the source; the column checks keep out what is not a code', async () => {
    const d = await create(
      completeImport(partyId.ACME, { ...annexB, authorisations: [], locationOfGoods: 'NL RTM' }),
    );
    const refused = await call('POST', `/declarations/${d.id}/lodge`, staff, { version: d.version });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        field: 'locationOfGoods',
        message: 'With qualifier U the location is a UN/LOCODE of 5 characters, e.g. NLRTM',
      },
      {
        field: 'authorisations',
        message:
          'Deferred payment (E) needs the deferment authorisation: add C506 with its number (UCC art. 110; Annex B, DE 2/3)',
      },
    ]);
    const item = await db.db
      .selectFrom('declaration_items')
      .select('id')
      .where('declaration_id', '=', d.id)
      .executeTakeFirstOrThrow();
    await expect(
      db.db
        .updateTable('declaration_items')
        .set({ additional_procedure_codes: ['F4'] })
        .where('id', '=', item.id)
        .execute(),
    ).rejects.toThrow(/check constraint/);
    await expect(
      db.db
        .updateTable('declarations')
        .set({ location_of_goods_qualifier: 'Q' })
        .where('id', '=', d.id)
        .execute(),
    ).rejects.toThrow(/check constraint/);
  });

  it('names each data element by its Annex B number in the API reference', async () => {
    const doc = JSON.stringify((await setup.app.inject('/api/openapi.json')).json());
    for (const de of [
      'DE 1/11',
      'DE 2/2',
      'DE 2/3',
      'DE 4/8',
      'DE 4/14',
      'DE 4/16',
      'DE 5/23',
      'DE 6/2',
      'DE 7/18',
      'DE 8/5',
    ])
      expect(doc, de).toContain(de);
  });
});

describe('the customs value built from the invoice (issue 26 item 2)', () => {
  it('stores the additions, deductions and key, and lodges a transaction value only when it equals its build-up', async () => {
    // 12 000.00 USD × 0.92 = 11 040.00 EUR; the item's customs value 11 500.00 holds 460.00 of freight.
    const d = await create(
      completeImport(partyId.ACME, { additionTransportInsurance: '400', apportionment: 'mass' }),
    );
    expect(d).toMatchObject({
      additionTransportInsurance: '400.00',
      apportionment: 'mass',
      deductionDuties: null,
    });
    const refused = await call('POST', `/declarations/${d.id}/lodge`, staff, { version: d.version });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        field: 'items.0.customsValue',
        message:
          'The customs value of item 1 is 11,500.00 EUR; its price at the rate with its share of the additions and deductions (by mass) gives 11,440.00 EUR (UCC art. 70–72)',
      },
    ]);
    const fixed = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: d.version,
      additionTransportInsurance: '460.00',
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(
      (await call('POST', `/declarations/${d.id}/lodge`, staff, { version: fixed.body.version })).status,
    ).toBe(200);
  });
});

describe('goods under CBAM (issue 26 item 4)', () => {
  it("counts the importer's CBAM goods of the year across its declarations: de minimis (Y137) until 50 tonnes, then the CBAM account (Y128)", async () => {
    // An importer of its own, so no other test's declarations count.
    const importer = party({ partyId: partyId.ACME, name: 'Steel Importer B.V.', eori: 'NL555555555' });
    const steel = (netMassKg: string, document: { type: string; reference: string }) =>
      importItem({
        commodityCode: '7318 15 95 90',
        description: 'Steel hex bolts, M12',
        supplementaryUnits: null,
        grossMassKg: String(Number(netMassKg) + 500),
        netMassKg,
        supportingDocuments: [{ type: 'N380', reference: 'INV-2026-0042' }, document],
      });
    const y137 = { type: 'Y137', reference: 'N/A' };
    const first = await create(
      completeImport(partyId.ACME, { consignee: importer, items: [steel('40000', y137)] }),
    );
    const lodged = await call('POST', `/declarations/${first.id}/lodge`, staff, { version: first.version });
    expect(lodged.status, JSON.stringify(lodged.body)).toBe(200);

    // 40 000 + 12 000 kg: above the threshold, de minimis no longer holds.
    const second = await create(
      completeImport(partyId.ACME, { consignee: importer, items: [steel('12000', y137)] }),
    );
    const refused = await call('POST', `/declarations/${second.id}/lodge`, staff, {
      version: second.version,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        field: 'items.0.supportingDocuments',
        message:
          "Item 1 is goods under CBAM (iron and steel, CN 7318): the importer's goods under CBAM come to 52 000.000 kg this year with this declaration, above the 50-tonne threshold; de minimis (Y137) no longer applies, cite the CBAM account number (Y128) (Regulation (EU) 2023/956, art. 2a)",
      },
    ]);
    // Another importer's goods do not count; this one's account number lets it through.
    const other = await create(completeImport(partyId.ACME, { items: [steel('12000', y137)] }));
    expect(
      (await call('POST', `/declarations/${other.id}/lodge`, staff, { version: other.version })).status,
    ).toBe(200);
    const fixed = await call('PATCH', `/declarations/${second.id}`, staff, {
      version: second.version,
      items: [steel('12000', { type: 'Y128', reference: 'CBAM-NL-2026-AAA00000000042' })],
    });
    expect(
      (await call('POST', `/declarations/${second.id}/lodge`, staff, { version: fixed.body.version })).status,
    ).toBe(200);
  });
});

describe('from a dossier', () => {
  it('prefills parties with their EORI, goods, containers, references and transport', async () => {
    const dossier = await call('POST', '/dossiers', staff, {
      type: 'import',
      mode: 'sea',
      customerId: partyId.ACME,
      consignorId: partyId.GLOBEX,
      incoterm: 'FOB',
      incotermPlace: 'Shanghai',
      originLocode: 'CNSHA',
      destinationLocode: 'NLRTM',
      masterBl: 'MAEU123456789',
      houseBl: 'FVGSHA0042',
      cargoDescription: 'Bicycle parts',
      packages: 24,
      packageType: 'Pallets',
      grossWeightKg: '10450.5',
      containers: [{ number: 'MSKU6011672', sizeType: '22G1' }],
    });
    expect(dossier.status).toBe(201);
    const d = await create({ type: 'import', dossierId: dossier.body.id as string });
    expect(d).toMatchObject({
      dossier: { id: dossier.body.id, number: dossier.body.number },
      customer: { id: partyId.ACME },
      declarant: { partyId: partyId.ACME, eori: 'NL123456789' },
      consignee: { partyId: partyId.ACME, eori: 'NL123456789' },
      consignor: { partyId: partyId.GLOBEX, eori: 'DE1234567890123', countryCode: 'DE' },
      representative: { name: 'FVG Forwarding B.V.', eori: 'NL859437215' },
      representativeStatus: '2',
      holder: null,
      countryOfDispatch: 'CN',
      countryOfDestination: 'NL',
      transportModeBorder: '1',
      transportModeInland: null,
      containerIndicator: true,
      incoterm: 'FOB',
      incotermPlace: 'Shanghai',
    });
    expect(d.items).toEqual([
      expect.objectContaining({
        position: 1,
        description: 'Bicycle parts',
        packages: 24,
        packageKind: 'PX',
        grossMassKg: '10450.5',
        procedureCode: '4000',
        containers: ['MSKU6011672'],
        supportingDocuments: [
          { type: 'N705', reference: 'FVGSHA0042' },
          { type: 'N705', reference: 'MAEU123456789' },
        ],
      }),
    ]);
    // Export: the customer is the exporter, procedure 1000; sent fields win over the prefill.
    const e = await create({
      type: 'export',
      dossierId: dossier.body.id as string,
      countryOfDestination: 'US',
    });
    expect(e).toMatchObject({
      consignor: { partyId: partyId.ACME },
      countryOfDestination: 'US',
      category: 'B1',
    });
    expect((e.items as Json[])[0]?.procedureCode).toBe('1000');
    // Transit: the forwarder holds the procedure; no procedure code on the item.
    const t = await create({ type: 'transit', dossierId: dossier.body.id as string });
    expect(t).toMatchObject({ holder: { name: 'FVG Forwarding B.V.' }, category: 'T1' });
    expect((t.items as Json[])[0]?.procedureCode).toBeNull();
    // Another customer than the dossier's is refused on customerId.
    const wrong = await call('POST', '/declarations', staff, {
      type: 'import',
      dossierId: dossier.body.id,
      customerId: partyId.GLOBEX,
    });
    expect(wrong.status).toBe(422);
    expect(fields(wrong.body)).toEqual(['customerId']);
    const listed = await call('GET', `/declarations?dossierId=${dossier.body.id}&sort=createdAt`, staff);
    expect((listed.body.items as Json[]).map((i) => i.id)).toEqual([d.id, e.id, t.id]);
    // The dossier's tab shows an export's exit confirmation, the proof for zero-rated export VAT.
    await db.db
      .updateTable('declarations')
      .set({ status: 'exited', exited_at: new Date('2026-11-12T09:30:00Z'), lodged_at: new Date() })
      .where('id', '=', e.id)
      .execute();
    const withExit = await call('GET', `/declarations?dossierId=${dossier.body.id}&type=export`, staff);
    expect(withExit.body.items).toEqual([
      expect.objectContaining({ id: e.id, exitedAt: '2026-11-12T09:30:00.000Z' }),
    ]);
  });

  it('counts the containers only its tracked events know: the draft is containerised (issue 27 item 5)', async () => {
    const dossier = await call('POST', '/dossiers', staff, {
      type: 'import',
      mode: 'sea',
      customerId: partyId.ACME,
      originLocode: 'CNSHA',
      destinationLocode: 'NLRTM',
      masterBl: 'MAEU987654321',
    });
    expect(dossier.status, JSON.stringify(dossier.body)).toBe(201);
    // The summary an event linked by the BL left (the container-events area keeps it).
    await sql`
      insert into container_summaries (equipment_reference, dossier_id, event_count, latest_event_id,
        latest_is_act, latest_event_date_time, latest_event_created_date_time, latest_event_type,
        latest_type_code)
      values ('TGHU9876543', ${dossier.body.id as string}::uuid, 1, uuidv7(), true, now(), now(), 'EQUIPMENT',
        'DISC')`.execute(db.db);
    const d = await create({ type: 'import', dossierId: dossier.body.id as string });
    expect(d.containerIndicator).toBe(true);
    expect((d.items as Json[])[0]?.containers).toEqual(['TGHU9876543']);
  });
});

describe('every validation error names its field', () => {
  const header: [string, Json, string][] = [
    ['type', { type: 'customs' }, 'type'],
    ['category of the type', { category: 'T1' }, 'category'],
    ['customer', { customerId: undefined }, 'customerId'],
    ['LRN format', { lrn: 'lrn with spaces' }, 'lrn'],
    ['LRN length', { lrn: 'A'.repeat(23) }, 'lrn'],
    ['declarant EORI', { declarant: party({ eori: 'XX12' }) }, 'declarant.eori'],
    ['declarant name', { declarant: party({ name: '' }) }, 'declarant.name'],
    [
      'representative country',
      { representative: party({ countryCode: 'ZZ' }) },
      'representative.countryCode',
    ],
    ['representative status', { representativeStatus: '4' }, 'representativeStatus'],
    ['office of lodgement', { officeOfLodgement: 'NL0003' }, 'officeOfLodgement'],
    ['office of exit', { officeOfExitEntry: 'ZZ000396' }, 'officeOfExitEntry'],
    ['office of transit', { officesOfTransit: ['DE004058', 'bad'] }, 'officesOfTransit.1'],
    ['country of dispatch', { countryOfDispatch: 'XX' }, 'countryOfDispatch'],
    ['transport mode', { transportModeBorder: '6' }, 'transportModeBorder'],
    ['container indicator', { containerIndicator: 'yes' }, 'containerIndicator'],
    ['incoterm', { incoterm: 'FREE' }, 'incoterm'],
    ['nature of transaction', { natureOfTransaction: '123' }, 'natureOfTransaction'],
    ['currency', { currency: 'XYZ' }, 'currency'],
    ['invoice total decimals', { currency: 'JPY', invoiceTotal: '100.50' }, 'invoiceTotal'],
    ['invoice total negative', { invoiceTotal: '-1' }, 'invoiceTotal'],
    ['exchange rate', { exchangeRate: '0' }, 'exchangeRate'],
    ['guarantee type', { guaranteeType: 'Z' }, 'guaranteeType'],
    ['GRN', { guaranteeReference: 'G'.repeat(25) }, 'guaranteeReference'],
    ['guarantee amount', { guaranteeAmount: '0' }, 'guaranteeAmount'],
    ['unknown field', { colour: 'blue' }, 'colour'],
  ];
  const item: [string, Json, string][] = [
    ['commodity code', { commodityCode: '7712 00 00' }, 'items.0.commodityCode'],
    ['commodity code length', { commodityCode: '84713' }, 'items.0.commodityCode'],
    ['country of origin', { countryOfOrigin: 'QQ' }, 'items.0.countryOfOrigin'],
    ['preference', { preference: '10' }, 'items.0.preference'],
    ['procedure code format', { procedureCode: '40' }, 'items.0.procedureCode'],
    ['procedure code of the category', { procedureCode: '1000' }, 'items.0.procedureCode'],
    ['packages', { packages: -1 }, 'items.0.packages'],
    ['package kind', { packageKind: 'ZZ' }, 'items.0.packageKind'],
    ['gross mass', { grossMassKg: '0' }, 'items.0.grossMassKg'],
    ['net over gross', { grossMassKg: '10', netMassKg: '11' }, 'items.0.netMassKg'],
    ['customs value', { customsValue: '1.234' }, 'items.0.customsValue'],
    ['duty rate', { dutyRate: '-1' }, 'items.0.dutyRate'],
    ['VAT rate', { vatRate: '121' }, 'items.0.vatRate'],
    ['container number', { containers: ['MSKU6011673'] }, 'items.0.containers.0'],
    [
      'supporting document type',
      { supportingDocuments: [{ type: 'X1', reference: 'a' }] },
      'items.0.supportingDocuments.0.type',
    ],
    [
      'previous export MRN',
      { previousDocuments: [{ type: 'N830', reference: '22ITZXBZYUTJFLJXK6' }] },
      'items.0.previousDocuments.0.reference',
    ],
    [
      'previous MRN check',
      { previousDocuments: [{ type: 'MRN', reference: '25NL000000001234A1' }] },
      'items.0.previousDocuments.0.reference',
    ],
  ];

  it.each(header)('create refuses a wrong %s', async (_what, over, field) => {
    const body = { ...completeImport(partyId.ACME), ...over };
    if ('customerId' in over && over.customerId === undefined) delete (body as Json).customerId;
    const r = await call('POST', '/declarations', staff, body);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(fields(r.body)).toEqual([field]);
    expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it.each(item)('an item refuses a wrong %s', async (_what, over, field) => {
    const r = await call(
      'POST',
      '/declarations',
      staff,
      completeImport(partyId.ACME, { items: [importItem(over)] }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(fields(r.body)).toEqual([field]);
  });

  it('the edit checks the stored category and currency too', async () => {
    const d = await create({
      ...completeImport(partyId.ACME),
      currency: 'JPY',
      invoiceTotal: '1200',
      exchangeRate: '0.0061',
    });
    const decimals = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: d.version,
      invoiceTotal: '1200.5',
    });
    expect(decimals.status).toBe(400);
    expect(fields(decimals.body)).toEqual(['invoiceTotal']);
    const procedure = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: d.version,
      items: [importItem({ procedureCode: '1000' })],
    });
    expect(procedure.status).toBe(400);
    expect(fields(procedure.body)).toEqual(['items.0.procedureCode']);
    const category = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: d.version,
      category: 'B1',
    });
    expect(category.status).toBe(400);
    expect(fields(category.body)).toEqual(['category']);
  });
});

describe('lodging, amending, cancelling', () => {
  it('refuses to lodge what is missing, with every field path, and sends nothing', async () => {
    const d = await create({
      type: 'import',
      customerId: partyId.ACME,
      items: [importItem({ commodityCode: null, netMassKg: null })],
    });
    const before = recorder.calls.length;
    const r = await call('POST', `/declarations/${d.id}/lodge`, staff, { version: d.version });
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(new RegExp(`^${d.lrn} cannot be sent yet`));
    expect(fields(r.body)).toEqual(
      expect.arrayContaining([
        'officeOfLodgement',
        'countryOfDispatch',
        'currency',
        'invoiceTotal',
        'items.0.commodityCode',
        'items.0.netMassKg',
      ]),
    );
    expect(recorder.calls.length).toBe(before);
    expect((await call('GET', `/declarations/${d.id}`, staff)).body.status).toBe('draft');
  });

  it('lodges a complete draft through the gateway, once', async () => {
    const d = await create(completeImport(partyId.ACME));
    const r = await call('POST', `/declarations/${d.id}/lodge`, staff, { version: d.version });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      status: 'lodged',
      version: d.version + 1,
      allowedActions: ['cancel', 'copy'],
    });
    expect(typeof r.body.lodgedAt).toBe('string');
    expect(recorder.calls.at(-1)).toMatchObject({ op: 'lodge', declarationId: d.id });
    const again = await call('POST', `/declarations/${d.id}/lodge`, staff, { version: r.body.version });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(`${d.lrn} is lodged: only a draft can be lodged.`);
    const stale = await call('POST', `/declarations/${d.id}/lodge`, staff, { version: d.version });
    expect(stale.status).toBe(409);
    expect(fields(stale.body)).toEqual(['version']);
    const history = (await call('GET', `/declarations/${d.id}/history`, staff)).body as unknown as Json[];
    expect(history.map((h) => h.action)).toEqual(['lodged', 'created']);
  });

  it('a gateway failure rolls the lodging back', async () => {
    const broken = await createTestApp(
      db,
      { dataDir: setup.dataDir },
      {
        customsGateway: {
          ...recorder.gateway,
          lodge: async () => {
            throw new Error('the line to the authority is down');
          },
        },
      },
    );
    try {
      const d = await create(completeImport(partyId.ACME));
      const r = await broken.inject({
        method: 'POST',
        url: `/api/declarations/${d.id}/lodge`,
        headers: staff,
        payload: { version: d.version },
      });
      expect(r.statusCode).toBe(500);
      const after = await call('GET', `/declarations/${d.id}`, staff);
      expect(after.body).toMatchObject({ status: 'draft', version: d.version, lodgedAt: null });
    } finally {
      await broken.close();
    }
  });

  it('requests an amendment of an accepted declaration with the content after the change', async () => {
    const a = await accepted(completeImport(partyId.ACME), '26NL00039600000A12');
    expect(a.allowedActions).toEqual(['amend', 'cancel', 'copy']);
    const missing = await call('POST', `/declarations/${a.id}/amend`, staff, {
      version: a.version,
      reason: 'Wrong mass',
      changes: { items: [importItem({ netMassKg: null })] },
    });
    expect(missing.status).toBe(422);
    expect(fields(missing.body)).toEqual(['changes.items.0.netMassKg']);
    const nothing = await call('POST', `/declarations/${a.id}/amend`, staff, {
      version: a.version,
      reason: 'x',
      changes: {},
    });
    expect(nothing.status).toBe(400);
    expect(fields(nothing.body)).toEqual(['changes']);
    const noReason = await call('POST', `/declarations/${a.id}/amend`, staff, {
      version: a.version,
      reason: '',
      changes: { notes: 'x' },
    });
    expect(fields(noReason.body)).toEqual(['reason']);

    const r = await call('POST', `/declarations/${a.id}/amend`, staff, {
      version: a.version,
      reason: 'Net mass was weighed again',
      changes: { items: [importItem({ netMassKg: '990' })] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      status: 'accepted',
      pendingRequest: 'amendment',
      allowedActions: ['copy'],
    });
    // The content changes only when the authority accepts: still the old mass here.
    expect((r.body.items as Json[])[0]?.netMassKg).toBe('1000');
    const call_ = recorder.calls.at(-1) as { op: string; reason: string; proposed: Json };
    expect(call_).toMatchObject({ op: 'amend', declarationId: a.id, reason: 'Net mass was weighed again' });
    expect((call_.proposed.items as Json[])[0]?.netMassKg).toBe('990');
    const stored = await db.db
      .selectFrom('declarations')
      .select('pending_amendment')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect((stored.pending_amendment as Json).items).toEqual([expect.objectContaining({ netMassKg: '990' })]);
    const second = await call('POST', `/declarations/${a.id}/cancel`, staff, {
      version: r.body.version,
      reason: 'x',
    });
    expect(second.status).toBe(409);
    expect(second.body.detail).toMatch(/waits for the authority's answer to its amendment request/);
  });

  it('requests cancellation where the status allows it', async () => {
    const draft = await create({ type: 'import', customerId: partyId.ACME });
    const d = await call('POST', `/declarations/${draft.id}/cancel`, staff, {
      version: draft.version,
      reason: 'Not needed',
    });
    expect(d.status).toBe(409);
    expect(d.body.detail).toMatch(/is a draft: nothing was lodged to cancel/);
    const a = await accepted(completeImport(partyId.ACME), '26NL00039600000B17');
    const r = await call('POST', `/declarations/${a.id}/cancel`, staff, {
      version: a.version,
      reason: 'Goods not shipped',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ pendingRequest: 'cancellation', status: 'accepted' });
    expect(recorder.calls.at(-1)).toMatchObject({
      op: 'cancel',
      declarationId: a.id,
      reason: 'Goods not shipped',
    });
    await db.db
      .updateTable('declarations')
      .set({ status: 'released', pending_request: null })
      .where('id', '=', a.id)
      .execute();
    const released = await call('POST', `/declarations/${a.id}/cancel`, staff, {
      version: r.body.version as number,
      reason: 'x',
    });
    expect(released.status).toBe(409);
    expect(released.body.detail).toBe(
      `${a.lrn} is released: the goods have been released for free circulation: an import declaration can no longer be cancelled.`,
    );
    const amend = await call('POST', `/declarations/${a.id}/amend`, staff, {
      version: r.body.version,
      reason: 'x',
      changes: { notes: 'y' },
    });
    expect(amend.status).toBe(409);
  });

  it('answers 503 when no gateway is configured, and lodges nothing', async () => {
    // The app lodges through the sandbox by default; a deployment without a gateway gets this one.
    const none = await createTestApp(db, { dataDir: setup.dataDir }, { customsGateway: noCustomsGateway });
    try {
      const d = await create(completeImport(partyId.ACME));
      const r = await none.inject({
        method: 'POST',
        url: `/api/declarations/${d.id}/lodge`,
        headers: staff,
        payload: { version: d.version },
      });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({ detail: 'No customs gateway configured.' });
      expect((await call('GET', `/declarations/${d.id}`, staff)).body.status).toBe('draft');
    } finally {
      await none.close();
    }
  });
});

describe('customers', () => {
  it('see their own lodged declarations read-only, never drafts, notes or another party', async () => {
    const draft = await create({
      type: 'import',
      customerId: partyId.ACME,
      notes: 'Internal: broker fee 45',
    });
    const own = await accepted(
      completeImport(partyId.ACME, { notes: 'Internal: broker fee 45' }),
      '26NL00039600000C13',
    );
    const other = await accepted(completeImport(partyId.GLOBEX), '26NL00039600000D19');

    expect((await call('GET', `/declarations/${draft.id}`, acme)).status).toBe(404);
    expect((await call('GET', `/declarations/${other.id}`, acme)).status).toBe(404);
    expect((await call('GET', `/declarations/${other.id}/messages`, acme)).status).toBe(404);
    expect((await call('GET', `/declarations/${other.id}/history`, acme)).status).toBe(404);
    const mine = await call('GET', `/declarations/${own.id}`, acme);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ notes: null, allowedActions: [] });
    expect(JSON.stringify(mine.body)).not.toContain('broker fee');

    const list = await call('GET', '/declarations?pageSize=200', acme);
    const ids = (list.body.items as Json[]).map((i) => i.id);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(draft.id);
    expect(ids).not.toContain(other.id);
    expect((list.body.items as Json[]).every((i) => (i.customer as Json).id === partyId.ACME)).toBe(true);

    // Read-only: their own is 403, another's and a draft 404 (as if missing).
    expect(
      (await call('PATCH', `/declarations/${own.id}`, acme, { version: own.version, notes: 'x' })).status,
    ).toBe(403);
    expect(
      (await call('POST', `/declarations/${own.id}/cancel`, acme, { version: own.version, reason: 'x' }))
        .status,
    ).toBe(403);
    expect(
      (await call('POST', `/declarations/${other.id}/cancel`, acme, { version: other.version, reason: 'x' }))
        .status,
    ).toBe(404);
    expect((await call('DELETE', `/declarations/${draft.id}`, acme)).status).toBe(404);
    expect(
      (await call('POST', '/declarations', acme, { type: 'import', customerId: partyId.ACME })).status,
    ).toBe(403);

    // History starts at the lodging, without the notes.
    const history = (await call('GET', `/declarations/${own.id}/history`, acme)).body as unknown as Json[];
    expect(history.map((h) => h.action)).toEqual(['lodged']);
    // Globex' customer finds nothing of Acme's.
    expect((await call('GET', `/declarations/${own.id}`, globex)).status).toBe(404);
  });
});

describe('the list', () => {
  it('filters by type, status, customer, reference, dates and pending requests; sorts; pages by cursor; exports', async () => {
    const e1 = await create({ type: 'export', customerId: partyId.GLOBEX, lrn: 'LIST-EXP-1' });
    const e2 = await create({ type: 'export', customerId: partyId.GLOBEX, lrn: 'LIST-EXP-2' });
    const t1 = await create({ type: 'transit', customerId: partyId.GLOBEX, lrn: 'LIST-TRA-1' });
    const get = async (q: string) => {
      const r = await call('GET', `/declarations?${q}`, staff);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body as Json & { items: Json[]; nextCursor: string | null; total: number };
    };
    expect((await get('reference=list-exp&sort=lrn')).items.map((i) => i.lrn)).toEqual([
      'LIST-EXP-1',
      'LIST-EXP-2',
    ]);
    expect((await get('reference=LIST-&type=transit')).items.map((i) => i.id)).toEqual([t1.id]);
    expect((await get('reference=LIST-&type=export,transit&sort=-lrn')).items.map((i) => i.lrn)).toEqual([
      'LIST-TRA-1',
      'LIST-EXP-2',
      'LIST-EXP-1',
    ]);
    expect((await get(`reference=LIST-&status=lodged`)).total).toBe(0);
    expect((await get(`customerId=${partyId.GLOBEX}&reference=LIST-`)).total).toBe(3);
    // The date filter counts the company's days (Europe/Amsterdam), not UTC's: at 23:30 UTC it is
    // already tomorrow there.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(new Date());
    expect((await get(`reference=LIST-&from=${today}&to=${today}`)).total).toBe(3);
    expect((await get('reference=LIST-&to=2000-01-01')).total).toBe(0);
    expect((await get('reference=LIST-&pendingRequest=true')).total).toBe(0);
    expect((await get('q=LIST-TRA')).items.map((i) => i.id)).toEqual([t1.id]);
    // Not a prefix of any LRN: the substring search, the customer's name included, counted past a page.
    const byName = await get('q=lobex&pageSize=1');
    expect(byName.total).toBeGreaterThanOrEqual(3);
    expect(byName.nextCursor).not.toBeNull();

    const page1 = await get('reference=LIST-&sort=lrn&pageSize=2');
    expect(page1.items.map((i) => i.id)).toEqual([e1.id, e2.id]);
    const page2 = await get(
      `reference=LIST-&sort=lrn&pageSize=2&cursor=${encodeURIComponent(page1.nextCursor as string)}`,
    );
    expect(page2.items.map((i) => i.id)).toEqual([t1.id]);
    expect(page2.nextCursor).toBeNull();

    const bad = await call('GET', '/declarations?status=flying&sort=colour', staff);
    expect(bad.status).toBe(400);

    const csv = await call('GET', '/declarations/export?format=csv&reference=LIST-&sort=lrn', staff);
    expect(csv.status).toBe(200);
    const lines = csv.raw.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^\uFEFF?LRN,MRN,Type,Category,Status,Customer/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['LIST-EXP-1', 'LIST-EXP-2', 'LIST-TRA-1']);
    expect(lines[1]).toContain('Export,B1,Draft');
    const xlsx = await call('GET', '/declarations/export?format=xlsx&reference=LIST-', staff);
    expect(xlsx.status).toBe(200);
    expect(String(xlsx.headers['content-type'])).toMatch(/spreadsheetml/);
  });

  it('the search never reads the internal notes, and a customer cannot sort by what is not theirs to see', async () => {
    const own = await accepted(
      completeImport(partyId.ACME, { notes: 'Secret-Broker-Fee-4711', lrn: 'SEARCH-NOTES-1' }),
      '26NL00039600000F10',
    );
    for (const who of [staff, acme]) {
      const r = await call('GET', '/declarations?q=Secret-Broker-Fee-4711', who);
      expect(r.status).toBe(200);
      expect(r.body.total).toBe(0);
    }
    const byLrn = await call('GET', '/declarations?q=SEARCH-NOTES', acme);
    expect((byLrn.body.items as Json[]).map((i) => i.id)).toEqual([own.id]);
    const sort = await call('GET', '/declarations?sort=notes', acme);
    expect(sort.status).toBe(400);
    expect(fields(sort.body)).toEqual(['sort']);
  });
});

describe('history and messages', () => {
  it('records who changed what, with names for the customer', async () => {
    const d = await create({ type: 'import', customerId: partyId.ACME, officeOfLodgement: 'NL000396' });
    await call('PATCH', `/declarations/${d.id}`, staff, {
      version: d.version,
      officeOfLodgement: 'NL000123',
      items: [importItem()],
    });
    const history = (await call('GET', `/declarations/${d.id}/history`, staff)).body as unknown as Json[];
    expect(history.map((h) => h.action)).toEqual(['updated', 'created']);
    expect(history[0]?.changes).toEqual([
      { field: 'officeOfLodgement', from: 'NL000396', to: 'NL000123' },
      { field: 'items', from: [], to: ['1. 84713000 Laptops, 14 inch, 1200 kg'] },
    ]);
    expect(history[0]?.actor).toMatchObject({ name: 'Sam Staff' });
    const created = history[1]?.changes as { field: string; to: unknown }[];
    expect(created.find((c) => c.field === 'customerId')?.to).toMatchObject({
      id: partyId.ACME,
      code: 'ACME',
    });
  });

  it('lists the message log oldest first, with who sent what', async () => {
    const d = await create(completeImport(partyId.ACME));
    const staffUser = await db.db
      .selectFrom('users')
      .select(['id', 'name'])
      .where('email', '=', 'staff@fvg.local')
      .executeTakeFirstOrThrow();
    await db.db
      .insertInto('declaration_messages')
      .values([
        {
          declaration_id: d.id,
          direction: 'sent',
          kind: 'lodge',
          summary: 'Lodged',
          sandbox: true,
          created_by: staffUser.id,
          at: new Date('2026-03-01T10:00:00Z'),
        },
        {
          declaration_id: d.id,
          direction: 'received',
          kind: 'rejected',
          summary: 'Rejected',
          sandbox: true,
          rules: JSON.stringify([{ code: 'SBX-R101', text: 'Office unknown', field: 'officeOfLodgement' }]),
          at: new Date('2026-03-01T10:00:02Z'),
        },
      ])
      .execute();
    const r = await call('GET', `/declarations/${d.id}/messages`, staff);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      expect.objectContaining({
        direction: 'sent',
        kind: 'lodge',
        by: { id: staffUser.id, name: staffUser.name },
        rules: [],
      }),
      expect.objectContaining({
        direction: 'received',
        kind: 'rejected',
        by: null,
        mrn: null,
        sandbox: true,
        at: '2026-03-01T10:00:02.000Z',
        rules: [{ code: 'SBX-R101', text: 'Office unknown', field: 'officeOfLodgement' }],
      }),
    ]);
  });
});

describe('documents', () => {
  it('attach to a declaration without a dossier, in its customer scope once lodged', async () => {
    const d = await accepted(completeImport(partyId.ACME), '26NL00039600000E14');
    const upload = multipartForm(
      { recordType: 'declaration', recordId: d.id, documentType: 'release_note', visibleToCustomer: 'true' },
      [{ filename: 'release-note.pdf', content: minimalPdf('Release'), contentType: 'application/pdf' }],
    );
    const res = await setup.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...staff, 'content-type': upload.contentType },
      payload: upload.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const docId = (res.json() as { items: Json[] }).items[0]?.id as string;
    const q = `/documents?recordType=declaration&recordId=${d.id}`;
    expect(((await call('GET', q, staff)).body.items as Json[]).map((x) => x.id)).toEqual([docId]);
    expect(((await call('GET', q, acme)).body.items as Json[]).map((x) => x.id)).toEqual([docId]);
    expect((await call('GET', `/documents/${docId}`, acme)).status).toBe(200);
    expect((await call('GET', `/documents/${docId}`, globex)).status).toBe(404);
    expect((await call('GET', q, globex)).status).toBe(404);
    // A draft's documents are not the customer's; and a draft with documents is not deleted under them.
    const draft = await create({ type: 'import', customerId: partyId.ACME });
    const up2 = multipartForm(
      {
        recordType: 'declaration',
        recordId: draft.id,
        documentType: 'commercial_invoice',
        visibleToCustomer: 'false',
      },
      [{ filename: 'invoice.pdf', content: minimalPdf('Invoice'), contentType: 'application/pdf' }],
    );
    const res2 = await setup.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...staff, 'content-type': up2.contentType },
      payload: up2.payload,
    });
    expect(res2.statusCode, res2.body).toBe(201);
    expect((await call('GET', `/documents?recordType=declaration&recordId=${draft.id}`, acme)).status).toBe(
      404,
    );
    const del = await call('DELETE', `/declarations/${draft.id}`, staff);
    expect(del.status).toBe(409);
  });
});

describe('the hub', () => {
  it('announces declarations to staff at once, and to their customer from lodging on', async () => {
    type Change = { kind: string; id: string; action: string };
    const staffConn = await hub.connect(staff);
    const acmeConn = await hub.connect(acme);
    const acmeHeard: Change[] = [];
    acmeConn.on('RecordChanged', (c: Change) => acmeHeard.push(c));
    const created = nextEvent<Change>(
      staffConn,
      'RecordChanged',
      (c) => c.kind === 'declaration' && c.action === 'created',
    );
    const d = await create(completeImport(partyId.ACME));
    expect(await created).toEqual({ kind: 'declaration', id: d.id, action: 'created' });
    const updated = nextEvent<Change>(
      staffConn,
      'RecordChanged',
      (c) => c.id === d.id && c.action === 'updated',
    );
    await call('PATCH', `/declarations/${d.id}`, staff, { version: d.version, notes: 'x' });
    expect(await updated).toEqual({ kind: 'declaration', id: d.id, action: 'updated' });
    const acmeLodged = nextEvent<Change>(acmeConn, 'RecordChanged', (c) => c.id === d.id);
    expect(
      (await call('POST', `/declarations/${d.id}/lodge`, staff, { version: d.version + 1 })).status,
    ).toBe(200);
    expect(await acmeLodged).toEqual({ kind: 'declaration', id: d.id, action: 'updated' });
    expect(acmeHeard.filter((c) => c.id === d.id)).toEqual([
      { kind: 'declaration', id: d.id, action: 'updated' },
    ]);
  });
});

describe('the customs exchange rate of the month (UCC art. 53, ADR 0070)', () => {
  const month = customsMonthOf();
  const rateMessage = (body: Json) => errors(body).find((e) => e.field === 'exchangeRate')?.message;

  it('a draft in another currency starts at the company’s rate of the month; a typed rate stays', async () => {
    const fresh = await create(completeImport(partyId.ACME, { exchangeRate: null }));
    expect(fresh.exchangeRate).toBe(TEST_USD_RATE);
    const typed = await create(completeImport(partyId.ACME, { exchangeRate: '0.93' }));
    expect(typed.exchangeRate).toBe('0.93');
    // No rate kept for the currency: the draft starts without one.
    const gbp = await create(completeImport(partyId.ACME, { currency: 'GBP', exchangeRate: null }));
    expect(gbp.exchangeRate).toBeNull();
  });

  it('lodging refuses a rate apart from the table’s, or a currency the table has no rate for this month', async () => {
    const off = await create(completeImport(partyId.ACME, { exchangeRate: '0.93' }));
    const r = await call('POST', `/declarations/${off.id}/lodge`, staff, { version: off.version });
    expect(r.status).toBe(422);
    expect(rateMessage(r.body)).toBe(
      `The customs exchange rate for USD in ${monthName(month)} is 0.92, not 0.93 (UCC art. 53(1); IA art. 146)`,
    );
    const gbp = await create(completeImport(partyId.ACME, { currency: 'GBP', exchangeRate: '1.17' }));
    const g = await call('POST', `/declarations/${gbp.id}/lodge`, staff, { version: gbp.version });
    expect(g.status).toBe(422);
    expect(rateMessage(g.body)).toMatch(
      new RegExp(`^The company has no customs exchange rate for GBP in ${monthName(month)}: enter`),
    );
    expect((await call('GET', `/declarations/${gbp.id}`, staff)).body.status).toBe('draft');
    // The same rate written with more decimals is the same rate.
    const same = await create(completeImport(partyId.ACME, { exchangeRate: '0.920000' }));
    const s = await call('POST', `/declarations/${same.id}/lodge`, staff, { version: same.version });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
  });

  it('a rate a lodged declaration was converted at is corrected, never removed', async () => {
    const r = await call('DELETE', `/company/customs-rates/${month}/USD`, staff);
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatch(
      new RegExp(`^Declarations lodged in ${monthName(month)} were converted at this rate \\(LRN-`),
    );
    const rates = await call('GET', `/company/customs-rates?month=${month}`, staff);
    expect(rates.body.rates).toMatchObject([{ currency: 'USD', rate: TEST_USD_RATE }]);
  });

  it('an amendment is converted at the rate of the month the declaration was lodged in', async () => {
    const a = await accepted(completeImport(partyId.ACME), '26NL00039600000R53');
    const back = addMonths(month, -3);
    await db.db
      .updateTable('declarations')
      .set({ lodged_at: new Date(`${back}-15T10:00:00Z`) })
      .where('id', '=', a.id)
      .execute();
    const amend = () =>
      call('POST', `/declarations/${a.id}/amend`, staff, {
        version: a.version,
        reason: 'The rate of the month of acceptance',
        changes: { exchangeRate: '0.95' },
      });
    const none = await amend();
    expect(none.status).toBe(422);
    expect(errors(none.body).find((e) => e.field === 'changes.exchangeRate')?.message).toMatch(
      new RegExp(`no customs exchange rate for USD in ${monthName(back)}`),
    );
    await db.db
      .insertInto('customs_exchange_rates')
      .values({ month: `${back}-01`, currency: 'USD', rate: '0.95' })
      .execute();
    const ok = await amend();
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.pendingRequest).toBe('amendment');
  });
});
