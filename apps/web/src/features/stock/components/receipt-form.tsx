import {
  HANDLING_UNIT_KIND_LABELS,
  type HandlingUnitInput,
  isNonUnion,
  normalizeLocation,
  normalizeSscc,
  type StockReceipt,
  type StockReceiptCreate,
  type StockUnit,
  stockReceiptCreateSchema,
} from '@fvg/contracts';
import { ActionIcon, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useMemo } from 'react';
import { type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form';
import {
  CustomerField,
  DateField,
  LookupField,
  type LookupSource,
  RecordForm,
  type RecordFormWiring,
  SelectField,
  SwitchField,
  TextareaField,
  TextField,
  useRecordForm,
} from '../../../components/records/form.ts';
import { type LineColumn, LineItemsEditor } from '../../../components/records/line-items-editor.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { todayIso } from '../../../lib/format-date.ts';
import { entryDeclarationLookup } from '../api/entry-declarations.ts';
import { useCreateReceipt } from '../api/stock-api.ts';
import {
  CUSTOMS_STATUS_OPTIONS,
  formatQuantity,
  STOCK_FIELD_LABELS as L,
  STOCK_UNIT_OPTIONS,
} from '../api/stock-meta.ts';

/** A pallet as typed: its SSCC (generated when empty), quantity, and optionally n cartons of m each. */
export type PalletValues = {
  sscc: string;
  quantity: string;
  cartons: string;
  cartonQuantity: string;
};

export type ReceiptLineValues = {
  sku: string;
  description: string;
  commodityCode: string;
  countryOfOrigin: string;
  unit: StockUnit;
  quantity: string;
  location: string;
  grossMassKg: string;
  netMassKg: string;
  value: string;
  currency: string;
  handlingUnits: PalletValues[];
};

export interface ReceiptFormValues {
  ownerId: string;
  receivedOn: string;
  customsStatus: string;
  inboundMrn: string;
  /** The MRN is another declarant's entry, lodged outside this system. */
  inboundMrnExternal: boolean;
  entryDeclarationId: string;
  notes: string;
  lines: ReceiptLineValues[];
}

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());
/** '' → undefined (the contract says "required"), digits → the number, anything else stays text (its message). */
const whole = (s: string): number | undefined => {
  const t = s.trim();
  if (t === '') return undefined;
  return /^-?\d+$/.test(t) ? Number(t) : (t as unknown as number);
};

/** The pallet's units: the pallet, holding `cartons` cartons of `cartonQuantity` each when given. */
export function palletInput(p: PalletValues): HandlingUnitInput {
  const cartons = whole(p.cartons);
  const each = whole(p.cartonQuantity);
  const unit: HandlingUnitInput = {
    kind: 'pallet',
    sscc: orNull(p.sscc),
    quantity: whole(p.quantity) as number,
  };
  if (typeof cartons === 'number' && cartons > 0)
    unit.children = Array.from({ length: Math.min(cartons, 500) }, () => ({
      kind: 'carton' as const,
      quantity: each as number,
    }));
  return unit;
}

/** What the API takes: numbers as numbers, empty text as null, pallets as nested units. */
export function receiptInput(values: ReceiptFormValues): StockReceiptCreate {
  return {
    ownerId: values.ownerId,
    receivedOn: values.receivedOn,
    customsStatus: values.customsStatus as StockReceiptCreate['customsStatus'],
    inboundMrn: orNull(values.inboundMrn),
    // Only a typed MRN without a linked declaration can be another declarant's.
    ...(values.inboundMrnExternal && !orNull(values.entryDeclarationId) && orNull(values.inboundMrn)
      ? { inboundMrnExternal: true }
      : {}),
    entryDeclarationId: orNull(values.entryDeclarationId),
    notes: orNull(values.notes),
    lines: values.lines.map((l) => ({
      sku: l.sku.trim(),
      description: l.description.trim(),
      commodityCode: orNull(l.commodityCode),
      countryOfOrigin: orNull(l.countryOfOrigin),
      unit: l.unit,
      quantity: whole(l.quantity) as number,
      location: l.location,
      grossMassKg: orNull(l.grossMassKg),
      netMassKg: orNull(l.netMassKg),
      value: orNull(l.value),
      currency: orNull(l.currency),
      ...(l.handlingUnits.length ? { handlingUnits: l.handlingUnits.map(palletInput) } : {}),
    })),
  };
}

export const newPallet = (): PalletValues => ({ sscc: '', quantity: '', cartons: '', cartonQuantity: '' });
export const newReceiptLine = (previous?: ReceiptLineValues): ReceiptLineValues => ({
  sku: '',
  description: '',
  commodityCode: '',
  countryOfOrigin: previous?.countryOfOrigin ?? '',
  unit: previous?.unit ?? 'H87',
  quantity: '',
  location: previous?.location ?? '',
  grossMassKg: '',
  netMassKg: '',
  value: '',
  currency: previous?.currency ?? 'EUR',
  handlingUnits: [],
});

const columns: LineColumn<ReceiptLineValues>[] = [
  { field: 'sku', label: L.sku as string, kind: 'code', maxLength: 40, width: 130, required: true },
  {
    field: 'description',
    label: L.description as string,
    kind: 'text',
    flex: 2,
    minWidth: 180,
    required: true,
  },
  { field: 'unit', label: L.unit as string, kind: 'select', options: STOCK_UNIT_OPTIONS, width: 140 },
  {
    field: 'quantity',
    label: L.quantity as string,
    kind: 'quantity',
    decimals: 0,
    width: 100,
    required: true,
  },
  {
    field: 'location',
    label: L.location as string,
    kind: 'code',
    maxLength: 40,
    transform: normalizeLocation,
    width: 150,
    required: true,
    placeholder: 'RTM1-A-03-02',
  },
  {
    field: 'handlingUnits',
    label: 'Pallets',
    kind: 'computed',
    width: 80,
    value: (line) => (line.handlingUnits.length ? formatNumber(line.handlingUnits.length) : '—'),
  },
];

/** A line's further fields: origin, commodity code, masses, value, and its pallets. */
function LineDetails({ form, index }: { form: UseFormReturn<ReceiptFormValues>; index: number }) {
  const at = <F extends string>(f: F) => `lines.${index}.${f}` as const;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, md: 6 }} spacing="sm">
        <TextField form={form} name={at('commodityCode')} label={L.commodityCode} maxLength={20} />
        <TextField
          form={form}
          name={at('countryOfOrigin')}
          label={L.countryOfOrigin}
          maxLength={2}
          placeholder="CN"
          transform={(v) => v.toUpperCase()}
        />
        <TextField form={form} name={at('grossMassKg')} label={L.grossMassKg} inputMode="decimal" />
        <TextField form={form} name={at('netMassKg')} label={L.netMassKg} inputMode="decimal" />
        <TextField form={form} name={at('value')} label={L.value} inputMode="decimal" />
        <TextField
          form={form}
          name={at('currency')}
          label={L.currency}
          maxLength={3}
          transform={(v) => v.toUpperCase()}
        />
      </SimpleGrid>
      <PalletsEditor form={form} index={index} />
    </Stack>
  );
}

/** The pallets of one line; each may hold n cartons of the same quantity. */
export function PalletsEditor({ form, index }: { form: UseFormReturn<ReceiptFormValues>; index: number }) {
  const pallets = useFieldArray({ control: form.control, name: `lines.${index}.handlingUnits` });
  const watched = useWatch({ control: form.control, name: `lines.${index}` });
  const unit = watched?.unit ?? 'H87';
  const lineQuantity = whole(watched?.quantity ?? '');
  const held = (watched?.handlingUnits ?? []).reduce((sum, p) => {
    const q = whole(p.quantity);
    return sum + (typeof q === 'number' ? q : 0);
  }, 0);
  const balanced = typeof lineQuantity === 'number' && held === lineQuantity;
  // The sums span fields: once the form was sent, changing one pallet re-checks the line and every
  // pallet, so a message about an unequal sum goes as soon as the sum agrees.
  const sums = JSON.stringify([
    watched?.quantity,
    (watched?.handlingUnits ?? []).map((p) => [p.quantity, p.cartons, p.cartonQuantity]),
  ]);
  const { isSubmitted } = form.formState;
  useEffect(() => {
    if (!isSubmitted || sums === '') return;
    const count = form.getValues(`lines.${index}.handlingUnits`).length;
    void form.trigger([
      `lines.${index}.quantity`,
      ...Array.from({ length: count }, (_, j) => `lines.${index}.handlingUnits.${j}.quantity` as const),
    ]);
  }, [sums, isSubmitted, form, index]);
  return (
    <Stack gap={6} data-testid={`pallets-${index + 1}`}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={500}>
          Pallets
        </Text>
        {pallets.fields.length > 0 && (
          <Text size="sm" c={balanced ? 'dimmed' : 'orange'} data-testid={`pallets-sum-${index + 1}`}>
            The pallets hold {formatQuantity(held, unit)}
            {typeof lineQuantity === 'number' ? ` of ${formatQuantity(lineQuantity, unit)}` : ''}
          </Text>
        )}
      </Group>
      {pallets.fields.map((field, j) => {
        const at = <F extends keyof PalletValues>(f: F) => `lines.${index}.handlingUnits.${j}.${f}` as const;
        return (
          <Group
            key={field.id}
            gap="sm"
            align="flex-start"
            wrap="wrap"
            data-testid={`pallet-${index + 1}-${j + 1}`}
          >
            <TextField
              form={form}
              name={at('sscc')}
              label={`${HANDLING_UNIT_KIND_LABELS.pallet} ${j + 1} · SSCC`}
              placeholder="Generated when empty"
              maxLength={22}
              transform={(v) => v.replace(/[^\d() ]/g, '')}
              format={normalizeSscc}
              w={230}
            />
            <TextField
              form={form}
              name={at('quantity')}
              label={L.quantity}
              inputMode="numeric"
              w={110}
              required
            />
            <TextField
              form={form}
              name={at('cartons')}
              label="Cartons"
              inputMode="numeric"
              w={100}
              hint="Optional"
            />
            <TextField
              form={form}
              name={at('cartonQuantity')}
              label="Each holds"
              inputMode="numeric"
              w={110}
              disabled={!watched?.handlingUnits?.[j]?.cartons}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mt={26}
              aria-label={`Remove pallet ${j + 1} of line ${index + 1}`}
              onClick={() => pallets.remove(j)}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        );
      })}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => {
            // A first pallet takes what the line holds; later ones start empty.
            const rest = typeof lineQuantity === 'number' ? lineQuantity - held : 0;
            pallets.append({ ...newPallet(), quantity: rest > 0 ? String(rest) : '' });
          }}
          data-testid={`add-pallet-${index + 1}`}
        >
          Add pallet
        </Button>
      </Group>
    </Stack>
  );
}

export interface ReceiptFormProps extends RecordFormWiring<StockReceipt> {
  ownerLookup: LookupSource;
  onSaved: (receipt: StockReceipt) => void;
  onCancel: () => void;
  /** Tests: the entry declarations' picker (defaults to the owner's H2 import declarations). */
  entryLookup?: (ownerId: string) => LookupSource;
}

/**
 * "Receive goods": who owns them, when they arrived, under which customs status and entry, then the
 * lines with their pallets (and cartons). The contract checks the sums as you type once saved once;
 * the server's problems land on their fields (`lines.0.handlingUnits.1.sscc`).
 */
export function ReceiptForm({
  ownerLookup,
  entryLookup = entryDeclarationLookup,
  ...wiring
}: ReceiptFormProps) {
  const receipt = useRecordForm({
    ...wiring,
    empty: (): ReceiptFormValues => ({
      ownerId: '',
      receivedOn: todayIso(),
      customsStatus: 'non_union_customs_warehousing',
      inboundMrn: '',
      inboundMrnExternal: false,
      entryDeclarationId: '',
      notes: '',
      lines: [newReceiptLine()],
    }),
    schema: stockReceiptCreateSchema,
    toInput: receiptInput,
    labels: L,
    body: receiptInput,
    mutations: { create: useCreateReceipt() },
  });
  const { form } = receipt;
  const ownerId = useWatch({ control: form.control, name: 'ownerId' });
  const customsStatus = useWatch({ control: form.control, name: 'customsStatus' });
  const entryDeclarationId = useWatch({ control: form.control, name: 'entryDeclarationId' });
  const entrySource = useMemo(() => entryLookup(ownerId), [entryLookup, ownerId]);
  const nonUnion = customsStatus !== '' && isNonUnion(customsStatus as 'union');

  return (
    <RecordForm of={receipt} submitLabel="Receive goods" label="Receive goods" testId="receipt-form">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <CustomerField form={form} name="ownerId" label={L.ownerId} source={ownerLookup} />
          <DateField form={form} name="receivedOn" label={L.receivedOn} required />
          <SelectField
            form={form}
            name="customsStatus"
            label={L.customsStatus}
            data={CUSTOMS_STATUS_OPTIONS}
            allowDeselect={false}
            required
          />
        </SimpleGrid>
        {nonUnion && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextField
              form={form}
              name="inboundMrn"
              label={L.inboundMrn}
              maxLength={18}
              transform={(v) => v.toUpperCase().replace(/\s/g, '')}
              hint="The MRN the goods entered under, or pick the entry declaration"
            />
            <LookupField
              form={form}
              name="entryDeclarationId"
              label={L.entryDeclarationId}
              source={entrySource}
              placeholder={ownerId ? "The owner's H2 import declarations" : 'Pick the owner first'}
              disabled={!ownerId}
              clearable
            />
          </SimpleGrid>
        )}
        {customsStatus === 'non_union_customs_warehousing' && !entryDeclarationId && (
          <SwitchField
            form={form}
            name="inboundMrnExternal"
            variant="checkbox"
            label={L.inboundMrnExternal}
            description="Goods enter customs warehousing under their owner's released H2 declaration. Tick this only when another declarant lodged the entry outside this system; an MRN of one of our own declarations is always checked as ours."
          />
        )}
        <LineItemsEditor<ReceiptFormValues, ReceiptLineValues>
          form={form}
          name="lines"
          columns={columns}
          newLine={newReceiptLine}
          itemName="line"
          emptyTitle="No lines yet"
          emptyHint="Each line is one article: its quantity, location and pallets."
          addActions={[{ label: 'Add line', line: () => newReceiptLine(form.getValues('lines').at(-1)) }]}
          details={{
            label: 'pallets and details',
            fields: [
              'commodityCode',
              'countryOfOrigin',
              'grossMassKg',
              'netMassKg',
              'value',
              'currency',
              'handlingUnits',
            ],
            render: (index) => <LineDetails form={form} index={index} />,
          }}
          testId="receipt-lines"
        />
        <TextareaField form={form} name="notes" label={L.notes} maxLength={2000} />
      </Stack>
    </RecordForm>
  );
}
