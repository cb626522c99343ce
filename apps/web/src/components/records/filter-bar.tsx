import { Badge, Button, CloseButton, Group, Input, InputBase, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconChevronDown, IconFilterOff, IconSearch } from '@tabler/icons-react';
import { type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { formatDate } from '../../lib/format-date.ts';
import { useT } from '../../lib/i18n.ts';
import { type LazyComponent, lazyNamed } from '../../lib/lazy-component.ts';
import type { PickerFilterDef } from './filter-pickers.tsx';
import type { LookupSource } from './record-select.tsx';

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
  | (FilterBase & {
      kind: 'pinned';
      key: string;
      /** How the chip names the value (a receipt's number for its id); the id's start otherwise. */
      valueLabel?: (value: string) => string | undefined;
    });

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
  searchPlaceholder,
  onClear,
  debounceMs = 300,
}: FilterBarProps) {
  const t = useT('records');
  const active = activeFilterCount(filters, values);
  // A set picker filter shows its value's label (a lookup's record name): load the pickers at once.
  const pickerSet = filters.some(
    (f) =>
      (f.kind === 'select' || f.kind === 'multiselect' || f.kind === 'lookup') && values[f.key] !== undefined,
  );
  const pickers = useLazyModule(PickerFilter, pickerSet);
  return (
    <Group
      gap="sm"
      align="flex-end"
      wrap="wrap"
      data-testid="filter-bar"
      onPointerEnter={pickers.load}
      onFocus={pickers.load}
    >
      <SearchBox
        value={text(values.q)}
        placeholder={searchPlaceholder ?? t('filters.search')}
        debounceMs={debounceMs}
        onChange={(q) => onChange({ q: q || undefined })}
      />
      {filters.map((filter) => (
        <FilterControl
          key={filterKeys(filter).join(',')}
          filter={filter}
          values={values}
          onChange={onChange}
          pickers={pickers}
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
          {t('filters.clear', { count: active })}
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
  const t = useT('records');
  const [draft, setDraft] = useState(value);
  const commit = useDebouncedCallback((next: string) => onChange(next.trim()), debounceMs);
  // The URL changed from elsewhere (clear filters, back button): show what it says.
  useEffect(() => setDraft((current) => (current.trim() === value ? current : value)), [value]);

  return (
    <TextInput
      type="search"
      label={t('filters.search')}
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
  pickers,
}: {
  filter: FilterDef;
  values: FilterValues;
  onChange: (patch: FilterPatch) => void;
  pickers: LazyModule;
}) {
  const t = useT('records');
  const testId = `filter-${filter.testId ?? filterKeys(filter)[0]}`;
  switch (filter.kind) {
    case 'select':
    case 'multiselect':
    case 'lookup': {
      const width = filter.width ?? PICKER_WIDTH[filter.kind];
      return (
        <Deferred
          module={pickers}
          standIn={{
            label: filter.label,
            width,
            testId,
            shown: pickerShown(filter, values),
            chevron: filter.kind !== 'lookup',
          }}
        >
          {(wants) => (
            <PickerFilter
              filter={filter}
              values={values}
              onChange={onChange}
              testId={testId}
              width={width}
              focusOnMount={wants.focus}
              openOnMount={wants.open}
            />
          )}
        </Deferred>
      );
    }
    case 'dateRange':
      return (
        <DateRangeFilter
          label={filter.label}
          from={text(values[filter.from]) || null}
          to={text(values[filter.to]) || null}
          onChange={(from, to) => onChange({ [filter.from]: from, [filter.to]: to })}
          width={filter.width ?? PICKER_WIDTH.dateRange}
          testId={testId}
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
              aria-label={t('filters.remove', { label: filter.label })}
              onClick={() => onChange({ [filter.key]: undefined })}
            />
          }
          data-testid={testId}
        >
          {filter.label}:{' '}
          {filter.valueLabel?.(value) ?? (value.length > 12 ? `${value.slice(0, 8)}…` : value)}
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

/*
 * The pickers (Mantine's Combobox family, ~10 KB compressed) and the date-range picker (@mantine/dates
 * with dayjs, ~17 KB) are a good part of a list's weight and not needed to show it: stand-ins that
 * look like the closed fields show until a user points at or focuses the filter bar (the pickers) or
 * the date field (the date picker), then the real ones take their places — open if the stand-in was
 * clicked, focused if it had the focus. A set value loads its picker at once (ADR 0023).
 */
const PickerFilter = lazyNamed(() => import('./filter-pickers.tsx'), 'PickerFilter');
const DateRangeInput = lazyNamed(() => import('./date-range-input.tsx'), 'DateRangeInput');

const PICKER_WIDTH = { select: 170, multiselect: 240, lookup: 220, dateRange: 292 } as const;

interface LazyModule {
  ready: boolean;
  load: () => void;
}

/** Loads a lazy component's module on `load()` (or at once when `eager`); `ready` once it is in. */
function useLazyModule<P>(component: LazyComponent<P>, eager: boolean): LazyModule {
  const [ready, setReady] = useState(component.isLoaded);
  const load = useCallback(() => {
    if (component.isLoaded()) return setReady(true);
    // Offline: the stand-ins stay, the next hover tries again.
    component.preload().then(
      () => setReady(true),
      () => {},
    );
  }, [component]);
  useEffect(() => {
    if (eager && !ready) load();
  }, [eager, ready, load]);
  return { ready, load };
}

/** What a closed picker shows: the chosen options' labels (a lookup's id only until it loads). */
function pickerShown(filter: PickerFilterDef, values: FilterValues): string | null {
  const value = text(values[filter.key]);
  if (!value) return null;
  if (filter.kind === 'lookup') return '…';
  const labels = new Map(filter.options.map((o) => [o.value, o.label]));
  return value
    .split(',')
    .map((v) => labels.get(v) ?? v)
    .join(', ');
}

interface Wants {
  focus: boolean;
  open: boolean;
}

/** A stand-in field until `module` is ready, then `children` with what the user did to the stand-in. */
function Deferred({
  module,
  standIn,
  children,
}: {
  module: LazyModule;
  standIn: {
    label: string;
    width: number;
    testId: string;
    shown: string | null;
    placeholder?: string;
    chevron?: boolean;
  };
  children: (wants: Wants) => ReactNode;
}) {
  const t = useT('records');
  const wants = useRef<Wants>({ focus: false, open: false });
  const field = (
    <InputBase
      component="button"
      type="button"
      label={standIn.label}
      w={standIn.width}
      pointer
      // Where the picker shows its chevron, so nothing moves when it takes the stand-in's place.
      rightSection={standIn.chevron ? <IconChevronDown size={16} aria-hidden /> : undefined}
      rightSectionPointerEvents="none"
      aria-haspopup="listbox"
      onPointerEnter={module.load}
      onFocus={() => {
        wants.current.focus = true;
        module.load();
      }}
      onBlur={() => {
        wants.current.focus = false;
      }}
      onClick={() => {
        wants.current.open = true;
        module.load();
      }}
      data-testid={standIn.testId}
    >
      {standIn.shown ?? <Input.Placeholder>{standIn.placeholder ?? t('filters.any')}</Input.Placeholder>}
    </InputBase>
  );
  if (!module.ready) return field;
  return <Suspense fallback={field}>{children(wants.current)}</Suspense>;
}

function DateRangeFilter({
  label,
  from,
  to,
  onChange,
  width,
  testId,
}: {
  label: string;
  from: string | null;
  to: string | null;
  onChange: (from: string | undefined, to: string | undefined) => void;
  width: number;
  testId: string;
}) {
  const t = useT('records');
  const dates = useLazyModule(DateRangeInput, false);
  return (
    <Deferred
      module={dates}
      standIn={{
        label,
        width,
        testId,
        shown:
          from || to
            ? t('filters.dateRange', {
                from: from ? formatDate(from) : t('filters.from'),
                to: to ? formatDate(to) : t('filters.to'),
              })
            : null,
        placeholder: t('filters.anyDates'),
      }}
    >
      {(wants) => (
        <DateRangeInput
          label={label}
          from={from}
          to={to}
          onChange={onChange}
          testId={testId}
          focusOnMount={wants.focus}
          openOnMount={wants.open}
        />
      )}
    </Deferred>
  );
}
