import { BASE_CURRENCY, type SalesInvoiceListItem } from '@fvg/contracts';
import { Alert, Button, Group, Select, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileInvoice } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { dateColumn, statusColumn } from '../../../components/records/columns.tsx';
import { QuestionModal } from '../../../components/records/confirm-dialog.tsx';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import { RelatedRecords } from '../../../components/records/related-records.tsx';
import { isApiError, problemMessage } from '../../../lib/api-client.ts';
import { formatMoney } from '../../../lib/format.ts';
import { invoiceListOptions, useCreateInvoice } from '../api/sales-invoices-api.ts';
import { InvoiceNumber, invoicePath, OverdueBadge, signedAmount } from './invoice-list-config.tsx';
import { INVOICE_KIND_LABELS, INVOICE_STATUS_COLORS, INVOICE_STATUS_LABELS } from './invoice-meta.ts';

export interface DossierInvoicesProps {
  dossier: { id: string; number: string };
  /** The currencies of the dossier's revenue charges: the choice when they are mixed. */
  revenueCurrencies: readonly string[];
  staff: boolean;
}

const money = (amount: string, currency: string) => formatMoney(amount as `${number}`, { currency });

const COLUMNS: RecordColumn<SalesInvoiceListItem>[] = [
  { id: 'number', header: 'Number', cell: (i) => <InvoiceNumber invoice={i} /> },
  { id: 'kind', header: 'Kind', cell: (i) => INVOICE_KIND_LABELS[i.kind] },
  statusColumn({
    size: 'sm',
    status: (i) => i.status,
    colors: INVOICE_STATUS_COLORS,
    labels: INVOICE_STATUS_LABELS,
    beside: (i) => i.overdue && <OverdueBadge size="sm" />,
  }),
  dateColumn({ id: 'issueDate', header: 'Issued', date: (i) => i.issueDate }),
  {
    id: 'total',
    header: 'Total',
    align: 'right',
    cell: (i) => money(signedAmount(i.kind, i.taxInclusiveAmount), i.currency),
  },
  {
    id: 'open',
    header: 'Open',
    align: 'right',
    cell: (i) => (i.status === 'draft' ? '—' : money(signedAmount(i.kind, i.openAmount), i.currency)),
  },
];

/**
 * The dossier's invoices tab: its invoices and credit notes (number, status, total, open), and for
 * staff "Invoice uninvoiced charges", which drafts an invoice of the revenue charges not billed yet
 * (asking for the currency when the charges are in several) and opens it.
 */
export function DossierInvoices({ dossier, revenueCurrencies, staff }: DossierInvoicesProps) {
  const navigate = useNavigate();
  const list = useQuery(invoiceListOptions({ page: 1, pageSize: 100, dossierId: dossier.id }));
  const create = useCreateInvoice();
  const [askCurrency, setAskCurrency] = useState<string[] | null>(null);
  const [currency, setCurrency] = useState<string | null>(null);

  const draft = (chosen?: string) =>
    create.mutate(
      { dossierId: dossier.id, ...(chosen ? { currency: chosen } : {}) },
      {
        onSuccess: (invoice) => {
          setAskCurrency(null);
          notifications.show({
            color: 'green',
            message: `Draft invoice of dossier ${dossier.number} made: check it and issue it.`,
          });
          void navigate({ to: invoicePath(invoice) });
        },
        onError: (error) => {
          // Charges in several currencies: the API wants to be told which ones this invoice bills.
          if (
            isApiError(error) &&
            error.status === 422 &&
            error.fieldErrors.some((e) => e.field === 'currency') &&
            !chosen
          ) {
            const options = revenueCurrencies.length ? [...revenueCurrencies] : [BASE_CURRENCY];
            setCurrency(options[0] ?? null);
            setAskCurrency(options);
            return;
          }
          notifications.show({ color: 'red', title: 'No invoice made', message: problemMessage(error) });
        },
      },
    );

  return (
    <Stack gap="sm" data-testid="dossier-invoices">
      {staff && (
        <Group>
          <Button
            leftSection={<IconFileInvoice size={16} aria-hidden />}
            onClick={() => draft()}
            loading={create.isPending && askCurrency === null}
            data-testid="invoice-uninvoiced"
          >
            Invoice uninvoiced charges
          </Button>
        </Group>
      )}
      <RelatedRecords
        query={list}
        plural="invoices"
        empty="No invoices for this dossier yet."
        testId="dossier-invoices"
        columns={COLUMNS}
        getRowId={(i) => i.id}
        getRowTestId={(i) => `dossier-invoice-${i.number ?? 'draft'}`}
      />
      <QuestionModal
        opened={askCurrency !== null}
        title="Which currency does this invoice bill?"
        onCancel={() => setAskCurrency(null)}
        testId="invoice-currency-dialog"
      >
        <Stack gap="md">
          <Alert color="blue" variant="light">
            The charges not invoiced yet are in several currencies. An invoice has one: choose it, and the
            charges in the others stay for another invoice.
          </Alert>
          <Select
            label="Currency"
            data={askCurrency ?? []}
            value={currency}
            onChange={setCurrency}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="invoice-currency"
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setAskCurrency(null)} data-testid="confirm-cancel">
              Cancel
            </Button>
            <Button
              onClick={() => currency && draft(currency)}
              loading={create.isPending}
              data-testid="confirm-ok"
            >
              Make draft in {currency ?? '…'}
            </Button>
          </Group>
        </Stack>
      </QuestionModal>
    </Stack>
  );
}
