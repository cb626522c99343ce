import { describe, expect, it } from 'vitest';
import { ITEMS_PER_SHEET, sadSheets } from './sad-pages.ts';

const items = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('sadSheets', () => {
  it.each([
    [0, 1],
    [1, 1],
    [3, 1],
    [4, 2],
    [6, 2],
    [7, 3],
  ])('puts %i items on %i A4 sheets', (count, sheets) => {
    expect(sadSheets(items(count))).toHaveLength(sheets);
  });

  it('fills every sheet with the next three items, in order, the header on the first only', () => {
    const sheets = sadSheets(items(7));
    expect(ITEMS_PER_SHEET).toBe(3);
    expect(sheets.map((s) => s.items)).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(sheets.map((s) => s.number)).toEqual([1, 2, 3]);
    expect(sheets.map((s) => s.first)).toEqual([true, false, false]);
  });

  it('gives a declaration without items its one (first) sheet', () => {
    expect(sadSheets([])).toEqual([{ number: 1, first: true, items: [] }]);
  });
});
