import { Badge, Button, CloseButton, Group, MultiSelect, Select, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconFilterOff, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { DateRangeInput } from './date-inputs.tsx';
import { type LookupSource, RecordSelect } from './record-select.tsx';

export interface FilterOption {
  value: string;
  label: string;
}

interface FilterBase {
  label: string;
  /** data-testid suffix (`filter-<testId>`); defaults to the key. */
  testId?: string;
  width?: number;
}

/** Filters a list declares; each writes one (or, for ranges, two) URL and API parameters. */
export type FilterDef =
  | (FilterBase & { kind: 'select'; key: string; options: readonly FilterOption[] })
  /** Several values, sent comma-separated (`status=booked,in_transit`). */
  | (FilterBase & { kind: 'multiselect'; key: string; options: readonly FilterOption[] })
  | (FilterBase & { kind: 'dateRange'; from: string; to: string; testId: string })
  /** A record of another area, picked by searching (e.g. the customer party). */
  | (FilterBase & { kind: 'lookup'; key: string; source: LookupSource })
  | (FilterBase & { kind: 'text'; key: string; placeholder?: string; normalize?: (value: string) => string })
  /**
   * Set by a link, not picked here (e.g. one record's documents from its tab's "see them all"):
   * shown only while set, as a chip naming it that removes it.
   */
  | (FilterBase & { kind: 'pinned'; key: string });

export type FilterValues = Readonly<Record<string, string | number | undefined>>;
export type FilterPatch = Record<string, string | undefined>;

/** The parameters a filter writes. */
export function filterKeys(filter: FilterDef): string[] {
  return filter.kind === 'dateRange' ? [filter.from, filter.to] : [filter.key];
}

/** How many filters (the search text included) are set. */
export function activeFilterCount(filters: readonly FilterDef[], values: FilterValues): number {
  const set = (key: string) => values[key] !== undefined && values[key] !== '';
  return (set('q') ? 1 : 0) + filters.filter((f) => filterKeys(f).some(set)).length;
}

export interface FilterBarProps {
  filters: readonly FilterDef[];
  values: FilterValues;
  onChange: (patch: FilterPatch) => void;
  searchPlaceholder?: string;
  /** Clears the search text and every filter. */
  onClear: () => void;
  /** Debounce of the search box, ms. */
  debounceMs?: number;
}

const text = (value: string | number | undefined) => (value === undefined ? '' : String(value));

/** The search box (debounced) and the list's filters, all reading and writing the URL state. */
export function FilterBar({
  filters,
  values,
  onChange,
  searchPlaceholder = 'Search',
  onClear,
  debounceMs = 300,
}: FilterBarProps) {
  const active = activeFilterCount(filters, values);
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" data-testid="filter-bar">
      <SearchBox
        value={text(values.q)}
        placeholder={searchPlaceholder}
        debounceMs={debounceMs}
        onChange={(q) => onChange({ q: q || undefined })}
      />
      {filters.map((filter) => (
        <FilterControl
          key={filterKeys(filter).join(',')}
          filter={filter}
          values={values}
          onChange={onChange}
        />
      ))}
      {active > 0 && (
        <Button
          variant="subtle"
          size="sm"
          leftSection={<IconFilterOff size={16} aria-hidden />}
          onClick={onClear}
          data-testid="filters-clear"
        >
          Clear filters ({active})
        </Button>
      )}
    </Group>
  );
}

function SearchBox({
  value,
  placeholder,
  debounceMs,
  onChange,
}: {
  value: string;
  placeholder: string;
  debounceMs: number;
  onChange: (value: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  const commit = useDebouncedCallback((next: string) => onChange(next.trim()), debounceMs);
  // The URL changed from elsewhere (clear filters, back button): show what it says.
  useEffect(() => setDraft((current) => (current.trim() === value ? current : value)), [value]);

  return (
    <TextInput
      type="search"
      label="Search"
      placeholder={placeholder}
      value={draft}
      leftSection={<IconSearch size={16} aria-hidden />}
      onChange={(event) => {
        setDraft(event.currentTarget.value);
        commit(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Enter') return;
        commit.cancel();
        onChange(draft.trim());
      }}
      w={260}
      data-testid="list-search"
    />
  );
}

function FilterControl({
  filter,
  values,
  onChange,
}: {
  filter: FilterDef;
  values: FilterValues;
  onChange: (patch: FilterPatch) => void;
}) {
  const testId = `filter-${filter.testId ?? filterKeys(filter)[0]}`;
  switch (filter.kind) {
    case 'select':
      return (
        <Select
          label={filter.label}
          placeholder="Any"
          data={filter.options as FilterOption[]}
          value={text(values[filter.key]) || null}
          onChange={(value) => onChange({ [filter.key]: value ?? undefined })}
          clearable
          w={filter.width ?? 170}
          comboboxProps={{ withinPortal: true }}
          data-testid={testId}
        />
      );
    case 'multiselect': {
      const selected = text(values[filter.key]).split(',').filter(Boolean);
      return (
        <MultiSelect
          label={filter.label}
          placeholder={selected.length ? undefined : 'Any'}
          data={filter.options as FilterOption[]}
          value={selected}
          onChange={(next) => onChange({ [filter.key]: next.length ? next.join(',') : undefined })}
          clearable
          w={filter.width ?? 240}
          comboboxProps={{ withinPortal: true }}
          data-testid={testId}
        />
      );
    }
    case 'dateRange': {
      const from = text(values[filter.from]) || null;
      const to = text(values[filter.to]) || null;
      return (
        <DateRangeInput
          label={filter.label}
          from={from}
          to={to}
          onChange={(start, end) =>
            onChange({ [filter.from]: start ?? undefined, [filter.to]: end ?? undefined })
          }
          {...(filter.width ? { partWidth: filter.width } : {})}
          data-testid={testId}
        />
      );
    }
    case 'lookup':
      return (
        <RecordSelect
          label={filter.label}
          placeholder="Any"
          source={filter.source}
          value={text(values[filter.key]) || null}
          onChange={(value) => onChange({ [filter.key]: value ?? undefined })}
          w={filter.width ?? 220}
          data-testid={testId}
        />
      );
    case 'pinned': {
      const value = text(values[filter.key]);
      if (!value) return null;
      return (
        <Badge
          size="lg"
          variant="light"
          rightSection={
            <CloseButton
              size="xs"
              aria-label={`Remove the filter ${filter.label}`}
              onClick={() => onChange({ [filter.key]: undefined })}
            />
          }
          data-testid={testId}
        >
          {filter.label}: {value.length > 12 ? `${value.slice(0, 8)}…` : value}
        </Badge>
      );
    }
    case 'text':
      return (
        <TextFilter
          filter={filter}
          value={text(values[filter.key])}
          onChange={(value) => onChange({ [filter.key]: value || undefined })}
          testId={testId}
        />
      );
  }
}

function TextFilter({
  filter,
  value,
  onChange,
  testId,
}: {
  filter: Extract<FilterDef, { kind: 'text' }>;
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const apply = () => {
    const next = filter.normalize ? filter.normalize(draft.trim()) : draft.trim();
    setDraft(next);
    if (next !== value) onChange(next);
  };
  return (
    <TextInput
      label={filter.label}
      placeholder={filter.placeholder}
      value={draft}
      onChange={(event) => setDraft(event.currentTarget.value)}
      onBlur={apply}
      onKeyDown={(event) => {
        if (event.key === 'Enter') apply();
      }}
      w={filter.width ?? 170}
      data-testid={testId}
    />
  );
}
