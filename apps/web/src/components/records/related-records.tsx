import { Table, Text } from '@mantine/core';
import { ErrorState } from '../error-state.tsx';
import type { RecordColumn } from './data-table.tsx';

export interface RelatedRecordsProps<T> {
  /** The query of the related records (one page is enough: a record has few of them). */
  query: {
    isError: boolean;
    isPending: boolean;
    error: unknown;
    data?: { items: readonly T[] } | undefined;
    refetch: () => unknown;
  };
  /** Plural noun: "The <plural> could not be loaded", "Loading the <plural>…". */
  plural: string;
  /** What the tab says when there are none ("No invoices for this dossier yet."). */
  empty: string;
  /** Test id stem: `<testId>-table`, `<testId>-empty`. */
  testId: string;
  /** The same column declarations as the area's list (only id, header, cell and align are used). */
  columns: readonly RecordColumn<T>[];
  getRowId: (row: T) => string;
  getRowTestId: (row: T) => string;
}

/**
 * A record's tab listing another area's records that belong to it (a dossier's declarations, its
 * invoices): a small table of the columns the area declares, with loading, failure and empty states.
 */
export function RelatedRecords<T>({
  query,
  plural,
  empty,
  testId,
  columns,
  getRowId,
  getRowTestId,
}: RelatedRecordsProps<T>) {
  if (query.isError)
    return (
      <ErrorState
        title={`The ${plural} could not be loaded`}
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  if (query.isPending || !query.data)
    return (
      <Text size="sm" c="dimmed">
        Loading the {plural}…
      </Text>
    );
  if (query.data.items.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid={`${testId}-empty`}>
        {empty}
      </Text>
    );
  const align = (column: RecordColumn<T>) => (column.align === 'right' ? { ta: 'right' as const } : {});
  return (
    <Table withTableBorder striped data-testid={`${testId}-table`}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column.id} {...align(column)}>
              {column.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {query.data.items.map((row) => (
          <Table.Tr key={getRowId(row)} data-testid={getRowTestId(row)}>
            {columns.map((column) => (
              <Table.Td key={column.id} {...align(column)}>
                {column.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
