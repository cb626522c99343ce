import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECLARATION_TYPES, type DeclarationType } from '../declarations-values.ts';
import { ISO6346_VALUES } from './iso6346.ts';
import {
  isValidMrn,
  MRN_LETTERS_OF_TYPE,
  makeMrn,
  mrnCheckCharacter,
  mrnProblem,
  normalizeMrn,
} from './mrn.ts';
import { COUNTRY_CODES } from './places.ts';

const ALNUM = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const DIGITS = [...'0123456789'];
const ALL_LETTERS = DECLARATION_TYPES.flatMap((t) => MRN_LETTERS_OF_TYPE[t]);
const COUNTRIES = [...COUNTRY_CODES];

/** A valid MRN of a random type, with its parts. */
const anMrn = fc
  .record({
    year: fc.integer({ min: 2000, max: 2099 }),
    country: fc.constantFrom(...COUNTRIES),
    serial: fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 12, maxLength: 12 }),
    type: fc.constantFrom(...DECLARATION_TYPES),
    letterIndex: fc.nat(),
  })
  .map(({ type, letterIndex, ...rest }) => {
    const letters = MRN_LETTERS_OF_TYPE[type];
    const letter = letters[letterIndex % letters.length] as string;
    return { type, mrn: makeMrn({ ...rest, letter }) };
  });

/** The characters allowed at a position (0-based) of the first 17, given the rest of the MRN. */
function allowedAt(mrn: string, i: number): string[] {
  if (i < 2) return DIGITS;
  if (i < 4)
    return ALNUM.filter((c) => /[A-Z]/.test(c)).filter((c) =>
      COUNTRY_CODES.has(i === 2 ? c + mrn[3] : (mrn[2] as string) + c),
    );
  if (i < 16) return ALNUM;
  return ALL_LETTERS;
}

describe('MRN', () => {
  it('accepts the public vectors of domain-standards.md', () => {
    expect(mrnProblem('22ITZXBZYUTJFLJXK6')).toBeUndefined();
    expect(mrnProblem('25NL000000001234A0')).toBeUndefined();
    expect(isValidMrn('25NL000000001234A0', 'export')).toBe(true);
    expect(isValidMrn('22ITZXBZYUTJFLJXK6', 'transit')).toBe(true);
  });

  it('computes the check character as ISO 6346 does over 17 characters', () => {
    // 2×1 + 2×2 + I19×4 + T31×8 + Z38×16 + X36×32 + B12×64 + Z38×128 + Y37×256 + U32×512 + T31×1024
    // + J20×2048 + F16×4096 + L23×8192 + J20×16384 + X36×32768 + K21×65536 = 3 243 818; mod 11 = 6.
    expect(mrnCheckCharacter('22ITZXBZYUTJFLJXK')).toBe('6');
    // 856 360 mod 11 = 10, which becomes 0: the public vector exercises the wrap.
    expect(mrnCheckCharacter('25NL000000001234A')).toBe('0');
    expect(() => mrnCheckCharacter('25NL000000001234')).toThrow();
  });

  it('uses the ISO 6346 letter values of domain-standards.md (A10 … Z38, skipping 11, 22, 33)', () => {
    const listed =
      'A10 B12 C13 D14 E15 F16 G17 H18 I19 J20 K21 L23 M24 N25 O26 P27 Q28 R29 S30 T31 U32 V34 W35 X36 Y37 Z38';
    for (const pair of listed.split(' ')) {
      expect(ISO6346_VALUES[pair[0] as string], pair).toBe(Number(pair.slice(1)));
    }
    for (const d of DIGITS) expect(ISO6346_VALUES[d]).toBe(Number(d));
  });

  it('has the position-17 letters of domain-standards.md, each of one type', () => {
    expect(MRN_LETTERS_OF_TYPE).toEqual({
      import: ['R', 'S', 'T', 'U', 'V', 'W'],
      export: ['A', 'B', 'C', 'D', 'E'],
      transit: ['J', 'K', 'L', 'M'],
    });
    expect(new Set(ALL_LETTERS).size).toBe(ALL_LETTERS.length);
  });

  it('checks each position-17 letter against the type', () => {
    for (const type of DECLARATION_TYPES) {
      for (const letter of ALL_LETTERS) {
        const mrn = makeMrn({ year: 2026, country: 'NL', serial: 'ABC123DEF456', letter });
        expect(isValidMrn(mrn), mrn).toBe(true);
        expect(isValidMrn(mrn, type), `${mrn} as ${type}`).toBe(MRN_LETTERS_OF_TYPE[type].includes(letter));
      }
    }
    const transit = makeMrn({ year: 2026, country: 'NL', serial: 'ABC123DEF456', letter: 'J' });
    expect(mrnProblem(transit, 'export')).toBe('Position 17 of an export MRN is A, B, C, D or E');
    expect(mrnProblem(transit, 'import')).toBe('Position 17 of an import MRN is R, S, T, U, V or W');
    const exp = makeMrn({ year: 2026, country: 'NL', serial: 'ABC123DEF456', letter: 'A' });
    expect(mrnProblem(exp, 'transit')).toBe('Position 17 of a transit MRN is J, K, L or M');
  });

  it('refuses the letters no procedure has', () => {
    for (const letter of 'FGHINOPQXYZ') {
      const first17 = `26NL000000001234${letter}`;
      const mrn = first17 + mrnCheckCharacter(first17);
      expect(mrnProblem(mrn)).toBe(
        'Position 17 of an MRN is the procedure letter: A to E (export), J to M (transit) or R to W (import)',
      );
    }
  });

  it('says what is wrong, in a sentence', () => {
    expect(mrnProblem('')).toBe('Enter the MRN');
    expect(mrnProblem('25NL000000001234A')).toBe('An MRN has 18 characters');
    expect(mrnProblem('25NL000000001234A01')).toBe('An MRN has 18 characters');
    expect(mrnProblem('25nl000000001234a0')).toBe('An MRN is written in capital letters');
    expect(mrnProblem('25NL-00000001234A0')).toBe('An MRN has only letters and digits');
    expect(mrnProblem('X5NL000000001234A0')).toBe(
      'An MRN starts with the last two digits of the year (e.g. 26)',
    );
    expect(mrnProblem('25QQ000000001234A0')).toBe(
      'Positions 3 and 4 of an MRN are the issuing country; QQ is not a country code',
    );
    expect(mrnProblem('22ITZXBZYUTJFLJXK5')).toBe('The check character should be 6');
    expect(mrnProblem('22ITZXBZYUTJFLJXKX')).toBe('The check character should be 6');
  });

  it('normalizes what a clerk pastes', () => {
    expect(normalizeMrn(' 25nl 0000 0000 1234 a0 ')).toBe('25NL000000001234A0');
  });

  it('makes MRNs from their parts and refuses malformed parts', () => {
    expect(makeMrn({ year: 2025, country: 'NL', serial: '000000001234', letter: 'A' })).toBe(
      '25NL000000001234A0',
    );
    expect(makeMrn({ year: 22, country: 'IT', serial: 'ZXBZYUTJFLJX', letter: 'K' })).toBe(
      '22ITZXBZYUTJFLJXK6',
    );
    expect(makeMrn({ year: 2105, country: 'DE', serial: '000000000001', letter: 'R' }).slice(0, 2)).toBe(
      '05',
    );
    expect(() => makeMrn({ year: 2026, country: 'QQ', serial: '000000000001', letter: 'R' })).toThrow();
    expect(() => makeMrn({ year: 2026, country: 'NL', serial: '00000000001', letter: 'R' })).toThrow();
    expect(() => makeMrn({ year: 2026, country: 'NL', serial: '00000000000a', letter: 'R' })).toThrow();
    expect(() => makeMrn({ year: 2026, country: 'NL', serial: '000000000001', letter: 'F' })).toThrow();
    expect(() => makeMrn({ year: -1, country: 'NL', serial: '000000000001', letter: 'R' })).toThrow();
  });

  it('always validates a generated MRN, with its type', () => {
    fc.assert(fc.property(anMrn, ({ mrn, type }) => isValidMrn(mrn, type) && mrn.length === 18));
  });

  it('never validates with another check character', () => {
    fc.assert(
      fc.property(anMrn, fc.constantFrom(...ALNUM), ({ mrn }, c) => {
        fc.pre(c !== mrn[17]);
        return !isValidMrn(mrn.slice(0, 17) + c);
      }),
    );
  });

  /*
   * "One changed character never validates" is NOT strictly true, and the exact truth is tested here.
   * Changing character i from value a to b shifts the weighted sum by (b − a)·2^i. 11 is prime and
   * does not divide 2^i, so the sum mod 11 is unchanged exactly when b ≡ a (mod 11). The letter table
   * skips 11, 22 and 33, but differences of 11 still occur (digit 1 and B = 12, A = 10 and K = 21,
   * A and U = 32, …), so such a change keeps the MRN valid. Otherwise the residue changes, and the
   * check character changes too — except when the residue moves between 0 and 10, which both give '0'.
   * Hence: a change among the first 17 keeps the MRN valid if and only if the two values are congruent
   * mod 11, or the check character is '0' and the residue moved 0 ↔ 10.
   */
  it('a changed character among the first 17 keeps the MRN valid only when its value is congruent mod 11 or the check character is 0', () => {
    fc.assert(
      fc.property(anMrn, fc.nat({ max: 16 }), fc.nat(), ({ mrn }, i, pick) => {
        const choices = allowedAt(mrn, i).filter((c) => c !== mrn[i]);
        fc.pre(choices.length > 0);
        const c = choices[pick % choices.length] as string;
        const changed = mrn.slice(0, i) + c + mrn.slice(i + 1);
        const congruent =
          ((ISO6346_VALUES[c] as number) - (ISO6346_VALUES[mrn[i] as string] as number)) % 11 === 0;
        const valid = isValidMrn(changed);
        if (congruent) return valid;
        // Not congruent: valid only through the 0 ↔ 10 wrap, so only when the check character is '0'.
        return !valid || mrn[17] === '0';
      }),
      { numRuns: 2000 },
    );
  });

  it('never validates a non-congruent change when the check character is not 0', () => {
    fc.assert(
      fc.property(anMrn, fc.nat({ max: 16 }), fc.nat(), ({ mrn }, i, pick) => {
        fc.pre(mrn[17] !== '0');
        const a = ISO6346_VALUES[mrn[i] as string] as number;
        const choices = allowedAt(mrn, i).filter((c) => ((ISO6346_VALUES[c] as number) - a) % 11 !== 0);
        fc.pre(choices.length > 0);
        const c = choices[pick % choices.length] as string;
        return !isValidMrn(mrn.slice(0, i) + c + mrn.slice(i + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it('the two exceptions exist (so the property above is exact, not loose)', () => {
    // Congruent values: serial digit 1 → B (12 − 1 = 11) keeps the check character.
    const one = makeMrn({ year: 2026, country: 'NL', serial: '000000000001', letter: 'R' });
    const b = `${one.slice(0, 15)}B${one.slice(16)}`;
    expect(isValidMrn(b)).toBe(true);
    // The wrap: 25NL000000001234A0 has residue 10; a change to residue 0 keeps the check character 0.
    // Year digit 2 → d adds (d − 2)·1; residue 10 + (d − 2) ≡ 0 (mod 11) at d = 3.
    expect(isValidMrn('35NL000000001234A0')).toBe(true);
    expect(isValidMrn('45NL000000001234A0')).toBe(false);
  });

  it('validates every type letter against the type for random MRNs', () => {
    fc.assert(
      fc.property(anMrn, fc.constantFrom<DeclarationType>(...DECLARATION_TYPES), ({ mrn, type }, other) => {
        return isValidMrn(mrn, other) === (type === other);
      }),
    );
  });
});
