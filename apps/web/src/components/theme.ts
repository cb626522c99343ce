import { ANIMATION_MS } from '@fvg/contracts';
import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  getPrimaryShade,
  type MantineThemeComponents,
} from '@mantine/core';
import { darken, luminance, readableOn } from '../lib/contrast.ts';

/*
 * Mantine has no single theme-wide transition duration, so the animation default of the
 * specification (250 ms) is set as the default prop of every component that animates.
 */

const WITH_TRANSITION_PROPS = [
  'Popover',
  'Menu',
  'Tooltip',
  'HoverCard',
  'Modal',
  'Drawer',
  'Dialog',
  'Combobox',
  'LoadingOverlay',
] as const;

/** The combobox inputs take their dropdown's transition through `comboboxProps` (a transitionProps of their own would land on the DOM input). */
const WITH_COMBOBOX = ['Select', 'Autocomplete', 'MultiSelect', 'TagsInput'] as const;

const WITH_TRANSITION_DURATION = [
  'AppShell',
  'Burger',
  'Collapse',
  'Accordion',
  'SegmentedControl',
  'Spoiler',
] as const;

const components: MantineThemeComponents = {
  ...Object.fromEntries(
    WITH_TRANSITION_PROPS.map((name) => [
      name,
      { defaultProps: { transitionProps: { duration: ANIMATION_MS } } },
    ]),
  ),
  ...Object.fromEntries(
    WITH_COMBOBOX.map((name) => [
      name,
      { defaultProps: { comboboxProps: { transitionProps: { duration: ANIMATION_MS } } } },
    ]),
  ),
  ...Object.fromEntries(
    WITH_TRANSITION_DURATION.map((name) => [name, { defaultProps: { transitionDuration: ANIMATION_MS } }]),
  ),
};

/** Names of Mantine's icon buttons, in the user's language: a button without one has no name (WCAG 4.1.2). */
export interface ThemeLabels {
  /** An input's clear button (the × in a date, select or search field). */
  clear: string;
  /** A close button that is not given a name of its own (a dialog's or a pill's ×). */
  close: string;
}

/** The app's theme, its icon buttons named in the language given. */
export function createAppTheme(labels: ThemeLabels) {
  return createTheme({
    primaryColor: 'indigo',
    defaultRadius: 'md',
    cursorType: 'pointer',
    // A filled light colour (the sandbox's yellow) takes black text rather than white (WCAG 1.4.3).
    autoContrast: true,
    components: {
      ...components,
      InputClearButton: { defaultProps: { 'aria-label': labels.clear } },
      CloseButton: { defaultProps: { 'aria-label': labels.close } },
    },
    other: { animationMs: ANIMATION_MS },
  });
}

/** The theme in English (tests, and anything rendered before the language is known). */
export const theme = createAppTheme({ clear: 'Clear', close: 'Close' });

const WHITE = '#ffffff';
/**
 * The darkest of the light surfaces text stands on: the grey of table heads and hovered rows (gray.1)
 * and the tints of marked rows (the data table's red, yellow and selected rows, the planning's blue).
 */
const TINTED_SURFACE = [
  DEFAULT_THEME.colors.gray[1],
  DEFAULT_THEME.colors.red[1],
  DEFAULT_THEME.colors.yellow[1],
  DEFAULT_THEME.colors.indigo[1],
  DEFAULT_THEME.colors.blue[1],
].reduce((darkest, c) => (luminance(c) < luminance(darkest) ? c : darkest));
/** Text a little above the 4.5:1 of WCAG 1.4.3, so rounding in a browser never takes it under. */
const TEXT_CONTRAST = 4.6;

/**
 * Mantine's light colours as text that reads (WCAG 2.2 AA, 1.4.3; ADR 0072): its defaults put grey
 * "dimmed" text, placeholders, links, error text and the light and outline variants of most colours
 * under 4.5:1 (gray.6 on white is 3.3:1, green.9 on green.1 3.8:1, white on red.6 3.3:1). Each is
 * darkened, hue kept, just enough; a light filled colour (yellow) takes black text (autoContrast).
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const shade = getPrimaryShade(t, 'light');
  const light: Record<string, string> = {
    '--mantine-color-dimmed': readableOn(t.colors.gray[6], TINTED_SURFACE, TEXT_CONTRAST),
    '--mantine-color-placeholder': readableOn(t.colors.gray[6], WHITE, TEXT_CONTRAST),
    '--mantine-color-anchor': readableOn(
      (t.colors[t.primaryColor] ?? t.colors.indigo)[shade],
      TINTED_SURFACE,
      TEXT_CONTRAST,
    ),
    '--mantine-color-error': readableOn(t.colors.red[shade], WHITE, TEXT_CONTRAST),
  };
  for (const [name, shades] of Object.entries(t.colors)) {
    const base = shades[shade];
    const filled = luminance(base) > t.luminanceThreshold ? base : readableOn(base, WHITE, TEXT_CONTRAST);
    light[`--mantine-color-${name}-filled`] = filled;
    light[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.1);
    light[`--mantine-color-${name}-text`] = readableOn(base, TINTED_SURFACE, TEXT_CONTRAST);
    light[`--mantine-color-${name}-outline`] = readableOn(base, WHITE, TEXT_CONTRAST);
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[9], shades[2], TEXT_CONTRAST);
  }
  return { variables: {}, light, dark: {} };
};
