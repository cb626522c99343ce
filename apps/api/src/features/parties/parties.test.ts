import type { FieldError } from '@fvg/contracts';
import { describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import type { Json } from '../../test/helpers.ts';

const setup = apiTest();
const { db, admin, staff, acme, partyId, call } = setup;

const errorsOf = (body: Json) => (body.errors as FieldError[] | undefined) ?? [];

const valid = {
  code: 'tradeco',
  name: 'Trade Co S.p.A.',
  kinds: ['customer'],
  countryCode: 'it',
  vatNumber: 'IT 123 456 789 03',
  eori: 'IT12345678901',
  city: 'Genova',
  contacts: [{ name: 'Giulia Rossi', email: 'GIULIA@tradeco.example', role: 'Logistics' }],
};

describe('parties', () => {
  it('staff create a party; values are normalised; a duplicate code answers 409 on the code field', async () => {
    const r = await call('POST', '/parties', staff, valid);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      code: 'TRADECO',
      countryCode: 'IT',
      vatNumber: 'IT12345678903',
      version: 1,
    });
    expect((r.body.contacts as { email: string }[])[0]?.email).toBe('giulia@tradeco.example');
    const dup = await call('POST', '/parties', staff, { ...valid, name: 'Other' });
    expect(dup.status).toBe(409);
    expect(errorsOf(dup.body)).toEqual([{ field: 'code', message: 'Another party already has this code' }]);
  });

  it('validates country, VAT per prefix, EORI, roles and contacts', async () => {
    const bad = await call('POST', '/parties', staff, {
      ...valid,
      code: 'BAD1',
      countryCode: 'XX',
      vatNumber: 'NL123',
      eori: 'ZZ1',
      kinds: [],
      contacts: [{ name: '', email: 'nope' }],
    });
    expect(bad.status).toBe(400);
    expect(
      errorsOf(bad.body)
        .map((e) => e.field)
        .sort(),
    ).toEqual(['contacts.0.email', 'contacts.0.name', 'countryCode', 'eori', 'kinds', 'vatNumber'].sort());
    expect(errorsOf(bad.body).find((e) => e.field === 'vatNumber')?.message).toMatch(/NL VAT number/);
    // The rules' stable codes come along, for clients to word the problem ("Enter a VAT number such as …").
    expect(errorsOf(bad.body).find((e) => e.field === 'vatNumber')).toMatchObject({
      code: 'vat_number',
      params: { country: 'NL', example: 'NL004495445B01' },
    });
    expect(errorsOf(bad.body).find((e) => e.field === 'countryCode')?.code).toBe('country_code');
    // Zod's own checks carry no code: their message is the whole story.
    expect(errorsOf(bad.body).find((e) => e.field === 'kinds')?.code).toBeUndefined();
  });

  it('searches by name, code, VAT and EORI, and filters by role', async () => {
    for (const q of ['trade co', 'TRADECO', 'IT12345678903', 'genova']) {
      const r = await call('GET', `/parties?q=${encodeURIComponent(q)}`, staff);
      expect(
        (r.body.items as { code: string }[]).map((p) => p.code),
        q,
      ).toContain('TRADECO');
    }
    const carriers = await call('GET', '/parties?kind=carrier', staff);
    expect((carriers.body.items as { code: string }[]).map((p) => p.code).sort()).toEqual([
      'BLUESEA',
      'NORDCAR',
    ]);
  });

  it('edits with optimistic concurrency and keeps a history', async () => {
    const p = (await call('GET', '/parties?q=TRADECO', staff)).body.items as { id: string }[];
    const id = p[0]?.id as string;
    const ok = await call('PATCH', `/parties/${id}`, staff, { version: 1, city: 'Milano' });
    expect(ok.body).toMatchObject({ city: 'Milano', version: 2, contacts: [{ name: 'Giulia Rossi' }] });
    expect((await call('PATCH', `/parties/${id}`, staff, { version: 1, city: 'Roma' })).status).toBe(409);
    const history = (await call('GET', `/parties/${id}/history`, staff)).body as unknown as {
      changes: unknown[];
    }[];
    expect(history[0]?.changes).toEqual([{ field: 'city', from: 'Genova', to: 'Milano' }]);
  });

  it('a customer sees only their own party and changes nothing', async () => {
    const list = await call('GET', '/parties', acme);
    expect((list.body.items as { code: string }[]).map((p) => p.code)).toEqual(['ACME']);
    const other = (await call('GET', '/parties?q=GLOBEX', staff)).body.items as { id: string }[];
    expect((await call('GET', `/parties/${other[0]?.id}`, acme)).status).toBe(404);
    const own = (list.body.items as { id: string }[])[0]?.id;
    expect((await call('PATCH', `/parties/${own}`, acme, { version: 1, name: 'Hacked' })).status).toBe(403);
    expect((await call('POST', '/parties', acme, { ...valid, code: 'NEW' })).status).toBe(403);
  });

  it('only an admin deletes, and only an unused party', async () => {
    const used = ((await call('GET', '/parties?q=ACME', staff)).body.items as { id: string }[])[0]?.id;
    const fresh = (
      await call('POST', '/parties', staff, { ...valid, code: 'TEMP', vatNumber: null, eori: null })
    ).body.id;
    expect((await call('DELETE', `/parties/${fresh}`, staff)).status).toBe(403);
    expect((await call('DELETE', `/parties/${used}`, admin)).status).toBe(409);
    expect((await call('DELETE', `/parties/${fresh}`, admin)).status).toBe(204);
  });

  it('a party only an offer names is not deleted under it: 409, not the foreign key’s 500', async () => {
    const p = (
      await call('POST', '/parties', staff, { ...valid, code: 'OFFERONLY', vatNumber: null, eori: null })
    ).body.id;
    const validUntil = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    const offer = await call('POST', '/sales-offers', staff, { customerId: p, mode: 'sea', validUntil });
    expect(offer.status).toBe(201);
    const r = await call('DELETE', `/parties/${p}`, admin);
    expect(r.status).toBe(409);
    expect(r.body.detail).toBe(
      'This party is used by users, dossiers, charges, transports, offers, invoices or declarations and cannot be deleted.',
    );
    expect((await call('GET', `/parties/${p}`, staff)).status).toBe(200);
  });

  it('refuses a VAT number whose check digits fail, on create and on edit (issue 23 item 4)', async () => {
    const bad = await call('POST', '/parties', staff, {
      ...valid,
      code: 'CHECKDIGIT',
      vatNumber: 'DE123456789',
    });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([
      expect.objectContaining({ field: 'vatNumber', message: expect.stringMatching(/check digits/) }),
    ]);
    const ok = await call('POST', '/parties', staff, {
      ...valid,
      code: 'CHECKDIGIT',
      countryCode: 'DE',
      vatNumber: 'DE 136 695 976',
      eori: null,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.vatNumber).toBe('DE136695976');
    const edit = await call('PATCH', `/parties/${ok.body.id}`, staff, {
      version: 1,
      vatNumber: 'NL859437215B01',
    });
    expect(edit.status).toBe(400);
    expect(errorsOf(edit.body)[0]?.field).toBe('vatNumber');
  });

  it('keeps a Peppol endpoint: an EAS scheme and an id, both or neither (issue 23 item 6)', async () => {
    const r = await call('POST', '/parties', staff, {
      ...valid,
      code: 'PEPPOLCO',
      peppolScheme: '0088',
      peppolId: '5790000435968',
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ peppolScheme: '0088', peppolId: '5790000435968' });
    const id = r.body.id as string;
    // Not an EAS code; an id with spaces; a scheme without its id.
    const bad = await call('POST', '/parties', staff, {
      ...valid,
      code: 'PEPPOLX',
      peppolScheme: '1234',
      peppolId: 'a b',
    });
    expect(bad.status).toBe(400);
    expect(
      errorsOf(bad.body)
        .map((e) => e.field)
        .sort(),
    ).toEqual(['peppolId', 'peppolScheme']);
    const half = await call('POST', '/parties', staff, { ...valid, code: 'PEPPOLY', peppolScheme: '0088' });
    expect(half.status).toBe(400);
    expect(errorsOf(half.body)).toEqual([
      expect.objectContaining({ field: 'peppolId', code: 'peppol_endpoint' }),
    ]);
    // An edit that takes away the id but leaves the stored scheme: the pair is checked after merging.
    const orphan = await call('PATCH', `/parties/${id}`, staff, { version: 1, peppolId: null });
    expect(orphan.status).toBe(400);
    expect(errorsOf(orphan.body)).toEqual([
      expect.objectContaining({ field: 'peppolId', code: 'peppol_endpoint' }),
    ]);
    const cleared = await call('PATCH', `/parties/${id}`, staff, {
      version: 1,
      peppolScheme: null,
      peppolId: '',
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ peppolScheme: null, peppolId: null, version: 2 });
    // The database keeps the pair too, whoever writes.
    await expect(
      db.db.updateTable('parties').set({ peppol_scheme: '0088' }).where('id', '=', id).execute(),
    ).rejects.toThrow(/parties_peppol_pair/);
  });

  it('exports the list as CSV', async () => {
    const r = await call('GET', '/parties?format=csv', staff);
    expect(r.raw).toMatch(/^\uFEFFCode,Name,Roles/);
    expect(r.raw).toContain('TRADECO');
  });
});

describe('addressed by its code (ADR 0071)', () => {
  it('opens, changes and tells its history by its code in any case; an unknown code is a 404', async () => {
    const got = await call('GET', '/parties/acme', staff);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(partyId.ACME);
    const changed = await call('PATCH', '/parties/ACME', staff, {
      version: got.body.version,
      city: 'Rotterdam',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await call('GET', '/parties/Acme/history', staff)).status).toBe(200);
    expect((await call('GET', '/parties/NO-SUCH-PARTY', staff)).status).toBe(404);
    // A customer asking for another party by its code gets what its id gives.
    const byId = (await call('GET', `/parties/${partyId.GLOBEX}`, acme)).status;
    expect((await call('GET', '/parties/GLOBEX', acme)).status).toBe(byId);
  });
});
