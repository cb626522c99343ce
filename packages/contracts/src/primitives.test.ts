import { describe, expect, it } from 'vitest';
import { chargesUpdateSchema, dossierCreateSchema } from './dossiers.ts';
import {
  calendarDate,
  dateTime,
  decimal,
  findTextProblem,
  fitsNumeric,
  INT4_MAX,
  int,
  numericMax,
  optionalDateTime,
  queryBoolean,
  queryInt,
  text,
  versionSchema,
} from './primitives.ts';
import { listQueryBaseSchema } from './records.ts';
import { transportCreateSchema } from './transports.ts';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) =>
  schema.safeParse(v).success;

describe('text', () => {
  it('refuses NUL bytes and lone surrogates, keeps well-formed Unicode', () => {
    const t = text(100);
    expect(ok(t, 'a\u0000b')).toBe(false);
    expect(ok(t, 'a\ud800b')).toBe(false);
    expect(ok(t, '\udc00')).toBe(false);
    expect(ok(t, 'Zoë 😀 中文')).toBe(true);
    expect(t.safeParse('x'.repeat(101)).success).toBe(false);
  });

  it('finds the first bad string, value or key, with its path', () => {
    expect(findTextProblem({ a: 'ok', b: [{ c: 'x' }, { c: 'y\u0000' }] })).toMatchObject({
      path: ['b', 1, 'c'],
    });
    expect(findTextProblem({ 'k\ud800': 1 })).toMatchObject({ path: ['k\ud800'] });
    expect(findTextProblem('\ud800')).toMatchObject({ path: [] });
    expect(findTextProblem({ a: 'fine', n: 1, b: true, z: null })).toBeUndefined();
    // JSON's escaped forms decode to the same characters.
    expect(findTextProblem(JSON.parse('{"a":"\\u0000"}'))).toMatchObject({ path: ['a'] });
    expect(findTextProblem(JSON.parse('{"a":["\\ud800"]}'))).toMatchObject({ path: ['a', 0] });
  });
});

describe('integers', () => {
  it('bounds a body integer to its int4 column and takes only JSON numbers', () => {
    expect(ok(versionSchema, 1)).toBe(true);
    expect(ok(versionSchema, INT4_MAX)).toBe(true);
    expect(ok(versionSchema, 2 ** 31)).toBe(false);
    expect(ok(versionSchema, 0)).toBe(false);
    for (const loose of ['0x10', '16', true, [7], '', null, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(ok(int(), loose), String(loose)).toBe(false);
  });

  it('reads query integers from plain digits only', () => {
    const q = queryInt({ min: 1, max: 200 });
    expect(q.parse('16')).toBe(16);
    for (const loose of ['0x10', '1e1', '+5', '-1', ' 5', '5 ', '', 'true', '0', '201', '9'.repeat(20)])
      expect(ok(q, loose), loose).toBe(false);
    expect(ok(q, ['1', '2'])).toBe(false);
    expect(listQueryBaseSchema.parse({})).toMatchObject({ page: 1, pageSize: 50 });
    expect(listQueryBaseSchema.parse({ page: '3', pageSize: '20' })).toMatchObject({ page: 3, pageSize: 20 });
    expect(ok(listQueryBaseSchema, { page: '0x10' })).toBe(false);
    expect(ok(listQueryBaseSchema, { pageSize: '' })).toBe(false);
  });

  it('refuses the loose forms of a dossier’s packages', () => {
    const base = { type: 'export', mode: 'road', customerId: '0b7f3c1e-8a5a-4b3e-9c1d-2f3a4b5c6d7e' };
    expect(dossierCreateSchema.parse({ ...base, packages: 16 }).packages).toBe(16);
    for (const packages of ['0x10', true, [7], '', '16'])
      expect(ok(dossierCreateSchema, { ...base, packages }), JSON.stringify(packages)).toBe(false);
    expect(ok(dossierCreateSchema, { ...base, packages: null })).toBe(true);
  });
});

describe('decimals', () => {
  it('knows what a numeric(p, s) column holds, rounding included', () => {
    expect(numericMax(16, 2)).toBe('99999999999999.99');
    expect(fitsNumeric('99999999999999.99', 16, 2)).toBe(true);
    expect(fitsNumeric('-99999999999999.99', 16, 2)).toBe(true);
    expect(fitsNumeric('100000000000000.00', 16, 2)).toBe(false);
    expect(fitsNumeric('99999999999999.995', 16, 2)).toBe(false);
    expect(fitsNumeric('99999999999999.994', 16, 2)).toBe(true);
    expect(fitsNumeric('0.5', 16, 2)).toBe(true);
  });

  it('bounds money to its column and takes decimal strings or JSON numbers', () => {
    const money = decimal({ precision: 16, scale: 2 });
    expect(money.parse('999999999999.99')).toBe('999999999999.99');
    expect(money.parse(12.5)).toBe('12.5');
    expect(ok(money, '100000000000000')).toBe(false);
    expect(ok(money, '1.234')).toBe(false);
    for (const loose of ['0x10', '1e5', true, [7], '', Number.NaN])
      expect(ok(money, loose), String(loose)).toBe(false);
    const rate = decimal({ precision: 18, scale: 6, positive: true });
    expect(ok(rate, '0')).toBe(false);
    expect(ok(rate, '999999')).toBe(true);
  });

  it('refuses charges whose base amount, totals or profit would overflow their columns', () => {
    const charge = (over: object) => ({
      kind: 'revenue',
      chargeCode: 'FREIGHT',
      description: 'Freight',
      amount: '100.00',
      currency: 'USD',
      exchangeRate: '1',
      ...over,
    });
    const product = chargesUpdateSchema.safeParse({
      version: 1,
      charges: [charge({ amount: '999999999999.99', exchangeRate: '999999' })],
    });
    expect(product.success).toBe(false);
    expect(product.error?.issues.map((i) => i.path.join('.'))).toEqual(['charges.0.amount']);
    const total = chargesUpdateSchema.safeParse({
      version: 1,
      charges: [charge({ amount: '99999999999999.99' }), charge({ amount: '1.00' })],
    });
    expect(total.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['charges', expect.stringMatching(/revenue total/)],
      ['charges', expect.stringMatching(/profit/)],
    ]);
    const profit = chargesUpdateSchema.safeParse({
      version: 1,
      charges: [charge({ amount: '60000000000000' }), charge({ kind: 'cost', amount: '-60000000000000' })],
    });
    expect(profit.error?.issues.map((i) => i.message)).toEqual([expect.stringMatching(/profit/)]);
    expect(
      chargesUpdateSchema.safeParse({
        version: 1,
        charges: [charge({ amount: '999999999.99', exchangeRate: '1.5' })],
      }).success,
    ).toBe(true);
  });
});

describe('dates and times', () => {
  it('accepts only calendar dates that exist, in 1900–9999', () => {
    for (const d of ['2026-02-28', '2024-02-29', '2000-02-29', '1900-01-01', '9999-12-31'])
      expect(ok(calendarDate, d), d).toBe(true);
    for (const d of [
      '2026-02-30',
      '2025-02-29',
      '1900-02-29',
      '0000-01-01',
      '2026-13-01',
      '2026-1-1',
      '20260101',
      '',
    ])
      expect(ok(calendarDate, d), d).toBe(false);
  });

  it('accepts only strict ISO 8601 instants with a zone, on dates that exist', () => {
    for (const t of [
      '2026-02-28T08:00Z',
      '2026-02-28T08:00:00Z',
      '2026-02-28T08:00:00.123456Z',
      '2026-02-28T08:00:00+01:00',
    ])
      expect(ok(dateTime, t), t).toBe(true);
    for (const t of [
      '2026-02-30T08:00Z',
      '2025-02-29T08:00:00Z',
      '0000-01-01T00:00:00Z',
      '+275760-09-13T00:00:00Z',
      '2026-02-28T24:00Z',
      '2026-02-28T08:00',
      '2026-02-28 08:00Z',
      '1',
      '2026',
      'Sat, 28 Feb 2026 08:00:00 GMT',
    ])
      expect(ok(dateTime, t), t).toBe(false);
  });

  it('never moves a transport time to another day and never reads "1" as a year', () => {
    expect(optionalDateTime().parse('2026-02-28T09:00+01:00')).toBe('2026-02-28T08:00:00.000Z');
    expect(optionalDateTime().parse('')).toBeNull();
    const leg = { dossierId: 'D-2026-000001', mode: 'road' };
    const bad = transportCreateSchema.safeParse({ ...leg, pickupFrom: '2026-02-30T08:00Z' });
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toEqual(['pickupFrom']);
    expect(ok(transportCreateSchema, { ...leg, pickupFrom: '1' })).toBe(false);
    expect(ok(transportCreateSchema, { ...leg, pickupFrom: 1 })).toBe(false);
  });
});

describe('queryBoolean', () => {
  it('takes exactly true and false', () => {
    expect(queryBoolean.parse('true')).toBe(true);
    expect(queryBoolean.parse('false')).toBe(false);
    for (const loose of ['yes', 'on', '1', '', 'TRUE', 'enabled'])
      expect(queryBoolean.safeParse(loose).success, loose).toBe(false);
  });
});
