import { defaultVat, INVOICE_KIND_LABELS, type SalesInvoice } from '@fvg/contracts';
import { Alert, Anchor, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconCash,
  IconDownload,
  IconFileCode,
  IconReceiptRefund,
  IconSend,
  IconTrash,
  IconUserExclamation,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ErrorState } from '../../../components/error-state.tsx';
import { ConfirmDialog, DeleteRecordButton } from '../../../components/records/confirm-dialog.tsx';
import type { RecordScreenProps } from '../../../components/records/detail-layout.tsx';
import { DetailLayout, type DetailTab, useRecordScreen } from '../../../components/records/detail-layout.tsx';
import { SidePanel } from '../../../components/records/facts.tsx';
import { RecordHistory } from '../../../components/records/history-tab.tsx';
import { type LineColumn, LineItemsEditor } from '../../../components/records/line-items-editor.tsx';
import { fieldPathsOf } from '../../../components/records/record-form.tsx';
import { DossierLink, PartyName } from '../../../components/records/record-link.tsx';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { ApiError, isApiError, problemMessage } from '../../../lib/api-client.ts';
import { fieldMessage, labelFor, normalizeFieldPath, problemIssue } from '../../../lib/field-messages.ts';
import { applyProblemToForm } from '../../../lib/form-errors.ts';
import { formatMoney } from '../../../lib/format.ts';
import { formatDate, formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { loadPdfViewer } from '../../documents/index.ts';
import { dossierOptions } from '../../dossiers/index.ts';
import {
  downloadInvoicePdf,
  downloadInvoiceUbl,
  invoiceHistoryOptions,
  invoiceOptions,
  invoicePdfOptions,
  useDeleteInvoice,
  useIssueInvoice,
} from '../api/sales-invoices-api.ts';
import { EInvoiceNotice, eInvoiceMissing } from './e-invoice-notice.tsx';
import {
  CreditNoteDialog,
  IssueDialog,
  namesIssueDate,
  PaymentDialog,
  RemovePaymentDialog,
} from './invoice-dialogs.tsx';
import { DraftEditor, type DraftForm, useDraftForm } from './invoice-draft.tsx';
import {
  allowanceChargeInputOf,
  allowanceChargeSummary,
  type InvoiceLineValue,
  InvoiceTotals,
  invoiceLineColumns,
  lineValueOf,
  type VatDefault,
} from './invoice-lines.tsx';
import { InvoiceNumber, invoicePath, OverdueBadge } from './invoice-list-config.tsx';
import { INVOICE_FIELD_LABELS, INVOICE_STATUS_COLORS, INVOICE_STATUS_LABELS } from './invoice-meta.ts';

// pdf.js comes with the first PDF shown (the documents area's viewer), not with the invoice screen.
const PdfViewer = lazy(loadPdfViewer);

const money = (amount: string, currency: string) => formatMoney(amount as `${number}`, { currency });

/** The buyer's and seller's fields as the issue refusal names them (`buyer.vatNumber`). */
const PARTY_LABELS: Record<string, string> = {
  name: 'Name',
  street: 'Street',
  postalCode: 'Postal code',
  city: 'City',
  countryCode: 'Country',
  vatNumber: 'VAT number',
  registrationNumber: 'Registration number',
  peppolId: 'Peppol id',
  peppolScheme: 'Peppol scheme',
  iban: 'IBAN',
};

function Downloads({ invoice }: { invoice: SalesInvoice }) {
  const run = (what: 'PDF' | 'UBL', download: () => Promise<unknown>) =>
    download().catch((error: unknown) =>
      notifications.show({ color: 'red', title: `${what} not downloaded`, message: problemMessage(error) }),
    );
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden />}
        onClick={() => void run('PDF', () => downloadInvoicePdf(invoice))}
        data-testid="download-pdf"
      >
        PDF
      </Button>
      {/* No Peppol file without the electronic addresses: the notice on the page says what to enter. */}
      {eInvoiceMissing(invoice).length === 0 && (
        <Button
          variant="default"
          leftSection={<IconFileCode size={16} aria-hidden />}
          onClick={() => void run('UBL', () => downloadInvoiceUbl(invoice))}
          data-testid="download-ubl"
        >
          UBL e-invoice
        </Button>
      )}
    </>
  );
}

function PdfTab({ invoice }: { invoice: SalesInvoice }) {
  const pdf = useQuery(invoicePdfOptions(invoice));
  const loading = (
    <Group justify="center" p="xl" data-testid="pdf-loading">
      <Loader size="sm" />
      <Text size="sm" c="dimmed">
        Loading the PDF…
      </Text>
    </Group>
  );
  if (pdf.isError)
    return (
      <ErrorState title="The PDF could not be loaded" error={pdf.error} onRetry={() => void pdf.refetch()} />
    );
  if (!pdf.data) return loading;
  return (
    <div data-testid="pdf-preview">
      <Suspense fallback={loading}>
        <PdfViewer data={pdf.data} fileName={`${invoice.number ?? 'draft'}.pdf`} />
      </Suspense>
    </div>
  );
}

const NO_COLUMNS_FOR_CUSTOMERS = new Set<string>();

function LinesTab({ invoice }: { invoice: SalesInvoice }) {
  const form = useForm<{ lines: InvoiceLineValue[] }>({ values: { lines: invoice.lines.map(lineValueOf) } });
  const columns = useMemo(() => {
    const all = invoiceLineColumns(invoice.currency).filter((c) => !NO_COLUMNS_FOR_CUSTOMERS.has(c.field));
    if (!invoice.lines.some((l) => l.allowanceCharges.length)) return all;
    // A line's discounts and surcharges, read as the PDF prints them, before its net.
    const summary: LineColumn<InvoiceLineValue> = {
      field: 'allowanceSummary',
      label: 'Discounts and surcharges',
      kind: 'computed',
      flex: 1.4,
      minWidth: 180,
      wrapBefore: true,
      value: (line) =>
        line.allowanceCharges?.length
          ? allowanceChargeSummary(line.allowanceCharges.map(allowanceChargeInputOf), invoice.currency)
          : '—',
    };
    return [...all.slice(0, -1), summary, ...all.slice(-1)];
  }, [invoice.currency, invoice.lines]);
  return (
    <LineItemsEditor
      form={form}
      name="lines"
      columns={columns}
      newLine={() => lines0}
      readOnly
      itemName="line"
      emptyTitle="No lines."
      footer={
        <InvoiceTotals
          totals={invoice.totals}
          allowanceCharges={invoice.allowanceCharges}
          currency={invoice.currency}
          exchangeRate={invoice.exchangeRate}
          paid={{ paidAmount: invoice.paidAmount, openAmount: invoice.openAmount }}
        />
      }
      testId="invoice-lines"
    />
  );
}
const lines0: InvoiceLineValue = {
  chargeId: '',
  chargeCode: '',
  description: '',
  quantity: '',
  unit: '',
  unitPrice: '',
  vatCode: '',
  vatRate: '',
  exemptionReason: '',
};

function PaymentsTab({
  invoice,
  staff,
  onRemoveLast,
}: {
  invoice: SalesInvoice;
  staff: boolean;
  onRemoveLast: () => void;
}) {
  return (
    <Stack gap="sm" data-testid="payments">
      {invoice.payments.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="payments-empty">
          No payments recorded yet. Open: {money(invoice.openAmount, invoice.currency)}.
        </Text>
      ) : (
        <Table striped withTableBorder data-testid="payments-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Paid on</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Reference</Table.Th>
              <Table.Th>Recorded</Table.Th>
              {staff && <Table.Th />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoice.payments.map((p, i) => (
              <Table.Tr key={p.id} data-testid={`payment-${i}`}>
                <Table.Td>{formatDate(p.paidOn)}</Table.Td>
                <Table.Td ta="right">{money(p.amount, invoice.currency)}</Table.Td>
                <Table.Td>{p.reference ?? '—'}</Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {formatDateTime(p.createdAt)}
                    {p.createdBy ? ` by ${p.createdBy.name}` : ''}
                  </Text>
                </Table.Td>
                {staff && (
                  <Table.Td ta="right">
                    {i === invoice.payments.length - 1 && (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        leftSection={<IconTrash size={14} aria-hidden />}
                        onClick={onRemoveLast}
                        data-testid="remove-last-payment"
                      >
                        Remove
                      </Button>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group gap="lg" justify="flex-end">
        <Text size="sm">
          Paid <b>{money(invoice.paidAmount, invoice.currency)}</b>
        </Text>
        <Text size="sm">
          Open <b data-testid="payments-open">{money(invoice.openAmount, invoice.currency)}</b>
        </Text>
      </Group>
    </Stack>
  );
}

function CreditNotesTab({
  invoice,
  onCredit,
}: {
  invoice: SalesInvoice;
  onCredit?: (() => void) | undefined;
}) {
  return (
    <Stack gap="sm" data-testid="credit-notes">
      {onCredit && (
        <Group>
          <Button
            variant="light"
            leftSection={<IconReceiptRefund size={16} aria-hidden />}
            onClick={onCredit}
            data-testid="credit-note-open-tab"
          >
            Credit note…
          </Button>
        </Group>
      )}
      {invoice.creditNotes.length === 0 ? (
        <Text c="dimmed" size="sm">
          No credit notes for this invoice.
        </Text>
      ) : (
        <Table withTableBorder data-testid="credit-notes-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Number</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoice.creditNotes.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <InvoiceNumber invoice={c} />
                </Table.Td>
                <Table.Td>
                  <StatusBadge
                    status={c.status}
                    colors={INVOICE_STATUS_COLORS}
                    labels={INVOICE_STATUS_LABELS}
                    size="sm"
                    testId="credit-note-status"
                  />
                </Table.Td>
                <Table.Td ta="right">{money(c.taxInclusiveAmount, invoice.currency)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function InvoiceHistory({ invoiceKey, allowRaw }: { invoiceKey: string; allowRaw: boolean }) {
  return (
    <RecordHistory
      query={invoiceHistoryOptions(invoiceKey)}
      fieldLabels={INVOICE_FIELD_LABELS}
      valueLabels={{ status: INVOICE_STATUS_LABELS }}
      allowRaw={allowRaw}
    />
  );
}

function Subtitle({ invoice, staff }: { invoice: SalesInvoice; staff: boolean }) {
  return (
    <>
      {INVOICE_KIND_LABELS[invoice.kind]} · <PartyName party={invoice.customer} linked={staff} />
      {invoice.dossier && (
        <>
          {' · dossier '}
          <DossierLink dossier={invoice.dossier} size="inherit" testId="invoice-dossier" />
        </>
      )}
      {invoice.creditedInvoice && (
        <>
          {' · credits '}
          <InvoiceNumber invoice={invoice.creditedInvoice} />
        </>
      )}
    </>
  );
}

function Side({ invoice }: { invoice: SalesInvoice }) {
  const c = invoice.currency;
  return (
    <SidePanel
      rows={[
        ['Status', INVOICE_STATUS_LABELS[invoice.status]],
        ['Issued', invoice.issueDate && formatDate(invoice.issueDate)],
        [
          'Due',
          invoice.dueDate && (
            <Text
              key="due"
              span
              size="sm"
              c={invoice.overdue ? 'red' : undefined}
              fw={invoice.overdue ? 600 : undefined}
            >
              {formatDate(invoice.dueDate)}
            </Text>
          ),
        ],
        ['Currency', invoice.exchangeRate ? `${c} (rate ${invoice.exchangeRate})` : c],
        ['Net', money(invoice.totals.taxExclusiveAmount, c)],
        ['VAT', money(invoice.totals.vatTotal, c)],
        [
          'Total',
          <Text key="t" span size="sm" fw={700} data-testid="side-total">
            {money(invoice.totals.taxInclusiveAmount, c)}
          </Text>,
        ],
        ...(invoice.status === 'draft'
          ? []
          : ([
              ['Paid', money(invoice.paidAmount, c)],
              [
                'Open',
                <Text key="o" span size="sm" fw={600} data-testid="side-open">
                  {money(invoice.openAmount, c)}
                </Text>,
              ],
            ] as const)),
        [
          'Created',
          `${formatDateTime(invoice.createdAt)}${invoice.createdBy ? ` by ${invoice.createdBy.name}` : ''}`,
        ],
        ['Updated', formatDateTime(invoice.updatedAt)],
      ]}
    />
  );
}

function Header({ invoice }: { invoice: SalesInvoice }) {
  return (
    <Group gap="xs">
      <StatusBadge
        status={invoice.status}
        colors={INVOICE_STATUS_COLORS}
        labels={INVOICE_STATUS_LABELS}
        size="lg"
      />
      {invoice.overdue && <OverdueBadge size="lg" />}
    </Group>
  );
}

/** What the issue refusal says about the customer's or the company's data: fixed there, not here. */
interface PartyProblems {
  buyer: string[];
  seller: string[];
}

function PartyBanner({ invoice, problems }: { invoice: SalesInvoice; problems: PartyProblems }) {
  if (!problems.buyer.length && !problems.seller.length) return null;
  return (
    <Stack gap="xs">
      {problems.buyer.length > 0 && (
        <Alert
          color="red"
          variant="light"
          icon={<IconUserExclamation aria-hidden />}
          title={`Fix the customer ${invoice.customer.name} first`}
          data-testid="buyer-problems"
        >
          <Stack gap={4}>
            <Text size="sm">
              The invoice takes the customer’s data when it is issued, and this is missing or wrong:
            </Text>
            {problems.buyer.map((m) => (
              <Text key={m} size="sm">
                • {m}
              </Text>
            ))}
            <Anchor
              component={Link}
              to={pathFor('party', { id: invoice.customer.code })}
              size="sm"
              fw={600}
              data-testid="fix-customer"
            >
              Open {invoice.customer.name} to fix it
            </Anchor>
          </Stack>
        </Alert>
      )}
      {problems.seller.length > 0 && (
        <Alert
          color="red"
          variant="light"
          title="Fix the company settings first"
          data-testid="seller-problems"
        >
          <Stack gap={4}>
            {problems.seller.map((m) => (
              <Text key={m} size="sm">
                • {m}
              </Text>
            ))}
            <Anchor component={Link} to={pathFor('admin-company')} size="sm" fw={600}>
              Open the company settings
            </Anchor>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

/** The VAT a new line starts with: from the dossier type, the customer's country and VAT number. */
function useVatDefault(invoice: SalesInvoice): VatDefault {
  const dossier = useQuery({
    ...dossierOptions(invoice.dossier?.number ?? ''),
    enabled: invoice.dossier !== null,
  });
  return defaultVat({
    dossierType: dossier.data?.type ?? null,
    sellerCountry: invoice.seller.countryCode ?? 'NL',
    buyerCountry: invoice.buyer.countryCode ?? invoice.seller.countryCode ?? 'NL',
    buyerVatNumber: invoice.buyer.vatNumber,
  });
}

/**
 * The issue refusal onto the screen: the customer's and company's fields as a banner naming whom to
 * fix, the lines' and header's fields on their cells (`lines.2.vatCode`), the rest as the form's message.
 */
export function applyIssueProblem(error: unknown, draft: DraftForm): PartyProblems {
  const problems: PartyProblems = { buyer: [], seller: [] };
  if (!isApiError(error)) {
    applyProblemToForm(error, draft.form.setError, { fields: [] });
    return problems;
  }
  const rest: typeof error.fieldErrors = [];
  for (const e of error.fieldErrors) {
    const path = normalizeFieldPath(e.field);
    const [head, ...tail] = path.split('.');
    if (head === 'buyer' || head === 'seller')
      problems[head].push(fieldMessage(problemIssue(e), labelFor(tail.join('.'), PARTY_LABELS)));
    else rest.push(e);
  }
  const partyOnly = rest.length === 0 && (problems.buyer.length > 0 || problems.seller.length > 0);
  if (!partyOnly)
    applyProblemToForm(new ApiError(error.status, { ...error.problem, errors: rest }), draft.form.setError, {
      fields: fieldPathsOf(draft.form.getValues()) as never[],
      labels: INVOICE_FIELD_LABELS,
    });
  return problems;
}

function DraftInvoice({
  invoice,
  invoiceKey,
  reload,
  adminMode,
}: {
  invoice: SalesInvoice;
  invoiceKey: string;
  reload: () => Promise<SalesInvoice | undefined>;
  adminMode: boolean;
}) {
  const navigate = useNavigate();
  const draft = useDraftForm(invoice, invoiceKey);
  const vatDefault = useVatDefault(invoice);
  const issue = useIssueInvoice(invoiceKey);
  const remove = useDeleteInvoice(invoiceKey);
  const [asking, setAskingState] = useState<'issue' | 'delete' | null>(null);
  const [issueProblem, setIssueProblem] = useState<unknown>(null);
  const setAsking = (next: 'issue' | 'delete' | null) => {
    setIssueProblem(null);
    setAskingState(next);
  };
  const [partyProblems, setPartyProblems] = useState<PartyProblems>({ buyer: [], seller: [] });
  const [preparing, setPreparing] = useState(false);
  const what = INVOICE_KIND_LABELS[invoice.kind].toLowerCase();
  const detailPath = pathFor('sales-invoice', { id: invoiceKey });

  /** Unsaved changes are saved first: the confirmation is about what is stored. */
  const askIssue = async () => {
    setPartyProblems({ buyer: [], seller: [] });
    if (draft.form.formState.isDirty) {
      setPreparing(true);
      try {
        if (!(await draft.form.trigger())) return;
        await draft.save(draft.form.getValues());
      } catch (error) {
        applyProblemToForm(error, draft.form.setError, {
          fields: fieldPathsOf(draft.form.getValues()) as never[],
          labels: INVOICE_FIELD_LABELS,
        });
        return;
      } finally {
        setPreparing(false);
      }
    }
    setAsking('issue');
  };

  const onIssue = (issueDate: string) => {
    issue.mutate(
      { id: invoice.id, body: { version: draft.base.version ?? invoice.version, issueDate } },
      {
        onSuccess: (saved) => {
          setAsking(null);
          notifications.show({
            color: 'green',
            title: `${INVOICE_KIND_LABELS[saved.kind]} ${saved.number ?? ''} issued`,
            message: 'It is final now: download the PDF or the UBL e-invoice, or record a payment.',
          });
          void navigate({ to: invoicePath(saved), replace: true });
        },
        onError: (error) => {
          if (isApiError(error) && error.status === 409) void reload();
          // A refused issue date belongs on the dialog's date field: it stays open to pick another.
          if (namesIssueDate(error)) {
            setIssueProblem(error);
            return;
          }
          setAsking(null);
          setPartyProblems(applyIssueProblem(error, draft));
        },
      },
    );
  };

  const onDelete = () =>
    remove.mutate(invoice.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `The ${what} draft was deleted.` });
        void navigate({ to: pathFor('sales-invoices'), replace: true });
      },
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Not deleted', message: problemMessage(error) }),
      onSettled: () => setAsking(null),
    });

  const tabs: DetailTab[] = [
    {
      value: 'draft',
      label: 'Draft',
      content: (
        <DraftEditor
          invoice={invoice}
          draft={draft}
          vatDefault={vatDefault}
          reload={reload}
          keepsForm={(next) => next.pathname === detailPath && (next.search.tab ?? 'draft') === 'draft'}
          banner={
            <Stack gap="xs">
              <PartyBanner invoice={invoice} problems={partyProblems} />
              <EInvoiceNotice invoice={invoice} staff />
            </Stack>
          }
        />
      ),
    },
    // The PDF as it stands (marked DRAFT by the server): what the customer gets, before it is final.
    { value: 'pdf', label: 'PDF preview', content: <PdfTab invoice={invoice} /> },
    {
      value: 'history',
      label: 'History',
      content: <InvoiceHistory invoiceKey={invoiceKey} allowRaw={adminMode} />,
    },
  ];

  return (
    <>
      <DetailLayout
        route="sales-invoice"
        recordId="Draft"
        title={invoice.kind === 'credit_note' ? 'Credit note' : undefined}
        subtitle={<Subtitle invoice={invoice} staff />}
        status={<Header invoice={invoice} />}
        actions={
          <>
            {invoice.allowedActions.includes('issue') && (
              <Button
                leftSection={<IconSend size={16} aria-hidden />}
                onClick={() => void askIssue()}
                loading={preparing}
                data-testid="issue-invoice"
              >
                Issue {what}…
              </Button>
            )}
            {invoice.allowedActions.includes('delete') && (
              <DeleteRecordButton label="Delete draft" onClick={() => setAsking('delete')} />
            )}
          </>
        }
        tabs={tabs}
        side={<Side invoice={invoice} />}
      />
      <IssueDialog
        opened={asking === 'issue'}
        invoice={invoice}
        loading={issue.isPending}
        problem={issueProblem}
        onConfirm={onIssue}
        onCancel={() => setAsking(null)}
      />
      <ConfirmDialog
        opened={asking === 'delete'}
        title={`Delete this ${what} draft?`}
        message="The draft is removed for good; its dossier charges can be invoiced again."
        confirmLabel="Delete draft"
        danger
        loading={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setAsking(null)}
      />
    </>
  );
}

function IssuedInvoice({
  invoice,
  invoiceKey,
  staff,
  adminMode,
}: {
  invoice: SalesInvoice;
  invoiceKey: string;
  staff: boolean;
  adminMode: boolean;
}) {
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<'pay' | 'remove-payment' | 'credit' | null>(null);
  const canCredit = staff && invoice.allowedActions.includes('credit');
  const close = () => setDialog(null);
  const tabs: DetailTab[] = [
    {
      value: 'lines',
      label: 'Lines',
      badge: invoice.lines.length || undefined,
      content: <LinesTab invoice={invoice} />,
    },
    { value: 'pdf', label: 'PDF', content: <PdfTab invoice={invoice} /> },
    ...(staff
      ? [
          {
            value: 'payments',
            label: 'Payments',
            badge: invoice.payments.length || undefined,
            content: (
              <PaymentsTab invoice={invoice} staff={staff} onRemoveLast={() => setDialog('remove-payment')} />
            ),
          },
        ]
      : []),
    // Customers see the issued credit notes of their invoice (the API lists only those to them).
    ...(invoice.kind === 'invoice' && (staff || invoice.creditNotes.length > 0)
      ? [
          {
            value: 'credit-notes',
            label: 'Credit notes',
            badge: invoice.creditNotes.length || undefined,
            content: (
              <CreditNotesTab
                invoice={invoice}
                onCredit={canCredit ? () => setDialog('credit') : undefined}
              />
            ),
          },
        ]
      : []),
    ...(staff
      ? [
          {
            value: 'history',
            label: 'History',
            content: <InvoiceHistory invoiceKey={invoiceKey} allowRaw={adminMode} />,
          },
        ]
      : []),
  ];
  const notify = (message: string) => notifications.show({ color: 'green', message });
  return (
    <>
      <DetailLayout
        route="sales-invoice"
        recordId={invoice.number ?? 'Draft'}
        title={invoice.kind === 'credit_note' ? 'Credit note' : undefined}
        subtitle={<Subtitle invoice={invoice} staff={staff} />}
        status={<Header invoice={invoice} />}
        banner={<EInvoiceNotice invoice={invoice} staff={staff} />}
        actions={
          <>
            {staff && invoice.allowedActions.includes('pay') && (
              <Button
                leftSection={<IconCash size={16} aria-hidden />}
                onClick={() => setDialog('pay')}
                data-testid="record-payment-header"
              >
                Record payment
              </Button>
            )}
            {canCredit && (
              <Button
                variant="light"
                leftSection={<IconReceiptRefund size={16} aria-hidden />}
                onClick={() => setDialog('credit')}
                data-testid="credit-note-open"
              >
                Credit note…
              </Button>
            )}
            <Downloads invoice={invoice} />
          </>
        }
        tabs={tabs}
        side={<Side invoice={invoice} />}
      />
      {staff && (
        <>
          <PaymentDialog
            opened={dialog === 'pay'}
            invoice={invoice}
            invoiceKey={invoiceKey}
            onClose={close}
            onRecorded={(saved) => {
              close();
              notify(`Payment recorded. Open: ${money(saved.openAmount, saved.currency)}.`);
            }}
          />
          <RemovePaymentDialog
            opened={dialog === 'remove-payment'}
            invoice={invoice}
            invoiceKey={invoiceKey}
            onClose={close}
            onRemoved={(saved) => {
              close();
              notify(`Payment removed. Open: ${money(saved.openAmount, saved.currency)}.`);
            }}
          />
          <CreditNoteDialog
            opened={dialog === 'credit'}
            invoice={invoice}
            invoiceKey={invoiceKey}
            onClose={close}
            onCreated={(creditNote) => {
              close();
              notify('Credit note drafted: check it and issue it.');
              void navigate({ to: invoicePath(creditNote) });
            }}
          />
        </>
      )}
    </>
  );
}

/**
 * /sales-invoices/$id. Staff edit a draft (lines with live totals and VAT summary) and issue it after a
 * confirmation naming the number it takes; an issued invoice shows its lines and totals, the PDF,
 * payments, credit notes and history, with PDF and UBL downloads. Customers see their issued
 * invoices and credit notes read-only (lines, totals, PDF), with the downloads. The URL names the
 * invoice by its number (issued) or id (draft): `id` is that key.
 */
export function InvoiceDetail(props: RecordScreenProps): ReactNode {
  const invoiceKey = props.id;
  // A numbered invoice opened by its id (a link made while it was a draft, or the draft's own screen
  // when it is issued) takes its number's address: the shared record screen does it as the record comes
  // in, not the issue's callback (a live update can swap the draft's screen for the issued one before
  // the answer arrives, and then that callback never runs).
  const screen = useRecordScreen(invoiceOptions(invoiceKey), props, 'sales-invoice', (i) => i.number);
  const { record: invoice, query, staff, adminMode } = screen;
  const reload = async () => (await query.refetch()).data;
  if (!invoice) return screen.waiting;
  if (invoice.status === 'draft' && staff)
    return (
      <DraftInvoice
        key={invoice.id}
        invoice={invoice}
        invoiceKey={invoiceKey}
        reload={reload}
        adminMode={adminMode}
      />
    );
  return <IssuedInvoice invoice={invoice} invoiceKey={invoiceKey} staff={staff} adminMode={adminMode} />;
}
