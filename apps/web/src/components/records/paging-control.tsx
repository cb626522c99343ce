import { Group, NativeSelect, Pagination, Text } from '@mantine/core';
import { formatNumber } from '../../lib/format.ts';
import { useT } from '../../lib/i18n.ts';
import { PAGE_SIZES } from './list-search.ts';

export interface PagingControlProps {
  page: number;
  pageSize: number;
  total: number;
  /** The server estimated the total (large lists): shown as "about N". */
  totalIsEstimate: boolean;
  /** Rows on this page. */
  shown: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}

/** "1–50 of 1,234" (or "of about 120,000"), page buttons and the page size. */
export function PagingControl({
  page,
  pageSize,
  total,
  totalIsEstimate,
  shown,
  onPageChange,
  onPageSizeChange,
}: PagingControlProps) {
  const t = useT('records');
  const first = shown === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = shown === 0 ? 0 : first + shown - 1;
  // An estimate can be off either way: never offer fewer pages than the rows seen so far prove.
  const pages = Math.max(1, Math.ceil(Math.max(total, last) / pageSize), page + (shown === pageSize ? 1 : 0));
  const totalText = totalIsEstimate
    ? t('paging.aboutTotal', { total: formatNumber(total) })
    : formatNumber(total);

  return (
    <Group justify="space-between" gap="sm" wrap="wrap" data-testid="paging">
      <Text size="sm" c="dimmed" data-testid="paging-total">
        {shown === 0
          ? t('paging.noneOf', { total: totalText })
          : t('paging.range', { first: formatNumber(first), last: formatNumber(last), total: totalText })}
      </Text>
      <Group gap="sm" wrap="nowrap">
        {/* The browser's own select: a list paints without Mantine's Combobox (ADR 0023). */}
        <NativeSelect
          aria-label={t('paging.rowsPerPage')}
          data={PAGE_SIZES.map((n) => ({ value: String(n), label: t('paging.perPage', { count: n }) }))}
          value={String(pageSize)}
          onChange={(event) => onPageSizeChange(Number(event.currentTarget.value))}
          w={130}
          size="xs"
          data-testid="page-size"
        />
        <Pagination
          total={pages}
          value={page}
          onChange={onPageChange}
          size="sm"
          siblings={1}
          boundaries={totalIsEstimate ? 0 : 1}
          getControlProps={(control) => ({
            'data-testid': `paging-${control}`,
            'aria-label': t(`paging.${control}`),
          })}
          getItemProps={(item) => ({
            'data-testid': `paging-page-${item}`,
            'aria-label': t('paging.page', { page: item }),
          })}
        />
      </Group>
    </Group>
  );
}
