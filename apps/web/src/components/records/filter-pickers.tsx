import { MultiSelect, Select } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useT } from '../../lib/i18n.ts';
import type { FilterDef, FilterOption, FilterPatch, FilterValues } from './filter-bar.tsx';
import { RecordSelect } from './record-select.tsx';

export type PickerFilterDef = Extract<FilterDef, { kind: 'select' | 'multiselect' | 'lookup' }>;

export interface PickerFilterProps {
  filter: PickerFilterDef;
  values: FilterValues;
  onChange: (patch: FilterPatch) => void;
  testId: string;
  width: number;
  /** Take the focus when mounted (it replaces a stand-in that had it). */
  focusOnMount?: boolean;
  /** Open the options when mounted (the stand-in was clicked before this loaded). */
  openOnMount?: boolean;
}

const text = (value: string | number | undefined) => (value === undefined ? '' : String(value));

/**
 * A list's select, multi-select and record lookup filters: Mantine's Combobox family, loaded when a
 * user reaches for the filter bar — filter-bar.tsx shows look-alike stand-ins until then (ADR 0023).
 */
export function PickerFilter({
  filter,
  values,
  onChange,
  testId,
  width,
  focusOnMount,
  openOnMount,
}: PickerFilterProps) {
  const t = useT('records');
  const ref = useRef<HTMLInputElement>(null);
  // Only what the stand-in asked for at mount time; later prop changes mean nothing.
  const mountRequest = useRef({ focusOnMount, openOnMount });
  useEffect(() => {
    const { focusOnMount: focus, openOnMount: open } = mountRequest.current;
    if (open || focus) ref.current?.focus();
    if (open) ref.current?.click();
  }, []);

  switch (filter.kind) {
    case 'select':
      return (
        <Select
          ref={ref}
          label={filter.label}
          placeholder={t('filters.any')}
          data={filter.options as FilterOption[]}
          value={text(values[filter.key]) || null}
          onChange={(value) => onChange({ [filter.key]: value ?? undefined })}
          clearable
          w={width}
          comboboxProps={{ withinPortal: true }}
          data-testid={testId}
        />
      );
    case 'multiselect': {
      const selected = text(values[filter.key]).split(',').filter(Boolean);
      return (
        <MultiSelect
          ref={ref}
          label={filter.label}
          placeholder={selected.length ? undefined : t('filters.any')}
          data={filter.options as FilterOption[]}
          value={selected}
          onChange={(next) => onChange({ [filter.key]: next.length ? next.join(',') : undefined })}
          clearable
          w={width}
          comboboxProps={{ withinPortal: true }}
          data-testid={testId}
        />
      );
    }
    case 'lookup':
      return (
        <RecordSelect
          ref={ref}
          label={filter.label}
          placeholder={t('filters.any')}
          source={filter.source}
          value={text(values[filter.key]) || null}
          onChange={(value) => onChange({ [filter.key]: value ?? undefined })}
          w={width}
          data-testid={testId}
        />
      );
  }
}
