import { ANIMATION_MS } from '@fvg/contracts';
import { createTheme, type MantineThemeComponents } from '@mantine/core';

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

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  cursorType: 'pointer',
  components,
  other: { animationMs: ANIMATION_MS },
});
