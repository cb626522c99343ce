import {
  type Company,
  formatSeriesNumber,
  INVOICE_KIND_LABELS,
  type InvoiceKind,
  type SalesInvoice,
} from '@fvg/contracts';
import { Alert, Button, Checkbox, Code, Group, Radio, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { QuestionModal } from '../../../components/records/confirm-dialog.tsx';
import { DateField, TextField } from '../../../components/records/form-fields.tsx';
import { DecimalInput, MoneyField } from '../../../components/records/money-field.tsx';
import { RecordFormShell, useRecordSubmit } from '../../../components/records/record-form.tsx';
import { isApiError, problemMessage } from '../../../lib/api-client.ts';
import { applyProblemToForm, normalizeFieldPath } from '../../../lib/form-errors.ts';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { formatDate, todayIso } from '../../../lib/format-date.ts';
import { companyOptions } from '../../company/index.ts';
import { useCreateCreditNote, useRecordPayment, useRemovePayment } from '../api/sales-invoices-api.ts';
import { INVOICE_FIELD_LABELS as L } from './invoice-meta.ts';

const money = (amount: string, currency: string) => formatMoney(amount as `${number}`, { currency });

/**
 * The number issuing will take: the series' next number when the company reports the issue date's
 * year, otherwise null (another year's series is read by the server when it issues).
 */
export function nextNumberOf(
  company: Company | undefined,
  kind: InvoiceKind,
  issueDate: string,
): string | null {
  const year = Number(issueDate.slice(0, 4));
  const series = company?.series.find((s) => s.kind === kind && s.year === year);
  return series ? formatSeriesNumber(series.prefix, series.year, series.nextNumber) : null;
}

export interface IssueDialogProps {
  opened: boolean;
  invoice: SalesInvoice;
  loading: boolean;
  /** The issue's refusal when it is about the issue date: shown on the date field, the dialog stays open. */
  problem?: unknown;
  onConfirm: (issueDate: string) => void;
  onCancel: () => void;
}

/** The issue date field of the issue dialog: where a refused issue date is shown. */
export const ISSUE_DIALOG_FIELDS = ['issueDate'] as const;

/** Does the issue's refusal name the issue date (then it belongs on the dialog's date field)? */
export function namesIssueDate(error: unknown): boolean {
  return isApiError(error) && error.fieldErrors.some((e) => normalizeFieldPath(e.field) === 'issueDate');
}

/**
 * Before issuing: the number it is about to take (the company's series for the issue date's year),
 * the issue date (today by default) and what issuing means: the invoice can no longer change. A refused
 * issue date (before the series' last, after today, in closed books) shows on its field, through the
 * shared problem mapping, and the dialog stays open to pick another.
 */
export function IssueDialog({ opened, invoice, loading, problem, onConfirm, onCancel }: IssueDialogProps) {
  const form = useForm<{ issueDate: string }>({ defaultValues: { issueDate: todayIso() } });
  const issueDate = form.watch('issueDate') || todayIso();
  const company = useQuery({ ...companyOptions(), enabled: opened, staleTime: 0 });
  const what = INVOICE_KIND_LABELS[invoice.kind].toLowerCase();
  const next = nextNumberOf(company.data, invoice.kind, issueDate);
  const { clearErrors, setError } = form;
  useEffect(() => {
    clearErrors();
    if (problem) applyProblemToForm(problem, setError, { fields: ISSUE_DIALOG_FIELDS, labels: L });
  }, [problem, clearErrors, setError]);
  const formProblem = form.formState.errors.root?.server?.message;
  return (
    <QuestionModal opened={opened} title={`Issue this ${what}?`} onCancel={onCancel} testId="issue-dialog">
      <Stack gap="md">
        <Text size="sm" data-testid="issue-number">
          {company.isPending ? (
            'Reading the number series…'
          ) : next ? (
            <>
              You are about to take number <Code fz="sm">{next}</Code>.
            </>
          ) : (
            `It takes the next number of the ${issueDate.slice(0, 4)} series.`
          )}
        </Text>
        <DateField form={form} name="issueDate" label={L.issueDate} required />
        {formProblem && (
          <Alert color="red" variant="light" data-testid="issue-problem">
            {formProblem}
          </Alert>
        )}
        {(invoice.eInvoiceProblems ?? []).length > 0 && (
          <Alert
            color="yellow"
            variant="light"
            title="No Peppol e-invoice"
            data-testid="issue-e-invoice-warning"
          >
            <Text size="sm">
              It is issued with its PDF, but it cannot be sent through Peppol:{' '}
              {(invoice.eInvoiceProblems ?? []).map((p) => p.message).join('; ')}.
            </Text>
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          Once issued, the {what} is final: its lines, amounts and parties can no longer change (a credit note
          corrects it). If a colleague issues one first, this one takes the number after it.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} data-testid="confirm-cancel">
            Not yet
          </Button>
          <Button
            onClick={() => {
              form.clearErrors();
              onConfirm(issueDate);
            }}
            loading={loading}
            data-autofocus
            data-testid="confirm-ok"
          >
            {next ? `Issue as ${next}` : `Issue ${what}`}
          </Button>
        </Group>
      </Stack>
    </QuestionModal>
  );
}

interface PaymentValues {
  paidOn: string;
  amount: string;
  reference: string;
}

/** Record a payment: date (today), amount (the open amount), reference; the server's refusal on its field. */
export function PaymentDialog({
  opened,
  invoice,
  invoiceKey,
  onClose,
  onRecorded,
}: {
  opened: boolean;
  invoice: SalesInvoice;
  invoiceKey: string;
  onClose: () => void;
  onRecorded: (invoice: SalesInvoice) => void;
}) {
  return (
    <QuestionModal opened={opened} title="Record a payment" onCancel={onClose} testId="payment-dialog">
      {opened && (
        <PaymentForm invoice={invoice} invoiceKey={invoiceKey} onClose={onClose} onRecorded={onRecorded} />
      )}
    </QuestionModal>
  );
}

function PaymentForm({
  invoice,
  invoiceKey,
  onClose,
  onRecorded,
}: {
  invoice: SalesInvoice;
  invoiceKey: string;
  onClose: () => void;
  onRecorded: (invoice: SalesInvoice) => void;
}) {
  const form = useForm<PaymentValues>({
    defaultValues: { paidOn: todayIso(), amount: invoice.openAmount, reference: '' },
  });
  const record = useRecordPayment(invoiceKey);
  const submit = useRecordSubmit(
    form,
    async (values) => {
      const saved = await record.mutateAsync({
        id: invoice.id,
        body: { paidOn: values.paidOn, amount: values.amount, reference: values.reference.trim() || null },
      });
      onRecorded(saved);
    },
    { labels: L },
  );
  return (
    <RecordFormShell
      form={form}
      submit={submit}
      submitLabel="Record payment"
      onCancel={onClose}
      label="Record a payment"
      testId="payment-form"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Open: {money(invoice.openAmount, invoice.currency)} of{' '}
          {money(invoice.totals.taxInclusiveAmount, invoice.currency)}
        </Text>
        <DateField form={form} name="paidOn" label={L.paidOn} required />
        <MoneyField form={form} name="amount" label={L.amount} currency={invoice.currency} required />
        <TextField
          form={form}
          name="reference"
          label={L.reference}
          maxLength={100}
          placeholder="Bank statement line, transfer reference"
        />
      </Stack>
    </RecordFormShell>
  );
}

/** Removing the last payment, with the reason the audit trail keeps. */
export function RemovePaymentDialog({
  opened,
  invoice,
  invoiceKey,
  onClose,
  onRemoved,
}: {
  opened: boolean;
  invoice: SalesInvoice;
  invoiceKey: string;
  onClose: () => void;
  onRemoved: (invoice: SalesInvoice) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useRemovePayment(invoiceKey);
  const last = invoice.payments.at(-1);
  const confirm = () => {
    if (!last) return;
    if (!reason.trim()) {
      setError('Say why the payment is removed (e.g. booked on the wrong invoice)');
      return;
    }
    remove.mutate(
      { id: invoice.id, paymentId: last.id, reason: reason.trim() },
      {
        onSuccess: (saved) => {
          setReason('');
          setError(null);
          onRemoved(saved);
        },
        onError: (e) => setError(problemMessage(e)),
      },
    );
  };
  return (
    <QuestionModal
      opened={opened}
      title="Remove the last payment?"
      onCancel={onClose}
      testId="remove-payment-dialog"
    >
      <Stack gap="md">
        {last && (
          <Text size="sm">
            The payment of {money(last.amount, invoice.currency)} on {formatDate(last.paidOn)} is taken off
            the invoice. It stays in the history with your reason.
          </Text>
        )}
        <TextInput
          label="Reason"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={error}
          maxLength={200}
          required
          data-autofocus
          data-testid="remove-payment-reason"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} data-testid="confirm-cancel">
            Keep it
          </Button>
          <Button color="red" onClick={confirm} loading={remove.isPending} data-testid="confirm-ok">
            Remove payment
          </Button>
        </Group>
      </Stack>
    </QuestionModal>
  );
}

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * "Credit note…": everything still creditable, or chosen lines with a quantity each (at most the
 * line's); makes a draft credit note, which opens to be checked and issued.
 */
export function CreditNoteDialog({
  opened,
  invoice,
  invoiceKey,
  onClose,
  onCreated,
}: {
  opened: boolean;
  invoice: SalesInvoice;
  invoiceKey: string;
  onClose: () => void;
  onCreated: (creditNote: SalesInvoice) => void;
}) {
  const [scope, setScope] = useState<'all' | 'lines'>('all');
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const create = useCreateCreditNote(invoiceKey);

  const confirm = () => {
    setError(null);
    const lines =
      scope === 'lines'
        ? Object.entries(chosen).map(([lineId, quantity]) => ({ lineId, quantity }))
        : undefined;
    if (lines && lines.length === 0) {
      setError('Tick the lines to credit');
      return;
    }
    if (lines?.some((l) => !DECIMAL.test(l.quantity) || Number(l.quantity) <= 0)) {
      setError('Each ticked line needs a quantity above 0');
      return;
    }
    create.mutate(
      { id: invoice.id, body: { version: invoice.version, ...(lines ? { lines } : {}) } },
      { onSuccess: onCreated, onError: (e) => setError(problemMessage(e)) },
    );
  };

  return (
    <QuestionModal
      opened={opened}
      title={`Credit note for ${invoice.number ?? 'this invoice'}`}
      onCancel={onClose}
      testId="credit-note-dialog"
    >
      <Stack gap="md">
        <Radio.Group
          value={scope}
          onChange={(v) => setScope(v as 'all' | 'lines')}
          label="What does it credit?"
        >
          <Stack gap={6} mt={6}>
            <Radio value="all" label="Everything not credited yet" data-testid="credit-all" />
            <Radio value="lines" label="Chosen lines and quantities" data-testid="credit-lines" />
          </Stack>
        </Radio.Group>
        {scope === 'lines' && (
          <Table withTableBorder verticalSpacing={4} data-testid="credit-line-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th />
                <Table.Th>Line</Table.Th>
                <Table.Th ta="right">Quantity</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoice.lines.map((line, i) => {
                const on = line.id in chosen;
                return (
                  <Table.Tr key={line.id}>
                    <Table.Td>
                      <Checkbox
                        checked={on}
                        aria-label={`Credit line ${i + 1}`}
                        onChange={(e) => {
                          const checked = e.currentTarget.checked;
                          setChosen(({ [line.id]: _, ...rest }) =>
                            checked ? { ...rest, [line.id]: line.quantity } : rest,
                          );
                        }}
                        data-testid={`credit-line-${i}`}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{line.description}</Text>
                      <Text size="xs" c="dimmed">
                        {formatNumber(line.quantity as `${number}`)} ×{' '}
                        {money(line.unitPrice, invoice.currency)}
                      </Text>
                    </Table.Td>
                    <Table.Td w={120}>
                      <DecimalInput
                        value={chosen[line.id] ?? ''}
                        onChange={(value) => setChosen((c) => ({ ...c, [line.id]: value }))}
                        decimals={3}
                        disabled={!on}
                        aria-label={`Quantity to credit, line ${i + 1}`}
                        styles={{ input: { textAlign: 'right' } }}
                        data-testid={`credit-quantity-${i}`}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        {error && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            role="alert"
            data-testid="credit-error"
          >
            {error}
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          The credit note starts as a draft: check it, then issue it with its own number.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} data-testid="confirm-cancel">
            Cancel
          </Button>
          <Button onClick={confirm} loading={create.isPending} data-testid="confirm-ok">
            Make credit note
          </Button>
        </Group>
      </Stack>
    </QuestionModal>
  );
}
