import { type SalesInvoiceListItem, signedAmount } from '@fvg/contracts';
import { Anchor, Badge, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import {
  customerDossierFilters,
  dateColumn,
  dossierColumn,
  onlyFilter,
  partyColumn,
  statusColumn,
  statusFilter,
} from '../../../components/records/columns.tsx';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { invoiceKeys } from '../api/keys.ts';
import { fetchInvoiceList } from '../api/sales-invoices-api.ts';
import {
  INVOICE_KIND_LABELS,
  INVOICE_STATUS_COLORS,
  INVOICE_STATUS_LABELS,
  KIND_OPTIONS,
  STATUS_OPTIONS,
} from './invoice-meta.ts';

/** Issued invoices are addressed by their number, drafts (no number yet) by their id. */
export const invoicePath = (invoice: { id: string; number: string | null }) =>
  pathFor('sales-invoice', { id: invoice.number ?? invoice.id });

const money = (amount: string, currency: string) => formatMoney(amount as `${number}`, { currency });

export { signedAmount } from '@fvg/contracts';

/** The red "Overdue" badge of the list, the invoice header and the dossier's tab. */
export function OverdueBadge({ size = 'sm' }: { size?: 'xs' | 'sm' | 'md' | 'lg' }) {
  return (
    <Badge color="red" variant="filled" size={size} data-testid="overdue-badge">
      Overdue
    </Badge>
  );
}

/** The number, or "Draft" in italics while it has none. */
export function InvoiceNumber({ invoice }: { invoice: { id: string; number: string | null } }) {
  return invoice.number ? (
    <Anchor component={Link} to={invoicePath(invoice)} size="sm" fw={500} ff="monospace">
      {invoice.number}
    </Anchor>
  ) : (
    <Anchor component={Link} to={invoicePath(invoice)} size="sm" fs="italic" c="dimmed">
      Draft
    </Anchor>
  );
}

const columns: RecordColumn<SalesInvoiceListItem>[] = [
  {
    id: 'number',
    header: 'Number',
    sortField: 'number',
    width: 135,
    required: true,
    cell: (i) => <InvoiceNumber invoice={i} />,
  },
  // Off by default so the amounts fit at 1280 px: the number's series (I-, C-) already says it.
  {
    id: 'kind',
    header: 'Kind',
    width: 105,
    hiddenByDefault: true,
    cell: (i) => INVOICE_KIND_LABELS[i.kind],
  },
  statusColumn({
    width: 185,
    status: (i) => i.status,
    colors: INVOICE_STATUS_COLORS,
    labels: INVOICE_STATUS_LABELS,
    beside: (i) => i.overdue && <OverdueBadge size="xs" />,
  }),
  partyColumn({ sortField: 'customer', width: 150, party: (i) => i.customer }),
  // Off by default for the same reason; the dossier filter and the invoice page name it.
  dossierColumn({ width: 130, hiddenByDefault: true }),
  dateColumn({
    id: 'issueDate',
    header: 'Issued',
    sortField: 'issueDate',
    sortDescFirst: true,
    width: 110,
    date: (i) => i.issueDate,
  }),
  {
    id: 'dueDate',
    header: 'Due',
    sortField: 'dueDate',
    sortDescFirst: true,
    width: 110,
    cell: (i) =>
      i.dueDate ? (
        <Text size="sm" c={i.overdue ? 'red' : undefined} fw={i.overdue ? 600 : undefined}>
          {formatDate(i.dueDate)}
        </Text>
      ) : (
        '—'
      ),
  },
  {
    id: 'total',
    header: 'Total',
    sortField: 'total',
    sortDescFirst: true,
    width: 115,
    align: 'right',
    cell: (i) => money(signedAmount(i.kind, i.taxInclusiveAmount), i.currency),
  },
  {
    id: 'open',
    header: 'Open',
    width: 115,
    align: 'right',
    cell: (i) =>
      i.status === 'draft' ? (
        '—'
      ) : (
        <Text size="sm" c={i.overdue ? 'red' : undefined} fw={i.overdue ? 600 : undefined}>
          {money(signedAmount(i.kind, i.openAmount), i.currency)}
        </Text>
      ),
  },
];

export interface InvoiceListOptions {
  /** Staff filter by customer and dossier; customers see only their party's issued documents. */
  staff: boolean;
  customerLookup: LookupSource;
  dossierLookup: LookupSource;
}

/** The invoices list: search over number, customer and references; overdue rows in red. */
export function invoiceListConfig({
  staff,
  customerLookup,
  dossierLookup,
}: InvoiceListOptions): ListConfig<SalesInvoiceListItem> {
  const filters: FilterDef[] = [
    statusFilter(STATUS_OPTIONS, { staff }),
    { kind: 'select', key: 'kind', label: 'Kind', options: KIND_OPTIONS, width: 140 },
    ...customerDossierFilters(staff, { customerLookup, dossierLookup }),
    { kind: 'dateRange', from: 'issuedFrom', to: 'issuedTo', label: 'Issued', testId: 'issued' },
    onlyFilter('overdue', 'Overdue', 'Overdue only', 140),
  ];
  return {
    id: staff ? 'sales-invoices' : 'sales-invoices-customer',
    path: 'sales-invoices/export',
    label: 'Sales invoices',
    plural: 'invoices',
    columns,
    filters,
    defaultSort: '-updatedAt',
    searchPlaceholder: 'Number, customer, reference',
    getRowId: (i) => i.id,
    getRowTestId: (i) => `row-${i.number ?? i.id}`,
    getRowAccent: (i) => (i.overdue ? 'danger' : undefined),
    rowHref: invoicePath,
    listKey: invoiceKeys.list,
    fetchList: fetchInvoiceList,
  };
}
