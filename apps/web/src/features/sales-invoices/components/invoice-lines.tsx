import {
  ALLOWANCE_REASONS,
  type AllowanceCharge,
  allowanceChargeLabel,
  BASE_CURRENCY,
  CHARGE_REASONS,
  type DocumentAllowanceCharge,
  type DocumentTotals,
  documentTotals,
  type InvoiceLine,
  type InvoiceLineInput,
  lineNet,
  lineNetWithAllowances,
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
import { type ReactNode, useEffect } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import {
  type LineColumn,
  type LineDetails,
  LineItemsEditor,
} from '../../../components/records/line-items-editor.tsx';
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

/**
 * A discount (allowance) or surcharge (charge) as the form holds it. `type` is its kind and reason
 * code in one pick: 'allowance|95' (Discount), 'charge|FC' (Freight service), 'allowance|' (another
 * discount, the reason text says which).
 */
export interface AllowanceChargeValue extends Record<string, unknown> {
  type: string;
  amount: string;
  /** Printed on the invoice; needed when the pick has no code. */
  reason: string;
}

/** One on the whole invoice also names the VAT group it lowers or raises. */
export interface DocumentAllowanceChargeValue extends AllowanceChargeValue {
  vatCode: string;
  vatRate: string;
}

const acType = (ac: AllowanceCharge) => `${ac.isCharge ? 'charge' : 'allowance'}|${ac.reasonCode ?? ''}`;

export const allowanceChargeValueOf = (ac: AllowanceCharge): AllowanceChargeValue => ({
  type: acType(ac),
  amount: ac.amount,
  reason: ac.reason ?? '',
});

export const documentAllowanceChargeValueOf = (
  ac: DocumentAllowanceCharge,
): DocumentAllowanceChargeValue => ({
  ...allowanceChargeValueOf(ac),
  vatCode: ac.vatCode,
  vatRate: ac.vatRate ?? '',
});

function kindAndCode(type: string): { isCharge: boolean; reasonCode: string | null } {
  const [kind, code] = type.split('|');
  return { isCharge: kind === 'charge', reasonCode: code || null };
}

/** As the API takes it; the contract (the form's resolver) checks the amount and the reason. */
export const allowanceChargeInputOf = (v: AllowanceChargeValue): AllowanceCharge => ({
  ...kindAndCode(v.type),
  amount: v.amount,
  reason: v.reason.trim() || null,
});

export const documentAllowanceChargeInputOf = (v: DocumentAllowanceChargeValue): DocumentAllowanceCharge => ({
  ...allowanceChargeInputOf(v),
  vatCode: v.vatCode as VatCode,
  vatRate: rateless(v.vatCode) ? null : v.vatRate === '' ? null : v.vatRate,
});

/**
 * The reason picker: the discounts of UNCL5189 and a forwarder's common surcharges of UNCL7161, each by
 * its name, and "other" of each kind, whose reason text says what it is.
 */
export const ALLOWANCE_CHARGE_TYPE_OPTIONS: readonly { value: string; label: string }[] = [
  { value: 'allowance|95', label: 'Discount' },
  ...Object.entries(ALLOWANCE_REASONS)
    .filter(([code]) => code !== '95')
    .map(([code, name]) => ({ value: `allowance|${code}`, label: `Discount: ${name}` })),
  { value: 'allowance|', label: 'Discount: other (say why)' },
  ...Object.entries(CHARGE_REASONS).map(([code, name]) => ({
    value: `charge|${code}`,
    label: `Surcharge: ${name}`,
  })),
  { value: 'charge|', label: 'Surcharge: other (say why)' },
];

/** The allowance or charge a form value reads as, or null while its amount is being typed. */
function mathAllowanceCharge(v: AllowanceChargeValue): AllowanceCharge | null {
  if (!/^\d+(\.\d+)?$/.test(v.amount)) return null;
  return allowanceChargeInputOf(v);
}

/** How a list of them reads in a line: "Less €50.00 Volume discount · Plus €25.00 Freight service". */
export function allowanceChargeSummary(list: readonly AllowanceCharge[], currency: string): string {
  return list
    .map((ac) => `${ac.isCharge ? 'Plus' : 'Less'} ${fmt(ac.amount, currency)} ${allowanceChargeLabel(ac)}`)
    .join(' · ');
}

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
  /** Discounts and surcharges of this line. */
  allowanceCharges?: AllowanceChargeValue[];
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
  allowanceCharges: line.allowanceCharges.map(allowanceChargeValueOf),
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
    allowanceCharges: (line.allowanceCharges ?? []).map(allowanceChargeInputOf),
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
    allowanceCharges: [],
  };
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const isVatCode = (code: string): code is VatCode => (VAT_CODES as readonly string[]).includes(code);

/** A line that reads as numbers (quantity, price, a known VAT code and its rate), or null while typed. */
function mathLineOf(line: InvoiceLineValue) {
  if (!DECIMAL.test(line.quantity) || !DECIMAL.test(line.unitPrice) || !isVatCode(line.vatCode)) return null;
  const rate = rateless(line.vatCode) ? null : line.vatRate === '' ? '0' : line.vatRate;
  if (rate !== null && !DECIMAL.test(rate)) return null;
  return {
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    vatCode: line.vatCode,
    vatRate: rate,
    // One still being typed counts once its amount reads as a number.
    allowanceCharges: (line.allowanceCharges ?? []).flatMap((v) => mathAllowanceCharge(v) ?? []),
  };
}

/** A document allowance or charge that reads as numbers, or null while typed. */
function mathDocumentAllowanceCharge(v: DocumentAllowanceChargeValue): DocumentAllowanceCharge | null {
  const ac = mathAllowanceCharge(v);
  if (!ac || !isVatCode(v.vatCode)) return null;
  const rate = rateless(v.vatCode) ? null : v.vatRate === '' ? '0' : v.vatRate;
  if (rate !== null && !DECIMAL.test(rate)) return null;
  return { ...ac, vatCode: v.vatCode, vatRate: rate };
}

/**
 * The totals of the lines and the document's discounts and surcharges as typed, computed by the same
 * function the server uses (documentTotals: line nets with their allowances and charges, VAT per rate
 * group from the group's net). What is not yet readable is left out.
 */
export function liveTotals(
  lines: readonly InvoiceLineValue[],
  allowanceCharges: readonly DocumentAllowanceChargeValue[] = [],
): DocumentTotals {
  return documentTotals(
    lines.flatMap((l) => {
      const math = mathLineOf(l);
      return math
        ? [{ ...math, exemptionReason: (l.exemptionReason || null) as VatExemptionReason | null }]
        : [];
    }),
    undefined,
    '0',
    allowanceCharges.flatMap((v) => mathDocumentAllowanceCharge(v) ?? []),
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
    ...vatColumns<InvoiceLineValue>(),
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
        const acs = (line.allowanceCharges ?? []).flatMap((v) => mathAllowanceCharge(v) ?? []);
        const net = acs.length
          ? lineNetWithAllowances({
              quantity: line.quantity,
              unitPrice: line.unitPrice,
              allowanceCharges: acs,
            })
          : lineNet(line.quantity, line.unitPrice);
        return formatMoney(net as `${number}`, { currency });
      },
    },
  ];
}

/** The columns of a discount or surcharge: what it is (the reason picker), the printed reason, the amount. */
function allowanceChargeColumns<L extends AllowanceChargeValue>(currency: string): LineColumn<L>[] {
  return [
    {
      field: 'type',
      label: 'Discount or surcharge',
      kind: 'select',
      options: ALLOWANCE_CHARGE_TYPE_OPTIONS,
      searchable: true,
      flex: 1.2,
      minWidth: 220,
      required: true,
    },
    {
      field: 'reason',
      label: 'Reason (printed)',
      kind: 'text',
      maxLength: 100,
      flex: 1.5,
      minWidth: 160,
      placeholder: 'e.g. Volume discount',
    },
    {
      field: 'amount',
      label: 'Amount',
      kind: 'money',
      currency: () => currency,
      width: 116,
      placeholder: '0.00',
      required: true,
    },
  ];
}

/** The VAT category and, where the category has one, its rate: a line's and a document allowance's. */
function vatColumns<
  T extends Record<string, unknown> & { vatCode: string; vatRate: unknown },
>(): LineColumn<T>[] {
  return [
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
      when: (row) => !rateless(row.vatCode),
    },
  ];
}

/** A document allowance or charge adds the VAT group it falls in. */
export function documentAllowanceChargeColumns(currency: string): LineColumn<DocumentAllowanceChargeValue>[] {
  return [
    ...allowanceChargeColumns<DocumentAllowanceChargeValue>(currency),
    ...vatColumns<DocumentAllowanceChargeValue>(),
  ];
}

const newDiscount = (): AllowanceChargeValue => ({ type: 'allowance|95', amount: '', reason: '' });
const newSurcharge = (): AllowanceChargeValue => ({ type: 'charge|', amount: '', reason: '' });

/**
 * A line's discounts and surcharges, in the panel under its row (BG-27/BG-28): they change the line's
 * net. Read-only, the same panel lists them.
 */
export function lineAllowanceChargeDetails<T extends FieldValues>(
  form: UseFormReturn<T>,
  name: string,
  currency: string,
  readOnly = false,
): LineDetails<InvoiceLineValue> {
  const columns = allowanceChargeColumns<AllowanceChargeValue>(currency);
  return {
    label: 'discounts and surcharges',
    fields: ['allowanceCharges'],
    render: (index) => (
      <LineItemsEditor<T, AllowanceChargeValue>
        form={form}
        name={`${name}.${index}.allowanceCharges` as never}
        columns={columns}
        newLine={(previous) => (previous?.type.startsWith('charge') ? newSurcharge() : newDiscount())}
        addActions={[
          { label: 'Add discount', line: newDiscount, testId: `add-line-discount-${index}` },
          { label: 'Add surcharge', line: newSurcharge, testId: `add-line-surcharge-${index}` },
        ]}
        readOnly={readOnly}
        itemName="line-adjustment"
        emptyTitle="No discount or surcharge on this line"
        emptyHint="A discount lowers the line's net, a surcharge raises it; both are printed under the line."
        testId={`line-${index}-allowances`}
      />
    ),
  };
}

/** The discounts and surcharges on the whole invoice (BG-20/BG-21), each in a VAT group of the lines. */
export function DocumentAllowanceCharges<T extends FieldValues>({
  form,
  currency,
  vatOfNew,
  readOnly = false,
  footer,
}: {
  form: UseFormReturn<T>;
  currency: string;
  /** The VAT a new one starts with: the first line's. */
  vatOfNew: () => { vatCode: string; vatRate: string };
  readOnly?: boolean;
  footer?: ReactNode;
}) {
  const columns = documentAllowanceChargeColumns(currency);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        Discounts and surcharges on the whole invoice
      </Text>
      <LineItemsEditor<T, DocumentAllowanceChargeValue>
        form={form}
        name={'allowanceCharges' as never}
        columns={columns}
        newLine={(previous: DocumentAllowanceChargeValue | undefined): DocumentAllowanceChargeValue => ({
          ...(previous?.type.startsWith('charge') ? newSurcharge() : newDiscount()),
          ...vatOfNew(),
        })}
        addActions={[
          {
            label: 'Add discount',
            line: () => ({ ...newDiscount(), ...vatOfNew() }),
            testId: 'add-document-discount',
          },
          {
            label: 'Add surcharge',
            line: () => ({ ...newSurcharge(), ...vatOfNew() }),
            testId: 'add-document-surcharge',
          },
        ]}
        readOnly={readOnly}
        itemName="adjustment"
        emptyTitle="None"
        emptyHint="A discount or surcharge on the whole invoice lowers or raises the total excl. VAT."
        footer={footer}
        testId="document-allowances"
      />
    </Stack>
  );
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
  totals: Pick<DocumentTotals, 'vatGroups' | 'lineExtensionAmount' | 'vatTotal' | 'taxInclusiveAmount'> &
    Partial<Pick<DocumentTotals, 'taxExclusiveAmount'>>;
  /** The document's discounts and surcharges, each shown between the lines' sum and the total excl. VAT. */
  allowanceCharges?: readonly DocumentAllowanceCharge[];
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
  allowanceCharges = [],
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
          <Text size="sm">{allowanceCharges.length ? 'Sum of lines' : 'Net'}</Text>
          <Text size="sm" data-testid="total-net">
            {fmt(totals.lineExtensionAmount, currency)}
          </Text>
        </Group>
        {allowanceCharges.length > 0 && (
          <>
            {allowanceCharges.map((ac, i) => (
              <Group
                // biome-ignore lint/suspicious/noArrayIndexKey: the list's order is its identity
                key={i}
                justify="space-between"
                wrap="nowrap"
                data-testid={`total-adjustment-${i}`}
              >
                <Text size="sm" c="dimmed">
                  {ac.isCharge ? 'Surcharge' : 'Discount'}: {allowanceChargeLabel(ac)} (
                  {vatGroupLabel(ac.vatCode, ac.vatRate)})
                </Text>
                <Text size="sm" c="dimmed">
                  {ac.isCharge ? '' : '−'}
                  {fmt(ac.amount, currency)}
                </Text>
              </Group>
            ))}
            <Group justify="space-between">
              <Text size="sm">Net (excl. VAT)</Text>
              <Text size="sm" data-testid="total-excl-vat">
                {fmt(totals.taxExclusiveAmount ?? totals.lineExtensionAmount, currency)}
              </Text>
            </Group>
          </>
        )}
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
