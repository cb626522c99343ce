import { describe, expect, it } from 'vitest';
import { contrastRatio, darken, luminance, readableOn } from './contrast.ts';

describe('contrast (WCAG 2.2 relative luminance)', () => {
  it('gives the ratios WCAG names for black, white and a known grey', () => {
    expect(luminance('#000000')).toBe(0);
    expect(luminance('#ffffff')).toBe(1);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 6);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // Mantine's gray.6 on white, which axe reports as 3.32.
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
    // Order does not matter.
    expect(contrastRatio('#ffffff', '#4c6ef5')).toBeCloseTo(contrastRatio('#4c6ef5', '#ffffff'), 10);
  });

  it('darkens by scaling each channel', () => {
    expect(darken('#ffffff', 0.5)).toBe('#808080');
    expect(darken('#4c6ef5', 0)).toBe('#4c6ef5');
    expect(darken('#4c6ef5', 1)).toBe('#000000');
  });

  it('keeps a colour that already reads, and darkens one that does not just past the ratio', () => {
    expect(readableOn('#212529', '#ffffff')).toBe('#212529');
    const grey = readableOn('#868e96', '#ffffff');
    expect(contrastRatio(grey, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    // Just enough: one step lighter would not read.
    expect(contrastRatio(darken('#868e96', 0), '#ffffff')).toBeLessThan(4.5);
    expect(contrastRatio(grey, '#ffffff')).toBeLessThan(5.2);
    const green = readableOn('#2b8a3e', '#d3f9d8', 4.6);
    expect(contrastRatio(green, '#d3f9d8')).toBeGreaterThanOrEqual(4.6);
  });

  it('refuses what is not a #rrggbb colour', () => {
    expect(() => luminance('red')).toThrow(/not a #rrggbb/);
  });
});
