import {
  BASE_CURRENCY,
  chargeLinesSchema,
  chargeUnits,
  type Dossier,
  multiplyDecimal,
  SALES_UNIT_LABELS,
  type SalesUnit,
  subtractDecimal,
  sumDecimal,
  trimDecimal,
} from '@fvg/contracts';
import { Group, Text } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { CHARGE_CODE_OPTIONS } from '../../../components/records/charge-vocabulary.ts';
import {
  type LineAddAction,
  type LineColumn,
  LineItemsEditor,
  type LineTotal,
} from '../../../components/records/line-items-editor.tsx';
import { type KeepsForm, RecordForm, useRecordForm } from '../../../components/records/record-form.tsx';
import type { LookupOption, LookupSource } from '../../../components/records/record-select.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useSaveCharges } from '../api/dossiers-api.ts';
import { DOSSIER_FIELD_LABELS } from './dossier-meta.ts';

export interface ChargeFormValue extends Record<string, unknown> {
  kind: 'cost' | 'revenue';
  chargeCode: string;
  description: string;
  partyId: string;
  amount: string;
  currency: string;
  exchangeRate: string;
  /**
   * The units of a charge priced per unit (a line of an accepted offer), sent back as they came: the
   * server keeps them while quantity × unit price is still the amount, else the charge is a lump sum.
   */
  quantity: string | null;
  unit: SalesUnit | null;
  unitPrice: string | null;
}

interface ChargesFormValues {
  charges: ChargeFormValue[];
}

const KIND_OPTIONS = [
  { value: 'cost', label: 'Cost' },
  { value: 'revenue', label: 'Revenue' },
];

const DECIMAL = /^-?\d{1,12}(\.\d+)?$/;
const eur = (amount: string) => formatMoney(amount as `${number}`, { currency: BASE_CURRENCY });

/** A line in the base currency, or null while its amount or rate is not a number yet. */
export function baseAmountOf(line: Pick<ChargeFormValue, 'amount' | 'exchangeRate'>): string | null {
  const amount = line.amount.trim();
  const rate = line.exchangeRate.trim() || '1';
  if (!DECIMAL.test(amount) || !DECIMAL.test(rate)) return null;
  return multiplyDecimal(amount, rate, 2);
}

/** Cost, revenue and profit in the base currency, exactly (decimal strings, never floats). */
export function chargeTotals(lines: readonly Pick<ChargeFormValue, 'kind' | 'amount' | 'exchangeRate'>[]) {
  const base = (kind: string) => lines.filter((l) => l.kind === kind).flatMap((l) => baseAmountOf(l) ?? []);
  const cost = sumDecimal(base('cost'));
  const revenue = sumDecimal(base('revenue'));
  return { cost, revenue, profit: subtractDecimal(revenue, cost) };
}

const newLine = (kind: ChargeFormValue['kind']): ChargeFormValue => ({
  kind,
  chargeCode: '',
  description: '',
  partyId: '',
  amount: '',
  currency: BASE_CURRENCY,
  exchangeRate: '1',
  quantity: null,
  unit: null,
  unitPrice: null,
});

function valuesOf(dossier: Dossier): ChargesFormValues {
  return {
    charges: dossier.charges.map((c) => ({
      kind: c.kind,
      chargeCode: c.chargeCode,
      description: c.description,
      partyId: c.party?.id ?? '',
      amount: c.amount,
      currency: c.currency,
      exchangeRate: c.exchangeRate,
      quantity: c.quantity,
      unit: c.unit,
      unitPrice: c.unitPrice,
    })),
  };
}

/** "2 × container at 215.00" for a charge priced per unit, while its amount is still what they make. */
export function unitsOf(line: ChargeFormValue): string | null {
  const units = chargeUnits(line);
  if (!units) return null;
  return `${trimDecimal(units.quantity)} × ${SALES_UNIT_LABELS[units.unit]} at ${formatMoney(units.unitPrice as `${number}`, { currency: line.currency })}`;
}

const chargesInput = (values: ChargesFormValues) => ({
  charges: values.charges.map((c) => ({ ...c, partyId: c.partyId === '' ? null : c.partyId })),
});
const chargesSchema = chargeLinesSchema;

function Totals({ cost, revenue, profit }: { cost: string; revenue: string; profit: string }) {
  return (
    <Group gap="lg" justify="flex-end" data-testid="charges-totals">
      <Text size="sm" c="dimmed">
        In {BASE_CURRENCY}
      </Text>
      <Text size="sm">
        Cost{' '}
        <Text span fw={600} data-testid="charges-total-cost">
          {eur(cost)}
        </Text>
      </Text>
      <Text size="sm">
        Revenue{' '}
        <Text span fw={600} data-testid="charges-total-revenue">
          {eur(revenue)}
        </Text>
      </Text>
      <Text size="sm">
        Profit{' '}
        <Text span fw={700} c={profit.startsWith('-') ? 'red' : 'green'} data-testid="charges-profit">
          {eur(profit)}
        </Text>
      </Text>
    </Group>
  );
}

/** The amount column's scale: charges are numeric(16, 2), so a BHD amount keeps 2 decimals here. */
const CHARGE_AMOUNT_DECIMALS = 2;
/** Exchange rates are numeric(18, 6). */
const RATE_DECIMALS = 6;

/**
 * The job-costing lines as columns of the shared line editor. All of job costing is internal (ADR
 * 0018): the tab is staff-only, and the columns say so for the day a customer-facing screen reuses them.
 */
export function chargeColumns(
  partyLookup: LookupSource,
  partyName: (id: string) => LookupOption | null,
): LineColumn<ChargeFormValue>[] {
  return [
    { field: 'kind', label: 'Kind', kind: 'select', options: KIND_OPTIONS, width: 112, required: true },
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
      flex: 1.7,
      minWidth: 170,
      maxLength: 200,
      required: true,
    },
    {
      field: 'partyId',
      label: 'Party',
      kind: 'lookup',
      source: partyLookup,
      knownOption: (line) => (line.partyId ? partyName(line.partyId) : null),
      flex: 1.5,
      minWidth: 160,
    },
    {
      field: 'amount',
      label: 'Amount',
      kind: 'money',
      currency: (line) => line.currency,
      maxDecimals: CHARGE_AMOUNT_DECIMALS,
      width: 136,
      wrapBefore: true,
      placeholder: '0.00',
      required: true,
      internal: true,
    },
    { field: 'currency', label: 'Currency', kind: 'code', width: 76, maxLength: 3, required: true },
    {
      field: 'exchangeRate',
      label: 'Rate',
      kind: 'quantity',
      decimals: RATE_DECIMALS,
      width: 96,
      internal: true,
    },
    {
      field: 'baseAmount',
      label: BASE_CURRENCY,
      kind: 'computed',
      value: (line) => {
        const base = baseAmountOf(line);
        return base === null ? '—' : eur(base);
      },
      width: 112,
      internal: true,
    },
    {
      field: 'units',
      label: 'Priced',
      kind: 'computed',
      // Per unit while the amount is what the units make (from an offer); a changed amount is a lump sum.
      value: (line) => unitsOf(line) ?? 'Lump sum',
      flex: 1,
      minWidth: 150,
    },
  ];
}

const CHARGE_TOTALS: LineTotal<ChargeFormValue>[] = [
  {
    label: 'Cost',
    amount: (line) => (line.kind === 'cost' ? line.amount : null),
    currency: (line) => line.currency,
    internal: true,
  },
  {
    label: 'Revenue',
    amount: (line) => (line.kind === 'revenue' ? line.amount : null),
    currency: (line) => line.currency,
    internal: true,
  },
];

/** Enter after a line adds one like it: same kind, currency and rate. */
const nextLine = (previous: ChargeFormValue | undefined): ChargeFormValue =>
  previous
    ? { ...newLine(previous.kind), currency: previous.currency, exchangeRate: previous.exchangeRate }
    : newLine('cost');

const ADD_ACTIONS: LineAddAction<ChargeFormValue>[] = [
  {
    label: 'Add cost',
    line: () => newLine('cost'),
    testId: 'add-cost',
    color: 'orange',
    icon: <IconMinus size={14} aria-hidden />,
  },
  {
    label: 'Add revenue',
    line: () => newLine('revenue'),
    testId: 'add-revenue',
    color: 'teal',
    icon: <IconPlus size={14} aria-hidden />,
  },
];

const EMPTY_HINT = 'Add the costs (carrier, terminal, customs…) and the revenue billed to the customer.';

/** Names of the parties the saved lines already carry, so their cells need no lookup request. */
function usePartyNames(dossier: Dossier) {
  return useMemo(() => {
    const names = new Map<string, LookupOption>();
    for (const c of dossier.charges)
      if (c.party) names.set(c.party.id, { value: c.party.id, label: `${c.party.name} (${c.party.code})` });
    return (id: string) => names.get(id) ?? null;
  }, [dossier.charges]);
}

const NO_LOOKUP: LookupSource = {
  key: ['charges-view-no-lookup'],
  search: async () => [],
  byId: async () => null,
};

/** The job costing read-only (a cancelled dossier): the same lines and totals as the editor, as text. */
export function ChargesView({ dossier }: { dossier: Dossier }) {
  const form = useForm<ChargesFormValues>({ defaultValues: valuesOf(dossier) });
  const partyName = usePartyNames(dossier);
  return (
    <div data-testid="charges-view">
      <LineItemsEditor
        form={form}
        name="charges"
        columns={chargeColumns(NO_LOOKUP, partyName)}
        newLine={nextLine}
        totals={CHARGE_TOTALS}
        readOnly
        itemName="charge"
        emptyTitle="No charges recorded."
        footer={
          <Totals
            cost={dossier.costTotal ?? '0'}
            revenue={dossier.revenueTotal ?? '0'}
            profit={subtractDecimal(dossier.revenueTotal ?? '0', dossier.costTotal ?? '0')}
          />
        }
        testId="charges-lines"
      />
    </div>
  );
}

export interface ChargesEditorProps {
  dossier: Dossier;
  dossierKey: string;
  partyLookup: LookupSource;
  reload: () => Promise<Dossier | undefined>;
  /** Navigations that keep the editor on screen. */
  keepsForm?: KeepsForm;
}

/**
 * Staff edit the job costing as lines (kind, code, description, party, amount, currency, rate) in the
 * shared line editor; totals follow as they type, per currency and in the base currency. Saving
 * replaces all lines at once (PUT), with the dossier's version.
 */
export function ChargesEditor({ dossier, dossierKey, partyLookup, reload, keepsForm }: ChargesEditorProps) {
  const save = useSaveCharges(dossierKey);
  const charges = useRecordForm({
    record: dossier,
    valuesOf,
    schema: chargesSchema,
    toInput: chargesInput,
    keepsForm,
    reload,
    inPlace: true,
    // Saving replaces all lines at once (PUT), with the version the form started from.
    update: (body, { record, version }) => save.mutateAsync({ id: record.id, body: { ...body, version } }),
  });
  const { form } = charges;
  const watched = useWatch({ control: form.control, name: 'charges' }) ?? [];
  const totals = chargeTotals(watched);
  const partyName = usePartyNames(dossier);
  const columns = useMemo(() => chargeColumns(partyLookup, partyName), [partyLookup, partyName]);

  return (
    <RecordForm
      of={charges}
      submitLabel="Save charges"
      label={`Charges of dossier ${dossier.number}`}
      testId="charges-form"
      fieldLabels={DOSSIER_FIELD_LABELS}
    >
      <LineItemsEditor
        form={form}
        name="charges"
        columns={columns}
        newLine={nextLine}
        addActions={ADD_ACTIONS}
        totals={CHARGE_TOTALS}
        footer={<Totals {...totals} />}
        itemName="charge"
        emptyTitle="No charges yet"
        emptyHint={EMPTY_HINT}
        testId="charges-lines"
      />
    </RecordForm>
  );
}
