import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIban, ibanMod97, ibanProblem, isBic, normalizeIban } from './iban.ts';
import { incotermProblem } from './incoterms.ts';
import {
  containerNumberProblem,
  iso6346CheckDigit,
  isValidContainerNumber,
  normalizeContainerNumber,
} from './iso6346.ts';
import { isCountryCode, isImoNumber, isUnLocode } from './places.ts';
import { eoriProblem, vatNumberProblem } from './tax-ids.ts';

describe('ISO 6346 container numbers', () => {
  it('accepts the test vectors of domain-standards.md', () => {
    for (const n of [
      'CSQU3054383',
      'MSKU6011672',
      'TEXU3070079',
      'APZU4812090',
      'CMAU5110875',
      'GESU3927660',
    ]) {
      expect(containerNumberProblem(n), n).toBeUndefined();
    }
  });

  it('computes the documented sums', () => {
    // CSQU305438: sum 6185 → 6185 mod 11 = 3; MSKU601167: 5832 mod 11 = 2
    expect(iso6346CheckDigit('CSQU305438')).toBe(3);
    expect(iso6346CheckDigit('MSKU601167')).toBe(2);
  });

  it('rejects a wrong check digit and a wrong shape, saying which', () => {
    expect(containerNumberProblem('CSQU3054384')).toBe('check-digit');
    expect(containerNumberProblem('CSQX3054383')).toBe('format');
    expect(containerNumberProblem('CSQU305438')).toBe('format');
    expect(containerNumberProblem('csqu3054383')).toBe('format');
  });

  it('normalizes spacing and case', () => {
    expect(normalizeContainerNumber(' msku 601167-2 ')).toBe('MSKU6011672');
  });

  const owner = fc.stringMatching(/^[A-Z]{3}[UJZ]$/);
  const serial = fc.stringMatching(/^\d{6}$/);

  it('property: every body with its computed check digit is valid', () => {
    fc.assert(
      fc.property(owner, serial, (o, s) => isValidContainerNumber(`${o}${s}${iso6346CheckDigit(o + s)}`)),
    );
  });

  it('property: any other final digit is rejected, unless the mod-11 value was 10 (then 0 and "10" collide)', () => {
    fc.assert(
      fc.property(owner, serial, fc.integer({ min: 0, max: 9 }), (o, s, d) => {
        const right = iso6346CheckDigit(o + s);
        fc.pre(d !== right);
        return containerNumberProblem(`${o}${s}${d}`) === 'check-digit';
      }),
    );
  });

  it('property: a one-digit change of the serial is caught, except the single 10/0 fold collision', () => {
    fc.assert(
      fc.property(
        owner,
        serial,
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 9 }),
        (o, s, pos, delta) => {
          const changed = `${s.slice(0, pos)}${(Number(s[pos]) + delta) % 10}${s.slice(pos + 1)}`;
          const before = iso6346CheckDigit(o + s);
          const after = iso6346CheckDigit(o + changed);
          // The weighted sums differ by (digit change) × 2^k, never a multiple of 11, so the mod-11 values
          // differ; equal check digits can only come from 10 and 0 both printing as 0.
          if (before === after) return before === 0;
          return !isValidContainerNumber(`${o}${changed}${before}`);
        },
      ),
    );
  });
});

describe('places', () => {
  it('validates UN/LOCODEs with a real country prefix', () => {
    for (const l of ['NLRTM', 'DEHAM', 'BEANR', 'CNSHA', 'USNYC']) expect(isUnLocode(l), l).toBe(true);
    for (const l of ['NLRT', 'NLRT1', 'QQRTM', 'nlrtm', 'NLRTM1']) expect(isUnLocode(l), l).toBe(false);
  });

  it('knows ISO country codes', () => {
    expect(isCountryCode('NL')).toBe(true);
    expect(isCountryCode('XX')).toBe(false);
  });

  it('checks IMO numbers', () => {
    expect(isImoNumber('9321483')).toBe(true);
    expect(isImoNumber('9321484')).toBe(false);
    expect(isImoNumber('932148')).toBe(false);
  });
});

describe('Incoterms 2020', () => {
  it('accepts every 2020 rule for sea, and any-mode rules for air and road', () => {
    for (const t of ['EXW', 'FCA', 'CPT', 'CIP', 'DAP', 'DPU', 'DDP', 'FAS', 'FOB', 'CFR', 'CIF']) {
      expect(incotermProblem(t, 'sea'), t).toBeUndefined();
    }
    for (const t of ['EXW', 'FCA', 'DAP', 'DDP']) expect(incotermProblem(t, 'air')).toBeUndefined();
  });

  it('rejects retired terms and sea-only terms for other modes', () => {
    for (const t of ['DAF', 'DDU', 'DES', 'DEQ', 'DAT']) expect(incotermProblem(t, 'sea')).toMatch(/retired/);
    expect(incotermProblem('FOB', 'air')).toMatch(/sea and inland waterway/);
    expect(incotermProblem('CIF', 'road')).toMatch(/sea and inland waterway/);
    expect(incotermProblem('XYZ')).toMatch(/not an Incoterms 2020 rule/);
  });
});

describe('VAT numbers and EORI', () => {
  it('checks EU VAT formats per country prefix', () => {
    for (const v of [
      'NL004495445B01',
      'DE136695976',
      'BE0403019261',
      'DK12345678',
      'ATU13585627',
      'FRXX303265045',
      'EL123456789',
    ]) {
      expect(vatNumberProblem(v), v).toBeUndefined();
    }
    expect(vatNumberProblem('NL123456789')).toMatch(/NL VAT/);
    expect(vatNumberProblem('DE12345678')).toMatch(/DE VAT/);
    expect(vatNumberProblem('GR123456789')).toMatch(/EL/);
    expect(vatNumberProblem('QQ123')).toMatch(/country prefix/);
    expect(vatNumberProblem('GB123456789')).toBeUndefined();
  });

  it('checks the check digits the member states publish (python-stdnum documented examples)', () => {
    const valid = [
      'NL004495445B01', // mod 11 on the tax number
      'NL002455799B11', // issued since 2020: ISO 7064 mod 97-10 over NL002455799B11
      'NL859437218B01',
      'BE0403019261',
      'DE136695976',
      'FR40303265045',
      'IT00743110157',
      'ESA13585625',
      'ESB58378431',
      'ES54362315K',
      'ATU13585627',
      'PL8567346215',
    ];
    for (const v of valid) expect(vatNumberProblem(v), v).toBeUndefined();
    const invalid = [
      'NL123456789B90',
      'NL859437215B01',
      'BE0123456789',
      'DE123456789',
      'FR84323140391',
      'IT00743110158',
      'ESB12345678',
      'ES54362315Z',
      'ATU12345678',
      'PL1234567890',
    ];
    for (const v of invalid) expect(vatNumberProblem(v), v).toMatch(/check digits/);
  });

  it('checks the EORI format', () => {
    expect(eoriProblem('NL123456789')).toBeUndefined();
    expect(eoriProblem('DE1234567890123')).toBeUndefined();
    expect(eoriProblem('DE12345678901234567')).toMatch(/up to 15/);
    expect(eoriProblem('XX123')).toMatch(/not a country/);
  });
});

describe('IBAN (ISO 13616, mod 97) and BIC', () => {
  it('accepts the registry examples of several countries', () => {
    for (const iban of [
      'NL91ABNA0417164300',
      'DE89370400440532013000',
      'BE68539007547034',
      'GB29NWBK60161331926819',
      'FR1420041010050500013M02606',
      'IT60X0542811101000000123456',
      'NO9386011117947',
      'MT84MALT011000012345MTLCAST001S',
    ]) {
      expect(ibanProblem(iban), iban).toBeUndefined();
      expect(ibanMod97(iban), iban).toBe(1);
    }
  });

  it('says which part is wrong: the check digits, the length for the country, or the shape', () => {
    expect(ibanProblem('NL92ABNA0417164300')).toBe('check-digits');
    // one digit swapped in the account: mod 97 catches every single transposition
    expect(ibanProblem('NL91ABNA0417163400')).toBe('check-digits');
    expect(ibanProblem('NL91ABNA04171643001')).toBe('length');
    expect(ibanProblem('91NLABNA0417164300')).toBe('format');
    expect(ibanProblem('NL91')).toBe('format');
  });

  it('normalizes spaces, dashes and case, and prints in groups of four', () => {
    expect(normalizeIban(' nl91 abna-0417 1643 00 ')).toBe('NL91ABNA0417164300');
    expect(formatIban('NL91ABNA0417164300')).toBe('NL91 ABNA 0417 1643 00');
  });

  it('every single-character change of a valid IBAN is caught', () => {
    const valid = 'DE89370400440532013000';
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: valid.length - 1 }),
        fc.integer({ min: 1, max: 9 }),
        (i, delta) => {
          const d = (Number(valid[i]) + delta) % 10;
          const changed = valid.slice(0, i) + String(d) + valid.slice(i + 1);
          expect(ibanProblem(changed)).toBe('check-digits');
        },
      ),
    );
  });

  it('accepts 8- and 11-character BICs only', () => {
    expect(isBic('ABNANL2A')).toBe(true);
    expect(isBic('DEUTDEFF500')).toBe(true);
    expect(isBic('ABNANL2')).toBe(false);
    expect(isBic('ABNA NL2A')).toBe(false);
    expect(isBic('1BNANL2A')).toBe(false);
  });
});
