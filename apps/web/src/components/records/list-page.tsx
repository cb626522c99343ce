import type { ListResponse } from '@fvg/contracts';
import { Button, EmptyState, Group, Loader, Stack } from '@mantine/core';
import { IconFilterOff, IconInbox } from '@tabler/icons-react';
import { keepPreviousData, type QueryKey, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { RowData } from '@tanstack/react-table';
import { type ReactNode, useCallback, useMemo } from 'react';
import { useT } from '../../lib/i18n.ts';
import { ErrorState } from '../error-state.tsx';
import { DataTable, type RecordColumn, type RowAccent } from './data-table.tsx';
import { ExportMenu } from './export-menu.tsx';
import { activeFilterCount, FilterBar, type FilterDef, type FilterPatch, filterKeys } from './filter-bar.tsx';
import { DEFAULT_PAGE_SIZE, formatSortParam, parseSortParam, type SortTerm } from './list-search.ts';
import { PagingControl } from './paging-control.tsx';
import { useRouteSearch } from './use-route-search.ts';

/** The API query of one page of a list, as the URL state gives it. */
export interface ListParams {
  page: number;
  pageSize: number;
  sort?: string | undefined;
  q?: string | undefined;
  [filter: string]: string | number | undefined;
}

/** One area's list, declared once: columns, filters, where the rows come from, where a row leads. */
export interface ListConfig<T extends RowData> {
  /** Key of remembered columns; also the export file name base. */
  id: string;
  /**
   * API path the Export menu downloads with `format=`: the list's own path where the list route
   * streams exports itself (dossiers), its `/export` sibling where the area has one (declarations).
   */
  path: string;
  /** Accessible name of the grid, e.g. 'Dossiers'. */
  label: string;
  /** Plural noun for empty states, e.g. 'dossiers'. */
  plural: string;
  columns: readonly RecordColumn<T>[];
  filters?: readonly FilterDef[];
  /** The API's default order, shown in the headers when the URL names none. */
  defaultSort: string;
  searchPlaceholder: string;
  getRowId: (row: T) => string;
  getRowTestId?: (row: T) => string;
  /** Rows that need attention (overdue invoices) get a coloured edge. */
  getRowAccent?: (row: T) => RowAccent | undefined;
  /** Where a row opens (click, Enter). */
  rowHref?: (row: T) => string;
  /** The query key of one page: the area's key factory (`dossierKeys.list(params)`). */
  listKey: (params: ListParams) => QueryKey;
  /** Fetches one page (features/<area>/api). */
  fetchList: (params: ListParams, signal: AbortSignal) => Promise<ListResponse<T>>;
  /** Offer CSV/XLSX export of the filtered list (default true). */
  exportable?: boolean;
}

export interface ListPageProps<T extends RowData> {
  config: ListConfig<T>;
  /** Buttons next to Export ("New dossier"). */
  actions?: ReactNode;
  /** Opens a row in place (e.g. a dialog over the list) instead of navigating to `rowHref`. */
  onOpen?: (row: T) => void;
}

/** The parameters of the URL that go to the API: paging, order, search and the declared filters. */
export function listParamsOf(
  search: Record<string, unknown>,
  filters: readonly FilterDef[] = [],
): ListParams {
  const params: ListParams = {
    page: typeof search.page === 'number' ? search.page : 1,
    pageSize: typeof search.pageSize === 'number' ? search.pageSize : DEFAULT_PAGE_SIZE,
  };
  const keys = ['sort', 'q', ...filters.flatMap(filterKeys)];
  for (const key of keys) {
    const value = search[key];
    if (typeof value === 'string' && value !== '') params[key] = value;
    else if (typeof value === 'number') params[key] = String(value);
  }
  return params;
}

/**
 * The generic record list: the URL holds its state (page, page size, sort, search, filters), the
 * server pages, sorts and filters, and the grid shows one page. Loading shows skeleton rows, an
 * empty result offers to clear the filters, a failure offers to retry.
 */
export function ListPage<T extends RowData>({ config, actions, onOpen }: ListPageProps<T>) {
  const t = useT('records');
  const [search, setSearch] = useRouteSearch();
  const navigate = useNavigate();
  const filters = config.filters ?? [];
  const params = useMemo(() => listParamsOf(search, filters), [search, filters]);

  const result = useQuery({
    queryKey: config.listKey(params),
    queryFn: ({ signal }) => config.fetchList(params, signal),
    placeholderData: keepPreviousData,
  });
  const data = result.data;

  const sorting = useMemo(() => parseSortParam(params.sort ?? config.defaultSort), [params.sort, config]);
  const active = activeFilterCount(filters, params);

  const onFilters = useCallback(
    (patch: FilterPatch) => {
      const onlyText = Object.keys(patch).every((key) => key === 'q');
      setSearch({ ...patch, page: undefined }, { replace: onlyText });
    },
    [setSearch],
  );
  const clearFilters = useCallback(() => {
    const cleared: FilterPatch = { q: undefined, page: undefined };
    for (const key of filters.flatMap(filterKeys)) cleared[key] = undefined;
    setSearch(cleared);
  }, [filters, setSearch]);
  const onSorting = useCallback(
    (terms: SortTerm[]) => {
      const sort = formatSortParam(terms);
      // Back to the default order: leave it out of the URL.
      setSearch({ sort: sort === config.defaultSort ? undefined : (sort ?? ''), page: undefined });
    },
    [setSearch, config.defaultSort],
  );
  const open =
    onOpen ??
    (config.rowHref
      ? (row: T) => {
          void navigate({ to: config.rowHref?.(row) } as Parameters<typeof navigate>[0]);
        }
      : undefined);

  const empty = (
    <EmptyState
      icon={<IconInbox size={32} stroke={1.5} aria-hidden />}
      withIndicatorBackground
      title={
        active > 0
          ? t('list.noMatchTitle', { plural: config.plural })
          : t('list.noneTitle', { plural: config.plural })
      }
      description={active > 0 ? t('list.noMatchText') : t('list.noneText', { plural: config.plural })}
      py="xl"
      data-testid="list-empty"
    >
      {active > 0 && (
        <Button
          variant="light"
          leftSection={<IconFilterOff size={16} aria-hidden />}
          onClick={clearFilters}
          data-testid="clear-filters"
        >
          {t('list.clearFilters')}
        </Button>
      )}
    </EmptyState>
  );

  return (
    <Stack gap="md" data-testid="list-page" data-list={config.id}>
      <FilterBar
        filters={filters}
        values={params}
        onChange={onFilters}
        onClear={clearFilters}
        searchPlaceholder={config.searchPlaceholder}
      />

      {result.isError ? (
        <Stack gap="sm">
          <Group gap="sm">{actions}</Group>
          <ErrorState
            title={t('list.loadFailed', { plural: config.plural })}
            error={result.error}
            onRetry={() => void result.refetch()}
          />
        </Stack>
      ) : (
        <DataTable
          tableId={config.id}
          label={config.label}
          columns={config.columns}
          rows={data?.items ?? []}
          getRowId={config.getRowId}
          {...(config.getRowTestId ? { getRowTestId: config.getRowTestId } : {})}
          {...(config.getRowAccent ? { getRowAccent: config.getRowAccent } : {})}
          sorting={sorting}
          onSortingChange={onSorting}
          {...(open ? { onOpen: open } : {})}
          loading={result.isPending}
          empty={empty}
          maxHeight="max(320px, calc(100dvh - 440px))"
          toolbar={
            <Group gap="sm" wrap="nowrap">
              {actions}
              {config.exportable !== false && (
                <ExportMenu path={config.path} query={{ ...params }} basename={config.id} />
              )}
              {result.isFetching && !result.isPending && <Loader size="xs" aria-label={t('list.updating')} />}
            </Group>
          }
        />
      )}

      {data && !result.isError && (
        <PagingControl
          page={params.page}
          pageSize={params.pageSize}
          total={data.total}
          totalIsEstimate={data.totalIsEstimate}
          shown={data.items.length}
          onPageChange={(page) => setSearch({ page: page > 1 ? page : undefined })}
          onPageSizeChange={(pageSize) =>
            setSearch({ pageSize: pageSize === DEFAULT_PAGE_SIZE ? undefined : pageSize, page: undefined })
          }
        />
      )}
    </Stack>
  );
}
