import {
  BASE_CURRENCY,
  type OfferTotal,
  offerLineNet,
  offerTotals,
  type SalesOffer,
  VAT_CODES,
  type VatCode,
  vatForCode,
} from '@fvg/contracts';
import { Group, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { type FieldPath, type FieldValues, type UseFormReturn, useForm, useWatch } from 'react-hook-form';
import { type LineColumn, LineItemsEditor } from '../../../components/records/line-items-editor.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { CHARGE_CODE_OPTIONS, UNIT_OPTIONS, VAT_CODE_OPTIONS } from './offer-meta.ts';

/** One offer line as its inputs hold it: text throughout ('' for empty). */
export interface OfferLineFormValue extends Record<string, unknown> {
  chargeCode: string;
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  currency: string;
  exchangeRate: string;
  vatCode: string;
  vatRate: string;
  /** The server's line net of a saved line (read-only views); the editor computes its own. */
  lineNet?: string;
}

const DECIMAL = /^-?\d{1,14}(\.\d{1,6})?$/;
const CURRENCY = /^[A-Z]{3}$/;

/** quantity × unit price as the server rounds it (2 decimals, half away from zero), or null while either is not a number. */
export function lineNetOf(line: Pick<OfferLineFormValue, 'quantity' | 'unitPrice'>): string | null {
  const quantity = line.quantity.trim();
  const price = line.unitPrice.trim();
  if (!DECIMAL.test(quantity) || !DECIMAL.test(price)) return null;
  return offerLineNet(quantity, price);
}

/** The VAT rate a line sends: none outside the scope of VAT, 0 % for Z, E and AE when left empty. */
export function vatRateOf(line: Pick<OfferLineFormValue, 'vatCode' | 'vatRate'>): string | null {
  const rate = line.vatRate.trim();
  if (line.vatCode === 'O') return null;
  if (rate === '' && line.vatCode !== 'S') return '0';
  return rate === '' ? null : rate;
}

/**
 * Net, VAT and total per currency of the lines as they stand, computed the server's way (contracts'
 * offerTotals); lines still being typed are left out until they read.
 */
export function liveOfferTotals(lines: readonly OfferLineFormValue[]): OfferTotal[] {
  const ready = lines.flatMap((line) => {
    const vatRate = vatRateOf(line);
    const currency = line.currency.trim().toUpperCase();
    if (
      lineNetOf(line) === null ||
      !CURRENCY.test(currency) ||
      !(VAT_CODES as readonly string[]).includes(line.vatCode) ||
      (vatRate !== null && !DECIMAL.test(vatRate))
    )
      return [];
    return [
      {
        quantity: line.quantity.trim(),
        unitPrice: line.unitPrice.trim(),
        currency,
        vatCode: line.vatCode as VatCode,
        vatRate,
      },
    ];
  });
  return offerTotals(ready);
}

/** A first line: one unit of freight in the base currency, with the VAT the screen suggests. */
export function newOfferLine(
  previous: OfferLineFormValue | undefined,
  vat: { vatCode: VatCode; vatRate: string | null } | null = null,
): OfferLineFormValue {
  return {
    chargeCode: previous ? '' : 'FREIGHT',
    description: '',
    quantity: '1',
    unit: previous?.unit ?? 'C62',
    unitPrice: '',
    currency: previous?.currency ?? BASE_CURRENCY,
    // A rate typed for another currency carries to the next line in that currency.
    exchangeRate: previous?.exchangeRate ?? '1',
    vatCode: previous?.vatCode ?? vat?.vatCode ?? 'S',
    vatRate: previous?.vatRate ?? vat?.vatRate ?? '',
  };
}

/** The saved lines as the editor holds them. */
export function offerLineValues(offer: Pick<SalesOffer, 'lines'>): OfferLineFormValue[] {
  return offer.lines.map((l) => ({
    chargeCode: l.chargeCode,
    description: l.description,
    quantity: l.quantity,
    unit: l.unit,
    unitPrice: l.unitPrice,
    currency: l.currency,
    exchangeRate: l.exchangeRate,
    vatCode: l.vatCode,
    vatRate: l.vatRate ?? '',
    lineNet: l.lineNet,
  }));
}

/** Unit prices are numeric(16, 4), capped by the currency's own decimals (EUR 2, JPY 0). */
const PRICE_DECIMALS = 4;
const QUANTITY_DECIMALS = 3;
const RATE_DECIMALS = 6;
const VAT_RATE_DECIMALS = 2;

const money = (amount: string, currency: string) => formatMoney(amount as `${number}`, { currency });

/**
 * The offer's lines as columns of the shared line editor. The exchange rate only turns the lines into
 * the dossier's base-currency revenue on acceptance: it is internal, customers see prices and VAT.
 */
export const OFFER_LINE_COLUMNS: readonly LineColumn<OfferLineFormValue>[] = [
  {
    field: 'chargeCode',
    label: 'Charge',
    kind: 'select',
    options: CHARGE_CODE_OPTIONS,
    width: 240,
    required: true,
  },
  {
    field: 'description',
    label: 'Description',
    kind: 'text',
    multiline: true,
    flex: 1,
    minWidth: 180,
    maxLength: 200,
    required: true,
  },
  {
    field: 'quantity',
    label: 'Quantity',
    kind: 'quantity',
    decimals: QUANTITY_DECIMALS,
    width: 84,
    required: true,
  },
  { field: 'unit', label: 'Unit', kind: 'select', options: UNIT_OPTIONS, width: 120, required: true },
  {
    field: 'unitPrice',
    label: 'Unit price',
    kind: 'money',
    currency: (line) => line.currency,
    maxDecimals: PRICE_DECIMALS,
    width: 120,
    wrapBefore: true,
    placeholder: '0.00',
    required: true,
  },
  { field: 'currency', label: 'Currency', kind: 'code', width: 76, maxLength: 3, required: true },
  {
    field: 'exchangeRate',
    label: `Rate to ${BASE_CURRENCY}`,
    kind: 'quantity',
    decimals: RATE_DECIMALS,
    width: 96,
    internal: true,
  },
  { field: 'vatCode', label: 'VAT', kind: 'select', options: VAT_CODE_OPTIONS, width: 220, required: true },
  { field: 'vatRate', label: 'VAT %', kind: 'quantity', decimals: VAT_RATE_DECIMALS, width: 72 },
  {
    field: 'lineNet',
    label: 'Net',
    kind: 'computed',
    width: 116,
    value: (line) => {
      const net = line.lineNet ?? lineNetOf(line);
      return net === null || !CURRENCY.test(line.currency) ? '—' : money(net, line.currency);
    },
  },
];

export interface OfferLinesEditorProps<T extends FieldValues> {
  form: UseFormReturn<T>;
  /** A new line's VAT (from the dossier type and the customer), when known. */
  defaultVat?: { vatCode: VatCode; vatRate: string | null } | null;
  /** The company's country: picking S fills its standard rate. */
  sellerCountry?: string | null;
}

/**
 * What follows a user's change of a line: another VAT code brings its rate (S: the seller country's
 * standard rate, O: none, the others 0 %), another currency its exchange rate (1 for the base
 * currency, to be typed for any other, so a rate of 1 never carries over to dollars unnoticed). Only a
 * user's change does this: a reset to a saved or reloaded offer keeps what it has.
 */
function useLineDefaults<T extends FieldValues>(form: UseFormReturn<T>, sellerCountry: string | null) {
  useEffect(() => {
    const subscription = form.watch((values, { name, type }) => {
      const match = /^lines\.(\d+)\.(vatCode|currency)$/.exec(name ?? '');
      if (!match || type !== 'change') return;
      const [, index, field] = match;
      const line = (values as { lines?: Partial<OfferLineFormValue>[] }).lines?.[Number(index)];
      const set = (key: 'vatRate' | 'exchangeRate', value: string) =>
        form.setValue(`lines.${index}.${key}` as FieldPath<T>, value as never, { shouldDirty: true });
      if (field === 'vatCode') {
        const code = line?.vatCode;
        if (code && (VAT_CODES as readonly string[]).includes(code))
          set('vatRate', vatForCode(code as VatCode, sellerCountry ?? '').vatRate ?? '');
      } else {
        const currency = line?.currency ?? '';
        if (currency === BASE_CURRENCY) set('exchangeRate', '1');
        else if (CURRENCY.test(currency)) set('exchangeRate', '');
      }
    });
    return () => subscription.unsubscribe();
  }, [form, sellerCountry]);
}

/** The draft's lines in the shared editor, bound to the offer form's `lines`. */
export function OfferLinesEditor<T extends FieldValues>({
  form,
  defaultVat = null,
  sellerCountry = null,
}: OfferLinesEditorProps<T>) {
  useLineDefaults(form, sellerCountry);
  return (
    <LineItemsEditor<T, OfferLineFormValue>
      form={form}
      name={'lines' as never}
      columns={OFFER_LINE_COLUMNS}
      newLine={(previous) => newOfferLine(previous, defaultVat)}
      footer={<LiveTotals form={form} />}
      itemName="line"
      emptyTitle="No lines yet"
      emptyHint="Add what the customer pays for: freight, terminal handling, customs clearance…"
      testId="offer-lines"
    />
  );
}

function LiveTotals<T extends FieldValues>({ form }: { form: UseFormReturn<T> }) {
  const lines = (useWatch({ control: form.control, name: 'lines' as FieldPath<T> }) ??
    []) as OfferLineFormValue[];
  return <OfferTotals totals={liveOfferTotals(lines)} />;
}

/** Totals per currency: net, VAT and gross. */
export function OfferTotals({ totals }: { totals: readonly OfferTotal[] }) {
  if (totals.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="offer-totals">
        Total —
      </Text>
    );
  return (
    <Stack gap={2} align="flex-end" data-testid="offer-totals">
      {totals.map((t) => (
        <Group key={t.currency} gap="lg" justify="flex-end" data-testid={`offer-total-${t.currency}`}>
          <Text size="sm">
            Net{' '}
            <Text span fw={600}>
              {money(t.net, t.currency)}
            </Text>
          </Text>
          <Text size="sm">
            VAT{' '}
            <Text span fw={600}>
              {money(t.vat, t.currency)}
            </Text>
          </Text>
          <Text size="sm">
            Total{' '}
            <Text span fw={700}>
              {money(t.gross, t.currency)}
            </Text>
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

/** The lines of a sent or decided offer, as text, with the server's totals. */
export function OfferLinesView({ offer, showInternal }: { offer: SalesOffer; showInternal: boolean }) {
  const form = useForm<{ lines: OfferLineFormValue[] }>({ values: { lines: offerLineValues(offer) } });
  return (
    <LineItemsEditor
      form={form}
      name="lines"
      columns={OFFER_LINE_COLUMNS}
      newLine={(previous) => newOfferLine(previous)}
      readOnly
      showInternal={showInternal}
      itemName="line"
      emptyTitle="This offer has no lines."
      footer={<OfferTotals totals={offer.totals} />}
      testId="offer-lines"
    />
  );
}
