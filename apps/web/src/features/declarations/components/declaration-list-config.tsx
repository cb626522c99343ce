import type { DeclarationListItem } from '@fvg/contracts';
import { Badge, Text } from '@mantine/core';
import {
  customerDossierFilters,
  dateColumn,
  dossierColumn,
  numberColumn,
  onlyFilter,
  partyColumn,
  statusColumn,
  statusFilter,
  textColumn,
} from '../../../components/records/columns.tsx';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import { TruncatedText } from '../../../components/records/record-link.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
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

/** A declaration's screen goes by its LRN (issue 27 item 1); the id opens it too, and takes the LRN's address. */
export const declarationPath = (declaration: { lrn: string }) =>
  pathFor('declaration', { id: declaration.lrn });

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
  numberColumn({
    id: 'lrn',
    header: 'LRN',
    sortField: 'lrn',
    width: 150,
    text: (d) => d.lrn,
    href: declarationPath,
  }),
  {
    id: 'mrn',
    header: 'MRN',
    sortField: 'mrn',
    // 18 monospace characters, whole (issue 27 item 2); cut with an ellipsis and the whole on hover if not.
    width: 180,
    cell: (d) =>
      d.mrn ? (
        <Text size="sm" ff="monospace" truncate title={d.mrn}>
          {d.mrn}
        </Text>
      ) : (
        '—'
      ),
  },
  { id: 'type', header: 'Type', width: 70, cell: (d) => DECLARATION_TYPE_LABELS[d.type] },
  statusColumn({
    width: 110,
    status: (d) => d.status,
    colors: DECLARATION_STATUS_COLORS,
    labels: DECLARATION_STATUS_LABELS,
    beside: (d) => <PendingRequestBadge request={d.pendingRequest} />,
  }),
  // Off by default so the amounts and the last message fit at 1280 px; the dossier filter and the
  // declaration's page name it.
  dossierColumn({ width: 120, hiddenByDefault: true }),
  partyColumn({ width: 120, party: (d) => d.customer }),
  textColumn({
    id: 'declarant',
    header: 'Declarant',
    width: 150,
    hiddenByDefault: true,
    text: (d) => d.declarantName,
  }),
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
    cell: (d) => <TruncatedText text={lastMessageText(d.lastMessage)} />,
  },
  dateColumn({
    id: 'createdAt',
    header: 'Created',
    sortField: 'createdAt',
    sortDescFirst: true,
    width: 105,
    hiddenByDefault: true,
    date: (d) => d.createdAt,
  }),
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
    statusFilter(STATUS_OPTIONS, { staff }),
    {
      kind: 'text',
      key: 'reference',
      label: 'LRN / MRN',
      placeholder: 'Starts with…',
      normalize: (value) => value.replace(/\s+/g, '').toUpperCase(),
      width: 170,
    },
    ...customerDossierFilters(staff, { customerLookup, dossierLookup }),
    { kind: 'dateRange', from: 'from', to: 'to', label: 'Created', testId: 'created' },
    onlyFilter('pendingRequest', 'Waiting', 'Request pending', 160),
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
