import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { completeCompany, draftBody, line } from '../features/sales-invoices/test-support.ts';
import { apiTest } from '../test/api-test.ts';
import type { Json } from '../test/helpers.ts';

/*
 * Issue 23 items 4 and 6 through the API: VAT by the seller's country and the buyer's VAT registration,
 * the K and G categories in the UBL, and no Peppol file for a buyer without an electronic address.
 * The UBL of the issued K and G invoices is written to test-results/ubl/ for the Peppol validator
 * (`.ci/run`; ../shared/conformance/peppol).
 */
const OUT = path.resolve(fileURLToPath(new URL('../../../../', import.meta.url)), 'test-results/ubl');

const setup = apiTest({ prepare: completeCompany, files: 'fvg-vat-' });
const { db, staff, acme, partyId, call } = setup;
beforeAll(async () => {
  await mkdir(OUT, { recursive: true });
});

const errors = (body: Json) => (body.errors as { field: string; message: string; code?: string }[]) ?? [];
const fields = (body: Json) => errors(body).map((e) => e.field);

async function draft(body: Json) {
  const r = await call('POST', '/sales-invoices', staff, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; version: number };
}
const issue = (d: { id: string; version: number }) =>
  call('POST', `/sales-invoices/${d.id}/issue`, staff, { version: d.version });

async function partyOutsideTheEu(code: string, extra: Json = {}) {
  const r = await call('POST', '/parties', staff, {
    code,
    name: `${code} Inc.`,
    kinds: ['customer'],
    countryCode: 'US',
    street: '400 W Randolph St',
    postalCode: '60606',
    city: 'Chicago',
    ...extra,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}

describe('VAT by country at issue (issue 23 item 4)', () => {
  it('refuses a Dutch seller charging 19 % on lines.N.vatRate; 21 % and 9 % are Dutch rates', async () => {
    const d = await draft(draftBody(partyId.ACME, { lines: [line(), line({ vatRate: '19' })] }));
    const r = await issue(d);
    expect(r.status).toBe(422);
    expect(errors(r.body)).toEqual([
      expect.objectContaining({
        field: 'lines.1.vatRate',
        message: '19 % is not a VAT rate of the Netherlands on this date: 21 % standard, 9 % reduced',
      }),
    ]);
    const ok = await draft(draftBody(partyId.ACME, { lines: [line(), line({ vatRate: '9' })] }));
    expect((await issue(ok)).status).toBe(200);
  });

  it('reverse-charges only a customer VAT-registered in another member state', async () => {
    const ae = line({ vatCode: 'AE', vatRate: '0', exemptionReason: 'VATEX-EU-AE' });
    // ACME's VAT number is Dutch, like the seller's: domestic, VAT is due.
    const domestic = await issue(await draft(draftBody(partyId.ACME, { lines: [ae] })));
    expect(domestic.status).toBe(422);
    expect(errors(domestic.body)).toEqual([
      expect.objectContaining({ field: 'buyer.vatNumber', code: 'art196' }),
    ]);
    expect(errors(domestic.body)[0]?.message).toMatch(/another EU member state than the Netherlands/);
    expect((await issue(await draft(draftBody(partyId.GLOBEX, { lines: [ae] })))).status).toBe(200);
  });

  it('refuses at issue a VAT number whose check digits fail, although it was stored around the API', async () => {
    await db.db
      .updateTable('parties')
      .set({ vat_number: 'DE123456789' })
      .where('id', '=', partyId.GLOBEX)
      .execute();
    try {
      const ae = line({ vatCode: 'AE', vatRate: '0', exemptionReason: 'VATEX-EU-AE' });
      const r = await issue(await draft(draftBody(partyId.GLOBEX, { lines: [ae] })));
      expect(r.status).toBe(422);
      expect(fields(r.body)).toEqual(['buyer.vatNumber']);
      expect(errors(r.body)[0]?.message).toMatch(/check digits/);
    } finally {
      await db.db
        .updateTable('parties')
        .set({ vat_number: 'DE123456788' })
        .where('id', '=', partyId.GLOBEX)
        .execute();
    }
  });

  it('issues an intra-Community supply (K, art. 138) with its delivery, and its UBL carries K', async () => {
    const k = line({
      chargeCode: 'OTHER',
      description: 'Machine parts, delivered to Hamburg',
      vatCode: 'K',
      vatRate: '0',
      exemptionReason: 'VATEX-EU-IC',
    });
    const noDate = await issue(await draft(draftBody(partyId.GLOBEX, { lines: [k] })));
    expect(noDate.status).toBe(422);
    expect(fields(noDate.body)).toEqual(['supplyDate']);
    // Not to a customer registered in the seller's own member state.
    const nl = await issue(await draft(draftBody(partyId.ACME, { lines: [k], supplyDate: '2026-11-02' })));
    expect(nl.status).toBe(422);
    expect(errors(nl.body)).toEqual([expect.objectContaining({ field: 'buyer.vatNumber', code: 'art138' })]);

    const d = await draft(draftBody(partyId.GLOBEX, { lines: [k], supplyDate: '2026-11-02' }));
    const r = await issue(d);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const ubl = await call('GET', `/sales-invoices/${d.id}/ubl`, staff);
    expect(ubl.status).toBe(200);
    expect(ubl.raw).toMatch(
      /<cac:TaxCategory>\s*<cbc:ID>K<\/cbc:ID>\s*<cbc:Percent>0<\/cbc:Percent>\s*<cbc:TaxExemptionReasonCode>VATEX-EU-IC<\/cbc:TaxExemptionReasonCode>/,
    );
    expect(ubl.raw).toContain('intra-Community supply of goods (art. 138 VAT Directive)');
    expect(ubl.raw).toMatch(
      /<cbc:ActualDeliveryDate>2026-11-02<\/cbc:ActualDeliveryDate>\s*<cac:DeliveryLocation>\s*<cac:Address>\s*<cac:Country>\s*<cbc:IdentificationCode>DE</,
    );
    await writeFile(path.join(OUT, 'api-intra-community-k.xml'), ubl.raw);
  });

  it('issues an export of goods (G, art. 146) to a buyer outside the EU, with its own endpoint', async () => {
    const us = await partyOutsideTheEu('HOUSTONPARTS', { peppolScheme: '0088', peppolId: '5790000435968' });
    const g = line({
      chargeCode: 'OTHER',
      description: 'Machine parts, exported to the United States',
      vatCode: 'G',
      vatRate: '0',
      exemptionReason: 'VATEX-EU-G',
    });
    const d = await draft(draftBody(us, { lines: [g] }));
    const r = await issue(d);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const ubl = await call('GET', `/sales-invoices/${d.id}/ubl`, staff);
    expect(ubl.status).toBe(200);
    expect(ubl.raw).toMatch(
      /<cbc:ID>G<\/cbc:ID>\s*<cbc:Percent>0<\/cbc:Percent>\s*<cbc:TaxExemptionReasonCode>VATEX-EU-G</,
    );
    expect(ubl.raw).toContain('<cbc:EndpointID schemeID="0088">5790000435968</cbc:EndpointID>');
    await writeFile(path.join(OUT, 'api-export-g.xml'), ubl.raw);
  });
});

describe('never a Peppol file the rules refuse (issue 23 item 6)', () => {
  it('a buyer with no electronic address: issued with its PDF, the UBL a 409 saying what to enter, then served', async () => {
    const party = await partyOutsideTheEu('NOADDRESS');
    const e = line({ vatCode: 'E', vatRate: '0', exemptionReason: 'VATEX-EU-146-1E' });
    const d = await draft(draftBody(party, { lines: [e] }));
    const before = (await call('GET', `/sales-invoices/${d.id}`, staff)).body as {
      buyer: Json;
      eInvoiceProblems: Json[];
    };
    expect(before.buyer).toMatchObject({ peppolScheme: null, peppolId: null, vatNumber: null });
    // The draft warns before issuing: not refused, but no e-invoice.
    expect(before.eInvoiceProblems).toEqual([
      expect.objectContaining({ field: 'buyer.peppolId', code: 'PEPPOL-EN16931-R010' }),
    ]);
    const r = await issue(d);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const pdf = await call('GET', `/sales-invoices/${d.id}/pdf`, staff);
    expect(pdf.status).toBe(200);

    expect((await call('GET', `/sales-invoices/${d.id}`, staff)).body.eInvoiceProblems).toHaveLength(1);
    const ubl = await call('GET', `/sales-invoices/${d.id}/ubl`, staff);
    expect(ubl.status).toBe(409);
    expect(ubl.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(errors(ubl.body)).toEqual([
      expect.objectContaining({ field: 'buyer.peppolId', code: 'PEPPOL-EN16931-R010' }),
    ]);
    expect(ubl.body.detail).toMatch(/enter its Peppol scheme and endpoint id/);

    // The customer's record gains its address: the issued invoice's file goes out with it.
    const current = (await call('GET', `/parties/${party}`, staff)).body as { version: number };
    const patched = await call('PATCH', `/parties/${party}`, staff, {
      version: current.version,
      peppolScheme: '0060',
      peppolId: '123456789',
    });
    expect(patched.status).toBe(200);
    expect((await call('GET', `/sales-invoices/${d.id}`, staff)).body.eInvoiceProblems).toEqual([]);
    const now = await call('GET', `/sales-invoices/${d.id}/ubl`, staff);
    expect(now.status).toBe(200);
    expect(now.raw).toContain('<cbc:EndpointID schemeID="0060">123456789</cbc:EndpointID>');
  });

  it('a new draft for a party with a Peppol endpoint carries it as the buyer’s (BT-49)', async () => {
    const party = await partyOutsideTheEu('WITHENDPOINT', {
      peppolScheme: '0088',
      peppolId: '4000001000005',
    });
    const d = await draft(
      draftBody(party, { lines: [line({ vatCode: 'E', vatRate: '0', exemptionReason: 'VATEX-EU-146-1E' })] }),
    );
    const r = await issue(d);
    expect(r.status).toBe(200);
    expect(r.body.buyer).toMatchObject({ peppolScheme: '0088', peppolId: '4000001000005' });
    // What the customer itself sees of its own party (no one else's).
    expect((await call('GET', `/parties/${party}`, acme)).status).toBe(404);
  });
});
