import { describe, expect, it } from 'vitest';
import { minorUnitsOf } from '../money.ts';
import {
  commodityCodeProblem,
  customsOfficeProblem,
  formatCommodityCode,
  grnProblem,
  isCurrencyCode,
  lrnProblem,
  normalizeCommodityCode,
  preferenceProblem,
  procedureCodeProblem,
} from './customs.ts';

describe('customs office references', () => {
  it('accepts a country code and 6 letters or digits', () => {
    expect(customsOfficeProblem('NL000396')).toBeUndefined();
    expect(customsOfficeProblem('DE004800')).toBeUndefined();
    expect(customsOfficeProblem('BEANR000')).toBeUndefined();
  });
  it('says what is wrong', () => {
    expect(customsOfficeProblem('')).toBe('Enter the customs office');
    expect(customsOfficeProblem('NL00039')).toBe(
      'A customs office reference is a country code and 6 letters or digits, e.g. NL000396',
    );
    expect(customsOfficeProblem('nl000396')).toBe(
      'A customs office reference is a country code and 6 letters or digits, e.g. NL000396',
    );
    expect(customsOfficeProblem('QQ000396')).toBe(
      'A customs office reference starts with a country code; QQ is not one',
    );
  });
});

describe('commodity codes', () => {
  it('accepts CN and TARIC codes, as strings with their leading zero', () => {
    expect(commodityCodeProblem('84713000')).toBeUndefined();
    expect(commodityCodeProblem('8471300000')).toBeUndefined();
    expect(commodityCodeProblem('0901 21 00')).toBeUndefined();
    expect(commodityCodeProblem('97011000')).toBeUndefined();
  });
  it('refuses the wrong length, letters, reserved and unknown chapters', () => {
    expect(commodityCodeProblem('')).toBe('Enter the commodity code');
    expect(commodityCodeProblem('847130')).toBe('A commodity code has 8 digits (CN) or 10 digits (TARIC)');
    expect(commodityCodeProblem('847130001')).toBe('A commodity code has 8 digits (CN) or 10 digits (TARIC)');
    expect(commodityCodeProblem('8471300A')).toBe('A commodity code has only digits, e.g. 8471 30 00');
    expect(commodityCodeProblem('77000000')).toBe('Chapter 77 is reserved: no commodity code starts with 77');
    expect(commodityCodeProblem('00000000')).toBe('A commodity code starts with a chapter from 01 to 97');
    expect(commodityCodeProblem('98000000')).toBe('A commodity code starts with a chapter from 01 to 97');
  });
  it('accepts a 6-digit HS subheading where asked (a transit item), with the same chapter checks', () => {
    expect(commodityCodeProblem('8471 30', { subheading: true })).toBeUndefined();
    expect(commodityCodeProblem('84713000', { subheading: true })).toBeUndefined();
    expect(commodityCodeProblem('770000', { subheading: true })).toBe(
      'Chapter 77 is reserved: no commodity code starts with 77',
    );
    expect(commodityCodeProblem('8471', { subheading: true })).toBe(
      'A commodity code has 6 digits (HS subheading), 8 (CN) or 10 (TARIC)',
    );
  });
  it('formats and normalizes as the tariff prints them', () => {
    expect(formatCommodityCode('84713000')).toBe('8471 30 00');
    expect(formatCommodityCode('8471300000')).toBe('8471 30 00 00');
    expect(formatCommodityCode('8471 30 00')).toBe('8471 30 00');
    expect(formatCommodityCode('847130')).toBe('8471 30');
    expect(formatCommodityCode('8471301')).toBe('8471301');
    expect(normalizeCommodityCode('8471 30.00 00')).toBe('8471300000');
  });
});

describe('procedure codes', () => {
  it('accepts the requested procedures of each category with a known previous one', () => {
    for (const code of ['0100', '0700', '4000', '4071', '4200', '4400', '6100']) {
      expect(procedureCodeProblem(code, 'H1'), code).toBeUndefined();
    }
    for (const code of ['1000', '1100', '2300', '3100', '3171']) {
      expect(procedureCodeProblem(code, 'B1'), code).toBeUndefined();
    }
  });
  it('names the procedure and what the category takes', () => {
    expect(procedureCodeProblem('1000', 'H1')).toBe(
      'Procedure 1000 is an export procedure; an import (H1) declaration takes 01, 07, 40, 42, 44 or 61',
    );
    expect(procedureCodeProblem('4000', 'B1')).toBe(
      'Procedure 4000 is an import procedure; an export (B1) declaration takes 10, 11, 23 or 31',
    );
    expect(procedureCodeProblem('7100', 'H1')).toBe(
      'Procedure 7100 is a customs warehousing procedure; an import (H1) declaration takes 01, 07, 40, 42, 44 or 61',
    );
    expect(procedureCodeProblem('9900', 'H1')).toBe(
      '99 is not a known requested procedure; an import (H1) declaration takes 01, 07, 40, 42, 44 or 61',
    );
    expect(procedureCodeProblem('4099', 'H1')).toBe(
      'The last two digits of 4099 are the previous procedure: 00 when there was none, or a known procedure such as 71',
    );
    expect(procedureCodeProblem('400', 'H1')).toBe('A procedure code has 4 digits, e.g. 4000');
    expect(procedureCodeProblem('', 'H1')).toBe('Enter the procedure code');
  });
  it('gives transit items no procedure code', () => {
    expect(procedureCodeProblem('', 'T1')).toBeUndefined();
    expect(procedureCodeProblem('', 'T2')).toBeUndefined();
    expect(procedureCodeProblem('4000', 'T1')).toBe('A transit item has no procedure code: leave it empty');
  });
});

describe('preference, LRN, GRN', () => {
  it('checks a preference of 3 digits', () => {
    expect(preferenceProblem('100')).toBeUndefined();
    expect(preferenceProblem('10')).toBe('A preference has 3 digits, e.g. 100');
    expect(preferenceProblem('')).toBe('Enter the preference');
  });
  it('checks an LRN of 1 to 22 characters, as a number series makes them', () => {
    expect(lrnProblem('LRN-2026-000042')).toBeUndefined();
    expect(lrnProblem('FVG/2026.1')).toBeUndefined();
    expect(lrnProblem('A'.repeat(22))).toBeUndefined();
    expect(lrnProblem('A'.repeat(23))).toBe('An LRN has at most 22 characters');
    expect(lrnProblem('LRN 1')).toBe('An LRN has only capital letters, digits, - / and .');
    expect(lrnProblem('')).toBe('Enter the LRN');
  });
  it('checks a GRN as NCTS does: 17 characters, or 24 for one guarantee of a voucher set', () => {
    expect(grnProblem('26NL0000000000012')).toBeUndefined();
    expect(grnProblem('20XI0000010000070')).toBeUndefined();
    expect(grnProblem('26NL0000000000012A123456')).toBeUndefined();
    for (const wrong of ['26NL0000000000012A', 'A'.repeat(24), '26NL00000000000012', 'NL260000000000012'])
      expect(grnProblem(wrong), wrong).toMatch(/^A guarantee reference number \(GRN\) is 17 characters/);
    expect(grnProblem('A'.repeat(25))).toBe('A guarantee reference number (GRN) has at most 24 characters');
    expect(grnProblem('26NL-1')).toBe(
      'A guarantee reference number (GRN) has only capital letters and digits',
    );
    expect(grnProblem('')).toBe('Enter the guarantee reference number (GRN)');
  });
});

describe('currency codes (ISO 4217)', () => {
  it('knows the active codes and not the withdrawn or made-up ones', () => {
    for (const c of ['EUR', 'USD', 'GBP', 'JPY', 'KWD', 'CHF', 'CNY', 'XCG', 'ZWG', 'SLE', 'VED']) {
      expect(isCurrencyCode(c), c).toBe(true);
    }
    for (const c of ['HRK', 'ANG', 'ZWL', 'SLL', 'CUC', 'DEM', 'XXX', 'XTS', 'ABC', 'eur', '']) {
      expect(isCurrencyCode(c), c).toBe(false);
    }
  });
  it('covers every currency of the minor-unit table in money.ts', () => {
    for (const c of ['BIF', 'CLP', 'ISK', 'JPY', 'KRW', 'VND', 'XAF', 'BHD', 'KWD', 'TND', 'CLF', 'UYW']) {
      expect(isCurrencyCode(c), c).toBe(true);
      expect(minorUnitsOf(c)).not.toBe(2);
    }
  });
});
