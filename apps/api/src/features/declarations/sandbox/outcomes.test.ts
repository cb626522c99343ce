import { describe, expect, it } from 'vitest';
import { outcomeBucket, refusedRelease, selectedForControl } from './outcomes.ts';

const lrns = Array.from({ length: 2000 }, (_, i) => `LRN-2026-${String(i).padStart(6, '0')}`);

describe('sandbox outcomes', () => {
  it('are the same for the same seed and LRN, and differ with the seed', () => {
    expect(lrns.map((l) => outcomeBucket('fvg', l, 'control'))).toEqual(
      lrns.map((l) => outcomeBucket('fvg', l, 'control')),
    );
    const other = lrns.filter((l) => outcomeBucket('fvg', l, 'control') !== outcomeBucket('x', l, 'control'));
    expect(other.length).toBeGreaterThan(lrns.length / 2);
  });

  it('decide control and release independently of each other', () => {
    const same = lrns.filter(
      (l) => outcomeBucket('fvg', l, 'control') === outcomeBucket('fvg', l, 'release'),
    );
    expect(same.length).toBeLessThan(lrns.length / 10);
  });

  it('select about the configured share, none at 0 and all at 100', () => {
    const controlled = lrns.filter((l) => selectedForControl('fvg', l, 20)).length;
    expect(controlled).toBeGreaterThan(300);
    expect(controlled).toBeLessThan(500);
    expect(lrns.some((l) => selectedForControl('fvg', l, 0))).toBe(false);
    expect(lrns.every((l) => selectedForControl('fvg', l, 100))).toBe(true);
    expect(lrns.some((l) => refusedRelease('fvg', l, 0))).toBe(false);
    expect(lrns.every((l) => refusedRelease('fvg', l, 100))).toBe(true);
  });
});
