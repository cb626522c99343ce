import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSscc, gs1CheckDigit, makeSscc, normalizeSscc, ssccProblem } from './gs1.ts';

describe('SSCC (domain-standards.md)', () => {
  it.each(['095287654321012346', '157035381410375177', '376130321109103420'])(
    'accepts the public vector %s',
    (v) => {
      expect(ssccProblem(v)).toBeUndefined();
    },
  );

  it('names the check digit a wrong one should have', () => {
    expect(ssccProblem('095287654321012347')).toBe('The check digit should be 6');
    expect(ssccProblem('09528765432101234')).toBe('An SSCC has 18 digits; this one has 17');
    expect(ssccProblem('09528765432101234A')).toBe('An SSCC has digits only');
  });

  it('weights the rightmost data digit 3', () => {
    expect(gs1CheckDigit('00000000000000001')).toBe('7');
    expect(gs1CheckDigit('00000000000000010')).toBe('9');
  });

  it('makes valid SSCCs from a company prefix, and refuses a serial that does not fit', () => {
    expect(makeSscc({ extensionDigit: 0, companyPrefix: '9528765', serial: 432101234 })).toBe(
      '095287654321012346',
    );
    expect(() => makeSscc({ extensionDigit: 0, companyPrefix: '9528765', serial: 10 ** 9 })).toThrow(
      RangeError,
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9 }),
        fc.stringMatching(/^\d{6,12}$/),
        fc.bigInt({ min: 0n, max: 9999n }),
        (extensionDigit, companyPrefix, serial) => {
          const sscc = makeSscc({ extensionDigit, companyPrefix, serial });
          return (
            sscc.length === 18 &&
            ssccProblem(sscc) === undefined &&
            sscc.startsWith(`${extensionDigit}${companyPrefix}`)
          );
        },
      ),
    );
  });

  it('catches every single-digit change', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 17 }), fc.integer({ min: 1, max: 9 }), (at, delta) => {
        const valid = '157035381410375177';
        const changed = valid.slice(0, at) + String((Number(valid[at]) + delta) % 10) + valid.slice(at + 1);
        return ssccProblem(changed) !== undefined;
      }),
    );
  });

  it('reads what people type or scan, and prints the human-readable line', () => {
    expect(normalizeSscc('(00) 0952 8765 4321 0123 46')).toBe('095287654321012346');
    expect(normalizeSscc('00095287654321012346')).toBe('095287654321012346');
    expect(formatSscc('095287654321012346', 7)).toBe('(00) 0 9528765 432101234 6');
    expect(formatSscc('095287654321012346')).toBe('(00) 095287654321012346');
  });
});
