import {
  BASE_CURRENCY,
  type DocumentTotals,
  documentTotals,
  type InvoiceLine,
  type InvoiceLineInput,
  lineNet,
  toBaseCurrency,
  VAT_CODES,
  VAT_EXEMPTION_REASONS_BY_CODE,
  VAT_EXEMPTION_TEXTS,
  type VatCode,
  type VatExemptionReason,
  type VatGroup,
  vatForCode,
} from '@fvg/contracts';
import { Divider, Group, Stack, Table, Text } from '@mantine/core';
import { useEffect } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import type { LineColumn } from '../../../components/records/line-items-editor.tsx';
import { formatMoney } from '../../../lib/format.ts';
import {
  CHARGE_CODE_OPTIONS,
  EXEMPT_CODES,
  EXEMPTION_OPTIONS,
  rateless,
  UNIT_OPTIONS,
  VAT_CODE_OPTIONS,
  vatGroupLabel,
} from './invoice-meta.ts';

/** One line as the form holds it: text everywhere ('' for empty), decimals as the API takes them. */
export interface InvoiceLineValue extends Record<string, unknown> {
  /** The dossier charge it bills ('' for a line typed here). */
  chargeId: string;
  /** On a credit note: the invoice line it credits ('' on an invoice). */
  creditedLineId?: string;
  chargeCode: string;
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  vatCode: string;
  vatRate: string;
  exemptionReason: string;
}

export interface VatDefault {
  vatCode: VatCode;
  vatRate: string | null;
  exemptionReason: VatExemptionReason | null;
}

export const lineValueOf = (line: InvoiceLine): InvoiceLineValue => ({
  chargeId: line.chargeId ?? '',
  creditedLineId: line.creditedLineId ?? '',
  chargeCode: line.chargeCode,
  description: line.description,
  quantity: line.quantity,
  unit: line.unit,
  unitPrice: line.unitPrice,
  vatCode: line.vatCode,
  vatRate: line.vatRate ?? '',
  exemptionReason: line.exemptionReason ?? '',
});

/** The line as the API takes it; the contract (the form's resolver) has checked the codes. */
export const lineInputOf = (line: InvoiceLineValue): InvoiceLineInput =>
  ({
    ...(line.chargeId ? { chargeId: line.chargeId } : {}),
    ...(line.creditedLineId ? { creditedLineId: line.creditedLineId } : {}),
    chargeCode: line.chargeCode,
    description: line.description.trim(),
    quantity: line.quantity,
    unit: line.unit,
    unitPrice: line.unitPrice,
    vatCode: line.vatCode,
    vatRate: rateless(line.vatCode) ? null : line.vatRate === '' ? null : line.vatRate,
    exemptionReason:
      EXEMPT_CODES.has(line.vatCode as VatCode) && line.exemptionReason ? line.exemptionReason : null,
  }) as InvoiceLineInput;

export function newInvoiceLine(vat: VatDefault, previous?: InvoiceLineValue): InvoiceLineValue {
  return {
    chargeId: '',
    chargeCode: previous?.chargeCode ?? 'FREIGHT',
    description: '',
    quantity: '1',
    unit: previous?.unit ?? 'C62',
    unitPrice: '',
    // A line after another takes its VAT (the user may have changed the default for this invoice).
    vatCode: previous?.vatCode ?? vat.vatCode,
    vatRate: previous ? previous.vatRate : (vat.vatRate ?? ''),
    exemptionReason: previous ? previous.exemptionReason : (vat.exemptionReason ?? ''),
  };
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const isVatCode = (code: string): code is VatCode => (VAT_CODES as readonly string[]).includes(code);

/** A line that reads as numbers (quantity, price, a known VAT code and its rate), or null while typed. */
function mathLineOf(line: InvoiceLineValue) {
  if (!DECIMAL.test(line.quantity) || !DECIMAL.test(line.unitPrice) || !isVatCode(line.vatCode)) return null;
  const rate = rateless(line.vatCode) ? null : line.vatRate === '' ? '0' : line.vatRate;
  if (rate !== null && !DECIMAL.test(rate)) return null;
  return { quantity: line.quantity, unitPrice: line.unitPrice, vatCode: line.vatCode, vatRate: rate };
}

/**
 * The totals of the lines as typed, computed by the same function the server uses (documentTotals:
 * line nets rounded, VAT per rate group from the group's net). Lines not yet readable are left out.
 */
export function liveTotals(lines: readonly InvoiceLineValue[]): DocumentTotals {
  return documentTotals(
    lines.flatMap((l) => {
      const math = mathLineOf(l);
      return math
        ? [{ ...math, exemptionReason: (l.exemptionReason || null) as VatExemptionReason | null }]
        : [];
    }),
  );
}

/** The lines' columns: charge, description, quantity, unit, unit price, VAT code, rate, reason, net. */
export function invoiceLineColumns(currency: string): LineColumn<InvoiceLineValue>[] {
  return [
    {
      field: 'chargeCode',
      label: 'Charge',
      kind: 'select',
      options: CHARGE_CODE_OPTIONS,
      width: 190,
      required: true,
    },
    {
      field: 'description',
      label: 'Description',
      kind: 'text',
      multiline: true,
      flex: 2,
      minWidth: 180,
      maxLength: 200,
      required: true,
    },
    { field: 'quantity', label: 'Quantity', kind: 'quantity', decimals: 3, width: 84, required: true },
    { field: 'unit', label: 'Unit', kind: 'select', options: UNIT_OPTIONS, width: 124, required: true },
    {
      field: 'unitPrice',
      label: 'Unit price',
      kind: 'money',
      currency: () => currency,
      width: 116,
      placeholder: '0.00',
      required: true,
    },
    {
      field: 'vatCode',
      label: 'VAT',
      kind: 'select',
      options: VAT_CODE_OPTIONS,
      width: 190,
      wrapBefore: true,
      required: true,
    },
    {
      field: 'vatRate',
      label: 'Rate %',
      kind: 'quantity',
      decimals: 2,
      width: 72,
      when: (line) => !rateless(line.vatCode),
    },
    {
      field: 'exemptionReason',
      label: 'Exemption reason',
      kind: 'select',
      options: EXEMPTION_OPTIONS,
      flex: 1.4,
      minWidth: 170,
      when: (line) => EXEMPT_CODES.has(line.vatCode as VatCode),
    },
    {
      field: 'lineNet',
      label: 'Net',
      kind: 'computed',
      width: 112,
      value: (line) => {
        if (!DECIMAL.test(line.quantity) || !DECIMAL.test(line.unitPrice)) return '—';
        return formatMoney(lineNet(line.quantity, line.unitPrice) as `${number}`, { currency });
      },
    },
  ];
}

/**
 * Changing a line's VAT code sets what goes with it (vatForCode): the seller country's standard rate
 * for S, 0 for Z/E/AE, none for O, and the matching exemption reason (kept when the line's fits).
 */
export function useVatCodeFollowers<T extends FieldValues>(
  form: UseFormReturn<T>,
  name: string,
  sellerCountry: string,
) {
  useEffect(() => {
    const pattern = new RegExp(`^${name.replace('.', '\\.')}\\.(\\d+)\\.vatCode$`);
    const sub = form.watch((values, { name: changed, type }) => {
      const m = changed ? pattern.exec(changed) : null;
      if (!m || type !== 'change') return;
      const index = Number(m[1]);
      const line = (values as Record<string, InvoiceLineValue[] | undefined>)[name]?.[index];
      if (!line) return;
      const code = line.vatCode as VatCode;
      if (!isVatCode(code)) return;
      const set = (field: string, value: string) =>
        form.setValue(`${name}.${index}.${field}` as FieldPath<T>, value as never, {
          shouldDirty: true,
          shouldValidate: form.formState.isSubmitted,
        });
      const vat = vatForCode(code, sellerCountry);
      set('vatRate', vat.vatRate ?? '');
      // E has two reasons: one the line already has is kept.
      if (!VAT_EXEMPTION_REASONS_BY_CODE[code].includes(line.exemptionReason as VatExemptionReason))
        set('exemptionReason', vat.exemptionReason ?? VAT_EXEMPTION_REASONS_BY_CODE[code][0] ?? '');
    });
    return () => sub.unsubscribe();
  }, [form, name, sellerCountry]);
}

const fmt = (amount: string, currency: string) => formatMoney(amount as `${number}`, { currency });

function groupReason(group: VatGroup) {
  return group.exemptionReason ? VAT_EXEMPTION_TEXTS[group.exemptionReason] : null;
}

export interface InvoiceTotalsProps {
  totals: Pick<DocumentTotals, 'vatGroups' | 'lineExtensionAmount' | 'vatTotal' | 'taxInclusiveAmount'>;
  currency: string;
  /** Base currency per unit of `currency`; the VAT total is also shown in the base currency. */
  exchangeRate?: string | null | undefined;
  /** Paid and open amount of an issued invoice. */
  paid?: { paidAmount: string; openAmount: string } | undefined;
  testId?: string;
}

/** The VAT summary per rate group (taxable amount, VAT, exemption wording) and the totals. */
export function InvoiceTotals({
  totals,
  currency,
  exchangeRate,
  paid,
  testId = 'invoice-totals',
}: InvoiceTotalsProps) {
  const foreign = currency !== BASE_CURRENCY;
  const rateOk = exchangeRate && DECIMAL.test(exchangeRate);
  return (
    <Stack gap="xs" data-testid={testId} style={{ minWidth: 'min(100%, 26rem)' }}>
      <Table withRowBorders={false} verticalSpacing={2} data-testid="vat-summary">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>VAT</Table.Th>
            <Table.Th ta="right">Taxable</Table.Th>
            <Table.Th ta="right">VAT amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {totals.vatGroups.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>
                <Text size="sm" c="dimmed">
                  No lines yet.
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            totals.vatGroups.map((g) => (
              <Table.Tr
                key={`${g.vatCode}/${g.vatRate}`}
                data-testid={`vat-group-${g.vatCode}-${g.vatRate ?? 'none'}`}
              >
                <Table.Td>
                  <Text size="sm">{vatGroupLabel(g.vatCode, g.vatRate)}</Text>
                  {groupReason(g) && (
                    <Text size="xs" c="dimmed" maw="18rem">
                      {groupReason(g)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right" data-testid="vat-taxable">
                  {fmt(g.taxableAmount, currency)}
                </Table.Td>
                <Table.Td ta="right" data-testid="vat-amount">
                  {fmt(g.vatAmount, currency)}
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
      <Divider />
      <Stack gap={2}>
        <Group justify="space-between">
          <Text size="sm">Net</Text>
          <Text size="sm" data-testid="total-net">
            {fmt(totals.lineExtensionAmount, currency)}
          </Text>
        </Group>
        <Group justify="space-between">
          <Text size="sm">VAT</Text>
          <Text size="sm" data-testid="total-vat">
            {fmt(totals.vatTotal, currency)}
          </Text>
        </Group>
        {foreign && (
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              VAT in {BASE_CURRENCY}
              {rateOk ? ` (rate ${exchangeRate})` : ''}
            </Text>
            <Text size="sm" c="dimmed" data-testid="total-vat-base">
              {rateOk
                ? fmt(toBaseCurrency(totals.vatTotal, exchangeRate), BASE_CURRENCY)
                : 'needs the exchange rate'}
            </Text>
          </Group>
        )}
        <Group justify="space-between">
          <Text fw={700}>Total</Text>
          <Text fw={700} data-testid="total-gross">
            {fmt(totals.taxInclusiveAmount, currency)}
          </Text>
        </Group>
        {paid && (
          <>
            <Group justify="space-between">
              <Text size="sm">Paid</Text>
              <Text size="sm" data-testid="total-paid">
                {fmt(paid.paidAmount, currency)}
              </Text>
            </Group>
            <Group justify="space-between">
              <Text size="sm" fw={600}>
                Open
              </Text>
              <Text size="sm" fw={600} data-testid="total-open">
                {fmt(paid.openAmount, currency)}
              </Text>
            </Group>
          </>
        )}
      </Stack>
    </Stack>
  );
}
