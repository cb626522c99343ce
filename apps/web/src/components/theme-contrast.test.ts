import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, luminance } from '../lib/contrast.ts';
import { cssVariablesResolver, theme } from './theme.ts';

const full = mergeMantineTheme(DEFAULT_THEME, theme);
const light = cssVariablesResolver(full).light as Record<string, string>;
const v = (name: string): string => {
  const value = light[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

describe('the theme reads at WCAG 2.2 AA (1.4.3, 4.5:1)', () => {
  it('dimmed text, placeholders, links and errors on white, the grey of table heads and the tints of marked rows', () => {
    const surfaces = [
      '#ffffff',
      ...['gray', 'red', 'yellow', 'indigo', 'blue'].map((c) => full.colors[c]?.[1] ?? ''),
    ];
    for (const name of ['--mantine-color-dimmed', '--mantine-color-anchor']) {
      for (const surface of surfaces) expect(contrastRatio(v(name), surface)).toBeGreaterThanOrEqual(4.5);
    }
    for (const color of ['red', 'green', 'orange', 'teal']) {
      for (const surface of surfaces) {
        expect(contrastRatio(v(`--mantine-color-${color}-text`), surface)).toBeGreaterThanOrEqual(4.5);
      }
    }
    expect(contrastRatio(v('--mantine-color-placeholder'), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(v('--mantine-color-error'), '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it.each(Object.keys(DEFAULT_THEME.colors))('%s in every variant the app uses', (color) => {
    const shades = full.colors[color] ?? [];
    // Light (status badges): text on its own light background and its hover.
    expect(contrastRatio(v(`--mantine-color-${color}-light-color`), shades[1] ?? '')).toBeGreaterThanOrEqual(
      4.5,
    );
    expect(contrastRatio(v(`--mantine-color-${color}-light-color`), shades[2] ?? '')).toBeGreaterThanOrEqual(
      4.5,
    );
    // Outline and text colour on white.
    expect(contrastRatio(v(`--mantine-color-${color}-outline`), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(v(`--mantine-color-${color}-text`), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    // Filled: white text, or black on a light colour (autoContrast), whichever the theme gives it.
    const filled = v(`--mantine-color-${color}-filled`);
    const hover = v(`--mantine-color-${color}-filled-hover`);
    const textOnFilled = luminance(filled) > full.luminanceThreshold ? '#000000' : '#ffffff';
    expect(contrastRatio(filled, textOnFilled)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(hover, textOnFilled)).toBeGreaterThanOrEqual(4.5);
  });
});
