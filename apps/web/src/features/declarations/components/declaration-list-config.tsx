import type { DeclarationListItem } from '@fvg/contracts';
import { Anchor, Badge, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { DECLARATIONS_PATH, fetchDeclarationList } from '../api/declarations-api.ts';
import { declarationKeys } from '../api/keys.ts';
import {
  DECLARATION_MESSAGE_KIND_LABELS,
  DECLARATION_STATUS_COLORS,
  DECLARATION_STATUS_LABELS,
  DECLARATION_TYPE_LABELS,
  STATUS_OPTIONS,
  TYPE_OPTIONS,
} from './declaration-meta.ts';

export const declarationPath = (declaration: { id: string }) =>
  pathFor('declaration', { id: declaration.id });

/** Amounts of a declaration are in euro (customs values, duty and VAT are declared in EUR). */
export const eur = (amount: string) => formatMoney(amount as `${number}`, { currency: 'EUR' });

/** "Amendment pending" / "Cancellation pending": a request the authority has not answered yet. */
export function PendingRequestBadge({ request }: { request: string | null }) {
  if (!request) return null;
  return (
    <Badge color="yellow" variant="light" size="xs" data-testid="pending-request">
      {request === 'amendment' ? 'Amendment pending' : 'Cancellation pending'}
    </Badge>
  );
}

/** "Accepted, MRN allocated · 12 Nov 2026": the authority's (or our) last word. */
export function lastMessageText(
  last: { kind: keyof typeof DECLARATION_MESSAGE_KIND_LABELS; at: string } | null,
) {
  return last ? `${DECLARATION_MESSAGE_KIND_LABELS[last.kind]} · ${formatDate(last.at)}` : '—';
}

const columns: RecordColumn<DeclarationListItem>[] = [
  {
    id: 'lrn',
    header: 'LRN',
    sortField: 'lrn',
    width: 150,
    required: true,
    cell: (d) => (
      <Anchor component={Link} to={declarationPath(d)} size="sm" fw={500} ff="monospace">
        {d.lrn}
      </Anchor>
    ),
  },
  {
    id: 'mrn',
    header: 'MRN',
    sortField: 'mrn',
    width: 160,
    cell: (d) =>
      d.mrn ? (
        <Text size="sm" ff="monospace">
          {d.mrn}
        </Text>
      ) : (
        '—'
      ),
  },
  { id: 'type', header: 'Type', width: 70, cell: (d) => DECLARATION_TYPE_LABELS[d.type] },
  {
    id: 'status',
    header: 'Status',
    sortField: 'status',
    width: 110,
    cell: (d) => (
      <Group gap={4} wrap="nowrap">
        <StatusBadge
          status={d.status}
          colors={DECLARATION_STATUS_COLORS}
          labels={DECLARATION_STATUS_LABELS}
          size="xs"
          testId="row-status"
        />
        <PendingRequestBadge request={d.pendingRequest} />
      </Group>
    ),
  },
  {
    // Off by default so the amounts and the last message fit at 1280 px; the dossier filter and the
    // declaration's page name it.
    id: 'dossier',
    header: 'Dossier',
    width: 120,
    hiddenByDefault: true,
    cell: (d) =>
      d.dossier ? (
        <Anchor
          component={Link}
          to={pathFor('dossier', { dossierId: d.dossier.number })}
          size="sm"
          ff="monospace"
        >
          {d.dossier.number}
        </Anchor>
      ) : (
        '—'
      ),
  },
  {
    id: 'customer',
    header: 'Customer',
    width: 120,
    cell: (d) => (
      <Text size="sm" truncate title={`${d.customer.name} (${d.customer.code})`}>
        {d.customer.name}
      </Text>
    ),
  },
  {
    id: 'declarant',
    header: 'Declarant',
    width: 150,
    hiddenByDefault: true,
    cell: (d) =>
      d.declarantName ? (
        <Text size="sm" truncate title={d.declarantName}>
          {d.declarantName}
        </Text>
      ) : (
        '—'
      ),
  },
  {
    id: 'customsValue',
    header: 'Customs value',
    sortField: 'customsValue',
    sortDescFirst: true,
    width: 140,
    align: 'right',
    cell: (d) => eur(d.customsValue),
  },
  {
    id: 'dutyAndVat',
    header: 'Duty + VAT',
    width: 105,
    align: 'right',
    cell: (d) => (d.dutyAndVat === null ? '—' : eur(d.dutyAndVat)),
  },
  {
    id: 'lastMessage',
    header: 'Last message',
    width: 140,
    cell: (d) => (
      <Text size="sm" truncate title={lastMessageText(d.lastMessage)}>
        {lastMessageText(d.lastMessage)}
      </Text>
    ),
  },
  {
    id: 'createdAt',
    header: 'Created',
    sortField: 'createdAt',
    sortDescFirst: true,
    width: 105,
    hiddenByDefault: true,
    cell: (d) => formatDate(d.createdAt),
  },
];

export interface DeclarationListOptions {
  /** Staff filter by customer and dossier; customers see their own party's lodged declarations only. */
  staff: boolean;
  customerLookup: LookupSource;
  dossierLookup: LookupSource;
}

/** The declarations list: type and status first, references (LRN/MRN prefix), parties, creation dates. */
export function declarationListConfig({
  staff,
  customerLookup,
  dossierLookup,
}: DeclarationListOptions): ListConfig<DeclarationListItem> {
  const filters: FilterDef[] = [
    { kind: 'multiselect', key: 'type', label: 'Type', options: TYPE_OPTIONS },
    {
      kind: 'multiselect',
      key: 'status',
      label: 'Status',
      // Customers never see drafts: no point offering the filter.
      options: staff ? STATUS_OPTIONS : STATUS_OPTIONS.filter((o) => o.value !== 'draft'),
    },
    {
      kind: 'text',
      key: 'reference',
      label: 'LRN / MRN',
      placeholder: 'Starts with…',
      normalize: (value) => value.replace(/\s+/g, '').toUpperCase(),
      width: 170,
    },
    ...(staff
      ? ([
          { kind: 'lookup', key: 'customerId', label: 'Customer', source: customerLookup },
          { kind: 'lookup', key: 'dossierId', label: 'Dossier', source: dossierLookup },
        ] as const)
      : []),
    { kind: 'dateRange', from: 'from', to: 'to', label: 'Created', testId: 'created' },
    {
      kind: 'select',
      key: 'pendingRequest',
      label: 'Waiting',
      options: [{ value: 'true', label: 'Request pending' }],
      width: 160,
    },
  ];
  return {
    id: staff ? 'declarations' : 'declarations-customer',
    path: `${DECLARATIONS_PATH}/export`,
    label: 'Declarations',
    plural: 'declarations',
    columns,
    filters,
    defaultSort: '-updatedAt',
    searchPlaceholder: 'LRN, MRN, customer, declarant',
    getRowId: (d) => d.id,
    getRowTestId: (d) => `row-${d.lrn}`,
    getRowAccent: (d) => (d.status === 'rejected' || d.status === 'not_released' ? 'danger' : undefined),
    rowHref: declarationPath,
    listKey: declarationKeys.list,
    fetchList: fetchDeclarationList,
  };
}
