import type { FieldError } from '@fvg/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import type { Json } from '../../test/helpers.ts';
import { takeSeriesNumber } from './company.service.ts';

// The sign-ins only (no demo company): the settings row must exist from the migration alone.
const setup = apiTest();
const { db, admin, staff, acme, call } = setup;

const errorsOf = (body: Json) => (body.errors as FieldError[] | undefined) ?? [];
const year = new Date().getUTCFullYear();
const versionNow = async () => (await call('GET', '/company', admin)).body.version as number;
type SeriesOut = { kind: string; prefix: string; year: number; nextNumber: number; lastIssued: number };

describe('company settings', () => {
  it('exist with safe defaults in a database without the demo company, for staff and admins', async () => {
    const r = await call('GET', '/company', staff);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      legalName: 'Your company',
      countryCode: 'NL',
      baseCurrency: 'EUR',
      paymentTermsDays: 30,
      iban: null,
      peppolScheme: null,
      version: 1,
    });
    expect((r.body.series as SeriesOut[]).map((s) => [s.kind, s.prefix, s.nextNumber, s.lastIssued])).toEqual(
      [
        ['offer', 'O-', 1, 0],
        ['invoice', 'I-', 1, 0],
        ['credit_note', 'C-', 1, 0],
        ['declaration', 'LRN-', 1, 0],
        ['stock_receipt', 'R-', 1, 0],
        ['shipment', 'S-', 1, 0],
      ],
    );
    expect((r.body.series as SeriesOut[]).every((s) => s.year === year)).toBe(true);
  });

  it('are internal: a customer gets 403 on reading, history and writing', async () => {
    expect((await call('GET', '/company', acme)).status).toBe(403);
    expect((await call('GET', '/company/history', acme)).status).toBe(403);
    expect((await call('PUT', '/company', acme, { version: 1, legalName: 'X' })).status).toBe(403);
    expect((await call('GET', '/company', undefined)).status).toBe(401);
  });

  it('only an admin changes them; staff get 403 and nothing changes', async () => {
    const v = await versionNow();
    const r = await call('PUT', '/company', staff, { version: v, legalName: 'Staff Was Here' });
    expect(r.status).toBe(403);
    expect((await call('GET', '/company', admin)).body.legalName).not.toBe('Staff Was Here');
  });

  it('an admin saves the legal, bank and Peppol data normalised, and the version moves on', async () => {
    const v = await versionNow();
    const r = await call('PUT', '/company', admin, {
      version: v,
      legalName: 'FVG Forwarding B.V.',
      countryCode: 'nl',
      vatNumber: 'nl 859437218 b01',
      eori: 'NL859437215',
      iban: 'nl91 abna 0417 1643 00',
      bic: 'abnanl2a',
      peppolScheme: '0106',
      peppolId: '24481234',
      paymentTermsDays: 14,
      invoiceFooter: 'Thank you for your business.',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      legalName: 'FVG Forwarding B.V.',
      countryCode: 'NL',
      vatNumber: 'NL859437218B01',
      iban: 'NL91ABNA0417164300',
      bic: 'ABNANL2A',
      peppolScheme: '0106',
      peppolId: '24481234',
      paymentTermsDays: 14,
      invoiceFooter: 'Thank you for your business.',
      version: v + 1,
    });
  });

  it('a stale version answers 409 on the version field and changes nothing', async () => {
    const v = await versionNow();
    expect((await call('PUT', '/company', admin, { version: v, city: 'Rotterdam' })).status).toBe(200);
    const stale = await call('PUT', '/company', admin, { version: v, city: 'Antwerp' });
    expect(stale.status).toBe(409);
    expect(errorsOf(stale.body).map((e) => e.field)).toEqual(['version']);
    expect((await call('GET', '/company', admin)).body.city).toBe('Rotterdam');
  });

  it('refuses the company’s own VAT number when its check digits fail (issue 23 item 4)', async () => {
    const v = await versionNow();
    // The demo company's former number: the right format, a wrong Dutch check digit.
    const r = await call('PUT', '/company', admin, { version: v, vatNumber: 'NL859437215B01' });
    expect(r.status).toBe(400);
    expect(errorsOf(r.body)).toEqual([
      expect.objectContaining({
        field: 'vatNumber',
        code: 'vat_number',
        params: expect.objectContaining({ reason: 'check_digits' }),
      }),
    ]);
    expect((await call('GET', '/company', admin)).body.vatNumber).not.toBe('NL859437215B01');
  });

  it('refuses wrong values with the failing field and its rule code', async () => {
    const v = await versionNow();
    const r = await call('PUT', '/company', admin, {
      version: v,
      iban: 'NL92ABNA0417164300',
      bic: 'ABN',
      vatNumber: 'NL12',
      countryCode: 'XX',
      baseCurrency: 'USD',
      paymentTermsDays: 400,
      legalName: '',
    });
    expect(r.status).toBe(400);
    const byField = Object.fromEntries(errorsOf(r.body).map((e) => [e.field, e]));
    expect(Object.keys(byField).sort()).toEqual(
      ['baseCurrency', 'bic', 'countryCode', 'iban', 'legalName', 'paymentTermsDays', 'vatNumber'].sort(),
    );
    expect(byField.iban?.code).toBe('iban');
    expect(byField.bic?.code).toBe('bic');
    expect(byField.vatNumber?.code).toBe('vat_number');
  });

  it('refuses a Peppol scheme without its id, also when the id is cleared on its own later', async () => {
    const v = await versionNow();
    const both = await call('PUT', '/company', admin, { version: v, peppolScheme: '0106', peppolId: null });
    expect(both.status).toBe(400);
    expect(errorsOf(both.body).map((e) => [e.field, e.code])).toEqual([['peppolId', 'peppol_endpoint']]);
    // The stored scheme is 0106 (saved above): clearing only the id would leave half an address.
    const alone = await call('PUT', '/company', admin, { version: v, peppolId: '' });
    expect(alone.status).toBe(400);
    expect(errorsOf(alone.body).map((e) => e.field)).toEqual(['peppolId']);
  });

  it('changes a series prefix and next number, and refuses a next number at or below the last issued', async () => {
    const v = await versionNow();
    const ok = await call('PUT', '/company', admin, {
      version: v,
      series: [
        { kind: 'invoice', prefix: 'inv-', nextNumber: 100, reason: 'Set by the test' },
        { kind: 'offer', prefix: 'O-', nextNumber: 5, reason: 'Set by the test' },
      ],
    });
    expect(ok.status).toBe(200);
    const series = ok.body.series as SeriesOut[];
    expect(series.find((s) => s.kind === 'invoice')).toMatchObject({ prefix: 'INV-', nextNumber: 100 });
    expect(series.find((s) => s.kind === 'offer')).toMatchObject({ prefix: 'O-', nextNumber: 5 });

    // Invoices up to 120 were issued this year (what issuing will do: take next, bump both).
    await sql`update document_series_years set last_issued = 120, next_number = 121
              where kind = 'invoice' and year = ${year}`.execute(db.db);
    const v2 = await versionNow();
    const below = await call('PUT', '/company', admin, {
      version: v2,
      legalName: 'Renamed While Refused',
      series: [
        { kind: 'offer', prefix: 'OF-', nextNumber: 6, reason: 'Set by the test' },
        { kind: 'invoice', prefix: 'INV-', nextNumber: 120, reason: 'Set by the test' },
      ],
    });
    expect(below.status).toBe(400);
    expect(errorsOf(below.body)).toEqual([
      expect.objectContaining({ field: 'series.1.nextNumber', code: 'series_below_issued' }),
    ]);
    const after = await call('GET', '/company', admin);
    // Nothing of the refused request was kept, the other series' change neither.
    expect(after.body.version).toBe(v2);
    expect(after.body.legalName).not.toBe('Renamed While Refused');
    const s = after.body.series as SeriesOut[];
    expect(s.find((x) => x.kind === 'invoice')).toMatchObject({ nextNumber: 121, lastIssued: 120 });
    expect(s.find((x) => x.kind === 'offer')).toMatchObject({ prefix: 'O-', nextNumber: 5 });

    const above = await call('PUT', '/company', admin, {
      version: v2,
      series: [{ kind: 'invoice', prefix: 'INV-', nextNumber: 125, reason: 'Set by the test' }],
    });
    expect(above.status).toBe(200);
    expect((above.body.series as SeriesOut[]).find((x) => x.kind === 'invoice')?.nextNumber).toBe(125);
  });

  it('the database itself refuses a next number at or below the last issued', async () => {
    await expect(
      sql`update document_series_years set next_number = last_issued where kind = 'invoice'`.execute(db.db),
    ).rejects.toThrow(/document_series_years_next_above_issued/);
  });

  it('refuses a bad prefix, an unknown kind and a series listed twice, on the item field', async () => {
    const v = await versionNow();
    const r = await call('PUT', '/company', admin, {
      version: v,
      series: [
        { kind: 'offer', prefix: 'O 1', nextNumber: 1, reason: 'Set by the test' },
        { kind: 'receipt', prefix: 'R-', nextNumber: 1, reason: 'Set by the test' },
        { kind: 'shipment', prefix: 'S-', nextNumber: 0, reason: 'Set by the test' },
      ],
    });
    expect(r.status).toBe(400);
    expect(
      errorsOf(r.body)
        .map((e) => e.field)
        .sort(),
    ).toEqual(['series.0.prefix', 'series.1.kind', 'series.2.nextNumber']);
    const twice = await call('PUT', '/company', admin, {
      version: v,
      series: [
        { kind: 'offer', prefix: 'O-', nextNumber: 7, reason: 'Set by the test' },
        { kind: 'offer', prefix: 'O-', nextNumber: 8, reason: 'Set by the test' },
      ],
    });
    expect(twice.status).toBe(400);
    expect(errorsOf(twice.body).map((e) => e.field)).toEqual(['series.1.kind']);
    // The declaration series makes LRNs (≤ 22 characters): 11 + '2026-' + 6 digits fits, 12 does not.
    const fits = await call('PUT', '/company', admin, {
      version: v,
      series: [{ kind: 'declaration', prefix: 'ABCDEFGHIJ-', nextNumber: 1, reason: 'Set by the test' }],
    });
    expect(fits.status).toBe(200);
    const long = await call('PUT', '/company', admin, {
      version: fits.body.version,
      series: [
        { kind: 'offer', prefix: 'ABCDEFGHIJK-', nextNumber: 1, reason: 'Set by the test' },
        { kind: 'declaration', prefix: 'ABCDEFGHIJK-', nextNumber: 1, reason: 'Set by the test' },
      ],
    });
    expect(long.status).toBe(400);
    expect(errorsOf(long.body)).toEqual([
      expect.objectContaining({
        field: 'series.1.prefix',
        message: `An LRN has at most 22 characters; ABCDEFGHIJK-${year}-000001 has 23: shorten the prefix`,
      }),
    ]);
  });

  it('keeps a history of who changed what, fields and series by name, for staff and admins', async () => {
    const r = await call('GET', '/company/history', staff);
    expect(r.status).toBe(200);
    const entries = r.body as unknown as { action: string; changes: { field: string; to: unknown }[] }[];
    const fields = entries.flatMap((e) => e.changes.map((c) => c.field));
    expect(fields).toContain('iban');
    expect(fields).toContain('invoiceFooter');
    expect(fields).toContain('series.invoice.prefix');
    expect(fields).toContain(`series.invoice.${year}.nextNumber`);
    expect(entries.every((e) => e.action === 'updated')).toBe(true);
    const footer = entries.flatMap((e) => e.changes).find((c) => c.field === 'invoiceFooter');
    expect(footer?.to).toBe('Thank you for your business.');
  });

  it('hands out numbers to concurrent takers consecutively, and a rolled-back take gives its number back', async () => {
    const y = 2031;
    const taken = await Promise.all(
      Array.from({ length: 20 }, () =>
        db.db.transaction().execute((trx) => takeSeriesNumber(trx, 'credit_note', y)),
      ),
    );
    expect(taken.map((t) => t.value).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    await expect(
      db.db.transaction().execute(async (trx) => {
        await takeSeriesNumber(trx, 'credit_note', y);
        throw new Error('the issue failed');
      }),
    ).rejects.toThrow('the issue failed');
    const next = await db.db.transaction().execute((trx) => takeSeriesNumber(trx, 'credit_note', y));
    expect(next).toEqual({ value: 21, number: 'C-2031-000021' });
  });
});
