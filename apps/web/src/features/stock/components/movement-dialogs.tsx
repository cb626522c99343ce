import {
  formatSscc,
  HANDLING_UNIT_KIND_LABELS,
  type HandlingUnit,
  normalizeLocation,
  type StockMovementCreate,
  type StockRecord,
  stockMovementCreateSchema,
} from '@fvg/contracts';
import { Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useForm } from 'react-hook-form';
import { QuestionModal } from '../../../components/records/confirm-dialog.tsx';
import { SelectField, TextareaField, TextField } from '../../../components/records/form-fields.tsx';
import {
  contractResolver,
  RecordFormShell,
  useRecordSubmit,
} from '../../../components/records/record-form.tsx';
import { usePostMovement } from '../api/stock-api.ts';
import { formatQuantity, STOCK_FIELD_LABELS as L } from '../api/stock-meta.ts';

/** "Pallet (00) 387123450000000017 · RTM1-A-01 · 40 pieces": a unit as a picker names it. */
export function unitLabel(unit: HandlingUnit, record: Pick<StockRecord, 'unit'>): string {
  const name = unit.sscc ? formatSscc(unit.sscc) : (unit.reference ?? `#${unit.position + 1}`);
  return `${HANDLING_UNIT_KIND_LABELS[unit.kind]} ${name} · ${unit.location} · ${formatQuantity(unit.quantity, record.unit)}`;
}

/** Units that hold no others: an adjustment of a record with units names one of these. */
export function leafUnits(units: readonly HandlingUnit[]): HandlingUnit[] {
  const parents = new Set(units.map((u) => u.parentId).filter((id): id is string => id !== null));
  return units.filter((u) => !parents.has(u.id));
}

interface MovementDialogProps {
  record: StockRecord;
  opened: boolean;
  onClose: () => void;
}

interface TransferValues {
  toLocation: string;
  handlingUnitId: string;
}

const transferInput = (record: StockRecord) => (v: TransferValues) => ({
  kind: 'transfer' as const,
  version: record.version,
  toLocation: v.toLocation,
  handlingUnitId: v.handlingUnitId || null,
});

/** Moves the whole record (every unit with it) or one unit and what it holds to another location. */
export function TransferDialog({ record, opened, onClose }: MovementDialogProps) {
  return (
    <QuestionModal
      opened={opened}
      title={`Transfer ${record.sku}`}
      onCancel={onClose}
      testId="transfer-dialog"
    >
      {opened && <TransferForm record={record} onClose={onClose} />}
    </QuestionModal>
  );
}

function TransferForm({ record, onClose }: { record: StockRecord; onClose: () => void }) {
  const toInput = transferInput(record);
  const form = useForm<TransferValues>({
    resolver: contractResolver<TransferValues>(stockMovementCreateSchema, toInput, L),
    defaultValues: { toLocation: '', handlingUnitId: '' },
  });
  const post = usePostMovement(record.id);
  const submit = useRecordSubmit(
    form,
    async (values) => {
      await post.mutateAsync(toInput(values) as StockMovementCreate);
      notifications.show({ color: 'green', message: `Transferred to ${values.toLocation}.` });
      onClose();
    },
    { labels: L },
  );
  const roots = record.handlingUnits.filter((u) => u.parentId === null);
  return (
    <RecordFormShell
      form={form}
      submit={submit}
      submitLabel="Transfer"
      onCancel={onClose}
      label="Transfer"
      testId="transfer-form"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Now at {record.location}
          {record.locationCount > 1 ? ` and ${record.locationCount - 1} more` : ''}.
        </Text>
        {record.handlingUnits.length > 0 && (
          <SelectField
            form={form}
            name="handlingUnitId"
            label={L.handlingUnitId}
            placeholder="All units of the record"
            data={[
              { value: '', label: 'All units of the record' },
              ...roots.map((u) => ({ value: u.id, label: unitLabel(u, record) })),
            ]}
          />
        )}
        <TextField
          form={form}
          name="toLocation"
          label={L.toLocation}
          placeholder="RTM1-A-03-02"
          transform={normalizeLocation}
          maxLength={40}
          required
          data-autofocus
        />
      </Stack>
    </RecordFormShell>
  );
}

interface AdjustValues {
  quantity: string;
  reason: string;
  handlingUnitId: string;
}

const adjustInput = (record: StockRecord) => (v: AdjustValues) => {
  const q = v.quantity.trim().replace(/^\+/, '').replace(/^−/, '-');
  return {
    kind: 'adjustment' as const,
    version: record.version,
    quantity: q === '' ? undefined : /^-?\d+$/.test(q) ? Number(q) : q,
    reason: v.reason.trim(),
    handlingUnitId: v.handlingUnitId || null,
  };
};

/** Counts found more (+) or fewer (−) than on hand, with the reason; with units, on one leaf unit. */
export function AdjustDialog({ record, opened, onClose }: MovementDialogProps) {
  return (
    <QuestionModal opened={opened} title={`Adjust ${record.sku}`} onCancel={onClose} testId="adjust-dialog">
      {opened && <AdjustForm record={record} onClose={onClose} />}
    </QuestionModal>
  );
}

function AdjustForm({ record, onClose }: { record: StockRecord; onClose: () => void }) {
  const toInput = adjustInput(record);
  const leaves = leafUnits(record.handlingUnits);
  const needsUnit = leaves.length > 0;
  const form = useForm<AdjustValues>({
    resolver: async (values, context, options) => {
      const result = await contractResolver<AdjustValues>(stockMovementCreateSchema, toInput, L)(
        values,
        context,
        options,
      );
      if (needsUnit && !values.handlingUnitId)
        return {
          values: {},
          errors: {
            ...result.errors,
            handlingUnitId: { type: 'required', message: 'Choose the unit whose quantity changed' },
          },
        };
      return result;
    },
    defaultValues: {
      quantity: '',
      reason: '',
      handlingUnitId: leaves.length === 1 ? (leaves[0]?.id ?? '') : '',
    },
  });
  const post = usePostMovement(record.id);
  const submit = useRecordSubmit(
    form,
    async (values) => {
      await post.mutateAsync(toInput(values) as StockMovementCreate);
      notifications.show({ color: 'green', message: `${record.sku} adjusted.` });
      onClose();
    },
    { labels: L },
  );
  return (
    <RecordFormShell
      form={form}
      submit={submit}
      submitLabel="Adjust"
      onCancel={onClose}
      label="Adjust"
      testId="adjust-form"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          On hand {formatQuantity(record.quantityOnHand, record.unit)}, reserved{' '}
          {formatQuantity(record.quantityReserved, record.unit)}.
        </Text>
        {needsUnit && (
          <SelectField
            form={form}
            name="handlingUnitId"
            label={L.handlingUnitId}
            placeholder="Choose the unit"
            data={leaves.map((u) => ({ value: u.id, label: unitLabel(u, record) }))}
            required
          />
        )}
        <TextField
          form={form}
          name="quantity"
          label="Change"
          placeholder="+5 or -3"
          hint="More found: a positive number; missing or damaged: a negative one"
          inputMode="numeric"
          required
          data-autofocus
        />
        <TextareaField form={form} name="reason" label={L.reason} maxLength={500} required />
      </Stack>
    </RecordFormShell>
  );
}
