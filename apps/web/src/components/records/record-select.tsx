import { Loader, Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, type QueryKey, useQuery } from '@tanstack/react-query';
import { type Ref, useMemo, useState } from 'react';
import { useT } from '../../lib/i18n.ts';

export interface LookupOption {
  value: string;
  label: string;
}

/**
 * Where a picker finds records of another area (parties, handlers…). The area that owns the
 * records provides it (e.g. features/parties/api/party-lookup.ts) and the screen hands it to the
 * forms and filters that need it, so features do not import each other.
 */
export interface LookupSource {
  /** Query-key prefix of the lookups; lies under the owning area's key root, so its changes refresh them. */
  key: QueryKey;
  /** Options matching the text (the server searches; the first page is enough for a picker). */
  search: (q: string, signal?: AbortSignal) => Promise<LookupOption[]>;
  /** The option of one id, to label a value set before any search. */
  byId: (id: string, signal?: AbortSignal) => Promise<LookupOption | null>;
}

export interface RecordSelectProps
  extends Omit<SelectProps, 'data' | 'value' | 'onChange' | 'searchable' | 'filter' | 'onSearchChange'> {
  source: LookupSource;
  value: string | null | undefined;
  onChange: (value: string | null, option: LookupOption | null) => void;
  /** The label of the current value when the caller already knows it (saves a request). */
  knownOption?: LookupOption | null | undefined;
  ref?: Ref<HTMLInputElement>;
}

/** A searchable select over another area's records: the server filters as the user types. */
export function RecordSelect({ source, value, onChange, knownOption, ...props }: RecordSelectProps) {
  const t = useT();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [picked, setPicked] = useState<LookupOption | null>(null);

  const results = useQuery({
    queryKey: [...source.key, 'lookup', debounced],
    queryFn: ({ signal }) => source.search(debounced, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

  const known =
    (knownOption && knownOption.value === value ? knownOption : null) ??
    (picked && picked.value === value ? picked : null) ??
    results.data?.find((o) => o.value === value) ??
    null;

  const current = useQuery({
    queryKey: [...source.key, 'lookup-id', value],
    queryFn: ({ signal }) => source.byId(value as string, signal),
    enabled: Boolean(value) && !known,
    staleTime: 60_000,
  });

  const selected = known ?? current.data ?? null;

  const data = useMemo(() => {
    const options = [...(results.data ?? [])];
    if (selected && !options.some((o) => o.value === selected.value)) options.unshift(selected);
    return options;
  }, [results.data, selected]);

  return (
    <Select
      {...props}
      // Opens on click, typing or ArrowDown: a picker that opened on focus (a dialog's first field is
      // focused when it opens) covered the dialog's own buttons before the user asked for anything.
      openOnFocus={props.openOnFocus ?? false}
      searchable
      clearable={props.clearable ?? true}
      data={data}
      value={value || null}
      onChange={(next) => {
        const option = data.find((o) => o.value === next) ?? null;
        setPicked(option);
        onChange(next, option);
      }}
      onSearchChange={setSearch}
      // The server already filtered by what was typed; the selected label must not filter the rest away.
      filter={({ options }) => options}
      nothingFoundMessage={results.isFetching ? t('records:select.searching') : t('noResults')}
      rightSection={results.isFetching || current.isFetching ? <Loader size={14} /> : undefined}
    />
  );
}

/** Where a new record's customer and dossier are picked from (the screen provides them). */
export interface CustomerDossierLookups {
  customerLookup: LookupSource;
  dossierLookup: LookupSource;
}
