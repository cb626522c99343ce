import { Group, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDate, formatDateTime } from '../../lib/format-date.ts';
import type { RecordColumn } from './data-table.tsx';
import type { FilterDef, FilterOption } from './filter-bar.tsx';
import { DossierLink, RecordLink, TruncatedText } from './record-link.tsx';
import type { LookupSource } from './record-select.tsx';
import { StatusBadge } from './status-badge.tsx';

/*
 * The columns and filters that recur across record lists, as factories: an area's list config
 * declares `statusColumn({ … })` instead of writing the cell again. Each keeps the ids, widths and
 * test ids its callers give, so remembered column choices and tests stay as they are.
 */

/** What every column factory takes besides its cell: the column's own declaration. */
type ColumnOptions<T> = Omit<RecordColumn<T>, 'cell' | 'id' | 'header'> & { id?: string; header?: string };

interface Ref {
  name: string;
  code: string;
}

/** The record's own number, linked to its screen; always shown. */
export function numberColumn<T>({
  text,
  href,
  ...column
}: ColumnOptions<T> & { text: (row: T) => string; href: (row: NoInfer<T>) => string }): RecordColumn<T> {
  return {
    id: 'number',
    header: 'Number',
    sortField: 'number',
    required: true,
    ...column,
    cell: (row) => (
      <RecordLink to={href(row)} strong>
        {text(row)}
      </RecordLink>
    ),
  };
}

/** The status as a small badge (`row-status`), with what else the row needs beside it (an overdue badge). */
export function statusColumn<T, S extends string>({
  status,
  colors,
  labels,
  size = 'xs',
  beside,
  ...column
}: ColumnOptions<T> & {
  status: (row: T) => S;
  colors: Readonly<Record<S, MantineColor>>;
  labels: Readonly<Record<S, string>>;
  size?: 'xs' | 'sm';
  beside?: (row: T) => ReactNode;
}): RecordColumn<T> {
  const badge = (row: T) => (
    <StatusBadge status={status(row)} colors={colors} labels={labels} size={size} testId="row-status" />
  );
  // Wide enough for the longest label, so no badge is cut ("UNDER CONT…"; issue 27 item 2): an
  // upper-case badge letter takes up to 8 px at xs (9 at sm), plus the badge's padding and the cell's.
  const longest = Math.max(0, ...Object.values<string>(labels).map((l) => l.length));
  const fits = Math.ceil(longest * (size === 'sm' ? 9 : 8) + 36);
  return {
    id: 'status',
    header: 'Status',
    sortField: 'status',
    ...column,
    ...(column.width !== undefined ? { width: Math.max(column.width, fits) } : {}),
    cell: beside
      ? (row) => (
          <Group gap={4} wrap="nowrap">
            {badge(row)}
            {beside(row)}
          </Group>
        )
      : badge,
  };
}

/** A party by its name, with its code in the tooltip (the customer, the owner). */
export function partyColumn<T>({
  party,
  ...column
}: ColumnOptions<T> & { party: (row: T) => Ref }): RecordColumn<T> {
  return {
    id: 'customer',
    header: 'Customer',
    ...column,
    cell: (row) => {
      const p = party(row);
      return <TruncatedText text={p.name} title={`${p.name} (${p.code})`} />;
    },
  };
}

/** The dossier the row belongs to, linked; none → '—'. */
export function dossierColumn<T extends { dossier: { number: string } | null }>(
  column: ColumnOptions<T>,
): RecordColumn<T> {
  return {
    id: 'dossier',
    header: 'Dossier',
    ...column,
    cell: (row) => (row.dossier ? <DossierLink dossier={row.dossier} /> : '—'),
  };
}

/** A free text (a name, a reference), cut to the column; none → '—'. */
export function textColumn<T>({
  text,
  ...column
}: ColumnOptions<T> & { id: string; header: string; text: (row: T) => string | null }): RecordColumn<T> {
  return { ...column, cell: (row) => <TruncatedText text={text(row)} /> };
}

/** A calendar date or, with `time`, an instant; none → '—'. */
export function dateColumn<T>({
  date,
  time = false,
  ...column
}: ColumnOptions<T> & {
  id: string;
  header: string;
  date: (row: T) => string | null;
  time?: boolean;
}): RecordColumn<T> {
  return {
    ...column,
    cell: time ? (row) => formatDateTime(date(row)) : (row) => formatDate(date(row)),
  };
}

/** "Updated": when the record last changed, newest first on the first click; off by default. */
export function updatedAtColumn<T extends { updatedAt: string }>(
  column: Partial<ColumnOptions<T>> = {},
): RecordColumn<T> {
  return dateColumn<T>({
    id: 'updatedAt',
    header: 'Updated',
    sortField: 'updatedAt',
    sortDescFirst: true,
    width: 150,
    hiddenByDefault: true,
    time: true,
    date: (row) => row.updatedAt,
    ...column,
  });
}

/** The status filter; customers never see drafts, so they are not offered one. */
export function statusFilter(
  options: readonly FilterOption[],
  { staff = true, ...rest }: { staff?: boolean; label?: string; width?: number } = {},
): FilterDef {
  return {
    kind: 'multiselect',
    key: 'status',
    label: 'Status',
    options: staff ? options : options.filter((o) => o.value !== 'draft'),
    ...rest,
  };
}

/** Staff narrow a list to one customer and one dossier; a customer sees only its own anyway. */
export function customerDossierFilters(
  staff: boolean,
  lookups: { customerLookup: LookupSource; dossierLookup?: LookupSource },
): FilterDef[] {
  if (!staff) return [];
  return [
    { kind: 'lookup', key: 'customerId', label: 'Customer', source: lookups.customerLookup },
    ...(lookups.dossierLookup
      ? [{ kind: 'lookup', key: 'dossierId', label: 'Dossier', source: lookups.dossierLookup } as const]
      : []),
  ];
}

/** A "show only …" switch as a one-option select (`overdue=true`). */
export function onlyFilter(key: string, label: string, option: string, width: number): FilterDef {
  return { kind: 'select', key, label, options: [{ value: 'true', label: option }], width };
}
