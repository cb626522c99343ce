import { addMonths, type FieldError } from '@fvg/contracts';
import { describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import type { Json } from '../../test/helpers.ts';
import { customsMonthOf } from './customs-rates.ts';

const setup = apiTest();
const { admin, staff, acme, call } = setup;
const month = customsMonthOf();
const before = addMonths(month, -1);
const fieldsOf = (body: Json) => ((body.errors as FieldError[] | undefined) ?? []).map((e) => e.field);
type Rates = { month: string; rates: { currency: string; rate: string; updatedBy: string | null }[] };

describe('customs exchange rates (UCC art. 53)', () => {
  it('start empty; staff set a month’s rate per currency, stored as the shortest decimal', async () => {
    const empty = await call('GET', '/company/customs-rates', staff);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ month, rates: [], missingFromLastMonth: [] });

    const put = await call('PUT', `/company/customs-rates/${month}/usd`, staff, { rate: '0.921500' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((put.body as Rates).rates).toMatchObject([
      { currency: 'USD', rate: '0.9215', updatedBy: 'Sam Staff' },
    ]);
    // Corrected: the same cell, not a second one.
    const fixed = await call('PUT', `/company/customs-rates/${month}/USD`, admin, { rate: 0.9221 });
    expect((fixed.body as Rates).rates.map((r) => [r.currency, r.rate])).toEqual([['USD', '0.9221']]);
  });

  it('lists the month before’s currencies the month has no rate for yet', async () => {
    await call('PUT', `/company/customs-rates/${before}/CNY`, staff, { rate: '0.1281' });
    await call('PUT', `/company/customs-rates/${before}/USD`, staff, { rate: '0.9198' });
    const r = await call('GET', `/company/customs-rates?month=${month}`, staff);
    expect(r.body.missingFromLastMonth).toEqual(['CNY']);
    const earlier = await call('GET', `/company/customs-rates?month=${before}`, staff);
    expect((earlier.body as Rates).rates.map((x) => [x.currency, x.rate])).toEqual([
      ['CNY', '0.1281'],
      ['USD', '0.9198'],
    ]);
  });

  it('keeps each change in the company history, removal included', async () => {
    await call('PUT', `/company/customs-rates/${month}/JPY`, staff, { rate: '0.0061' });
    const gone = await call('DELETE', `/company/customs-rates/${month}/JPY`, staff);
    expect(gone.status).toBe(200);
    expect((gone.body as Rates).rates.map((r) => r.currency)).not.toContain('JPY');
    const again = await call('DELETE', `/company/customs-rates/${month}/JPY`, staff);
    expect(again.status).toBe(404);
    const history = await call('GET', '/company/history', admin);
    const changes = (
      history.body as unknown as { changes: { field: string; from: unknown; to: unknown }[] }[]
    ).flatMap((e) => e.changes);
    expect(changes).toContainEqual({ field: `customsRates.${month}.JPY`, from: null, to: '0.0061' });
    expect(changes).toContainEqual({ field: `customsRates.${month}.JPY`, from: '0.0061', to: null });
    expect(changes).toContainEqual({ field: `customsRates.${month}.USD`, from: '0.9215', to: '0.9221' });
  });

  it('refuses a bad month, the euro, an unknown currency and a rate not above 0, by field', async () => {
    const cases: [string, Json, string][] = [
      ['/company/customs-rates/2026-13/USD', { rate: '1' }, 'month'],
      ['/company/customs-rates/26-11/USD', { rate: '1' }, 'month'],
      [`/company/customs-rates/${month}/EUR`, { rate: '1' }, 'currency'],
      [`/company/customs-rates/${month}/ABC`, { rate: '1' }, 'currency'],
      [`/company/customs-rates/${month}/USD`, { rate: '0' }, 'rate'],
      [`/company/customs-rates/${month}/USD`, { rate: '0.1234567' }, 'rate'],
      [`/company/customs-rates/${month}/USD`, {}, 'rate'],
    ];
    for (const [path, body, field] of cases) {
      const r = await call('PUT', path, staff, body);
      expect(r.status, path).toBe(400);
      expect(fieldsOf(r.body), path).toContain(field);
    }
    expect((await call('GET', '/company/customs-rates?month=2026-1', staff)).status).toBe(400);
  });

  it('are internal: a customer gets 403 and changes nothing; no sign-in gets 401', async () => {
    expect((await call('GET', '/company/customs-rates', acme)).status).toBe(403);
    expect((await call('PUT', `/company/customs-rates/${month}/GBP`, acme, { rate: '1.17' })).status).toBe(
      403,
    );
    expect((await call('DELETE', `/company/customs-rates/${month}/USD`, acme)).status).toBe(403);
    expect((await call('GET', '/company/customs-rates', undefined)).status).toBe(401);
    const r = await call('GET', '/company/customs-rates', staff);
    expect((r.body as Rates).rates.map((x) => x.currency)).not.toContain('GBP');
  });
});
