import { Autocomplete, MultiSelect, Select, TagsInput } from '@mantine/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { theme } from './theme.ts';

afterEach(() => vi.restoreAllMocks());

describe('theme', () => {
  it('gives the combobox inputs the animation default through their dropdown, not as a DOM attribute', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(
      <>
        <Select label="Pick one" data={['a']} />
        <Autocomplete label="Autocomplete" data={['a']} />
        <MultiSelect label="MultiSelect" data={['a']} />
        <TagsInput label="TagsInput" />
      </>,
    );
    expect(document.querySelectorAll('[transitionprops]')).toHaveLength(0);
    expect(errors.mock.calls.map((c) => String(c[0])).filter((m) => /transitionProps/i.test(m))).toEqual([]);
    const select = theme.components?.Select?.defaultProps as {
      comboboxProps?: { transitionProps?: { duration?: number } };
    };
    expect(select.comboboxProps?.transitionProps?.duration).toBe(250);
  });
});
