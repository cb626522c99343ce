import {
  MAX_SHIPMENT_LINES,
  type OutboundProcedure,
  type Shipment,
  shipmentCreateSchema,
  shipmentUpdateSchema,
} from '@fvg/contracts';
import { SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type FieldValues, useForm, useWatch } from 'react-hook-form';
import {
  DateField,
  LookupField,
  SelectField,
  TextareaField,
  TextField,
} from '../../../components/records/form-fields.tsx';
import { type LineColumn, LineItemsEditor } from '../../../components/records/line-items-editor.tsx';
import {
  contractResolver,
  RecordFormShell,
  useRecordBase,
  useRecordSubmit,
  useUnsavedChangesGuard,
} from '../../../components/records/record-form.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { SHIPMENT_FIELD_LABELS as L, procedureOptionsFor } from '../api/shipment-meta.ts';
import { useCreateShipment, useUpdateShipment } from '../api/shipments-api.ts';
import { ProcedureNotice, useNonUnionStock } from './procedure-notice.tsx';
import { AvailabilityHint, skuLookup } from './sku-availability.tsx';

/** A line as the form holds it: text, '' for empty. A line from a given stock record keeps its id. */
export interface ShipmentLineValue extends Record<string, unknown> {
  sku: string;
  stockRecordId: string;
  quantity: string;
}

export interface ShipmentFormValues extends FieldValues {
  ownerId: string;
  consigneeId: string;
  consigneeName: string;
  deliveryAddress: string;
  plannedDate: string;
  outboundProcedure: string;
  customerReference: string;
  notes: string;
  lines: ShipmentLineValue[];
}

export const newShipmentLine = (): ShipmentLineValue => ({ sku: '', stockRecordId: '', quantity: '' });

export function shipmentValuesOf(s: Shipment): ShipmentFormValues {
  return {
    ownerId: s.owner.id,
    consigneeId: s.consignee?.id ?? '',
    consigneeName: s.consignee ? '' : (s.consigneeName ?? ''),
    deliveryAddress: s.deliveryAddress ?? '',
    plannedDate: s.plannedDate ?? '',
    outboundProcedure: s.outboundProcedure ?? '',
    customerReference: s.customerReference ?? '',
    notes: s.notes ?? '',
    lines: s.lines.map((l) => ({
      sku: l.sku,
      stockRecordId: l.stockRecordId ?? '',
      quantity: String(l.quantity),
    })),
  };
}

export function emptyShipmentValues(ownerId = ''): ShipmentFormValues {
  return {
    ownerId,
    consigneeId: '',
    consigneeName: '',
    deliveryAddress: '',
    plannedDate: '',
    outboundProcedure: '',
    customerReference: '',
    notes: '',
    lines: [newShipmentLine()],
  };
}

const orNull = (text: string) => text.trim() || null;

/**
 * What the API takes: empties → null; a line names its given stock record or else its article;
 * the owner only from staff (a customer's is its own party); internal notes only from staff.
 */
export function shipmentInputOf(values: ShipmentFormValues, staff: boolean) {
  return {
    ...(staff ? { ownerId: values.ownerId || undefined, notes: orNull(values.notes) } : {}),
    consigneeId: values.consigneeId || null,
    consigneeName: values.consigneeId ? null : orNull(values.consigneeName),
    deliveryAddress: orNull(values.deliveryAddress),
    plannedDate: values.plannedDate || null,
    outboundProcedure: (values.outboundProcedure || null) as OutboundProcedure | null,
    customerReference: orNull(values.customerReference),
    lines: values.lines.map((l) => {
      const quantity = l.quantity === '' ? undefined : Number(l.quantity);
      return l.stockRecordId
        ? { stockRecordId: l.stockRecordId, quantity }
        : { sku: l.sku.trim().toUpperCase(), quantity };
    }),
  } as never;
}

/** The line columns: the article picked from the owner's stock, the quantity, and what is available of it. */
export function shipmentLineColumns(
  source: LookupSource,
  ownerId: string | undefined,
  staff: boolean,
): LineColumn<ShipmentLineValue>[] {
  return [
    {
      field: 'sku',
      label: 'Article (SKU)',
      kind: 'lookup',
      source,
      knownOption: (l) => (l.sku ? { value: l.sku, label: l.sku } : null),
      flex: 2,
      minWidth: 220,
      required: true,
      placeholder: staff && !ownerId ? 'Choose the owner first' : 'Type the article number',
      when: (l) => !l.stockRecordId,
    },
    { field: 'quantity', label: 'Quantity', kind: 'quantity', decimals: 0, width: 120, required: true },
    {
      field: 'available',
      label: 'Available',
      kind: 'computed',
      flex: 1,
      minWidth: 200,
      value: (l) =>
        l.stockRecordId ? (
          <Text size="sm" c="dimmed">
            From one given stock record ({l.sku})
          </Text>
        ) : staff && !ownerId ? null : (
          <AvailabilityHint ownerId={ownerId} sku={l.sku} quantity={l.quantity} />
        ),
    },
  ];
}

export interface ShipmentEditorProps {
  /** The draft being edited; absent for a new one. */
  shipment?: Shipment | undefined;
  staff: boolean;
  /** A new draft's first line from a given stock record (the stock screen's "Ship from this record"). */
  fromStock?: { id: string; sku: string; owner: { id: string; name: string } } | undefined;
  /** A customer's own party (fixed owner). */
  party?: { id: string; name: string } | null | undefined;
  ownerLookup: LookupSource;
  consigneeLookup: LookupSource;
  onSaved: (shipment: Shipment) => void;
  onCancel: () => void;
  /** After a conflict (someone saved meanwhile): the newer draft, to reapply the user's changes on. */
  reload?: () => Promise<Shipment | undefined>;
}

const createResolver = (staff: boolean) =>
  contractResolver<ShipmentFormValues>(shipmentCreateSchema, (v) => shipmentInputOf(v, staff), L);
const updateResolver = (staff: boolean) =>
  contractResolver<ShipmentFormValues>(
    shipmentUpdateSchema.omit({ version: true }),
    (v) => shipmentInputOf(v, staff),
    L,
  );

/**
 * The draft editor: owner (staff pick it; a customer's is its own party), consignee, delivery,
 * outbound procedure and references, then the lines with what is available of each article as it
 * is typed. Only drafts are edited; nothing is reserved until staff release the shipment.
 */
export function ShipmentEditor({
  shipment,
  staff,
  fromStock,
  party,
  ownerLookup,
  consigneeLookup,
  onSaved,
  onCancel,
  reload,
}: ShipmentEditorProps) {
  const resolver = useMemo(
    () => (shipment ? updateResolver(staff) : createResolver(staff)),
    [shipment, staff],
  );
  const form = useForm<ShipmentFormValues>({
    resolver,
    defaultValues: shipment
      ? shipmentValuesOf(shipment)
      : fromStock
        ? {
            ...emptyShipmentValues(fromStock.owner.id),
            lines: [{ sku: fromStock.sku, stockRecordId: fromStock.id, quantity: '' }],
          }
        : emptyShipmentValues(staff ? '' : (party?.id ?? '')),
  });
  const base = useRecordBase(form, shipment, shipmentValuesOf);
  const create = useCreateShipment();
  const update = useUpdateShipment();
  const guard = useUnsavedChangesGuard(form.formState.isDirty);
  const submit = useRecordSubmit(
    form,
    async (values) => {
      const body = shipmentInputOf(values, staff);
      const saved = shipment
        ? await update.mutateAsync({
            id: shipment.id,
            body: { ...(body as object), version: base.version ?? shipment.version },
          })
        : await create.mutateAsync(body);
      guard.release();
      onSaved(saved);
    },
    { labels: L },
  );
  const ownerId = useWatch({ control: form.control, name: 'ownerId' }) || undefined;
  const consigneeId = useWatch({ control: form.control, name: 'consigneeId' });
  const lines = useWatch({ control: form.control, name: 'lines' });
  const procedure = useWatch({ control: form.control, name: 'outboundProcedure' });
  // The procedures that fit the goods the lines hold are offered; the others are shown disabled.
  const { statuses } = useNonUnionStock(staff ? ownerId : undefined, lines ?? []);
  const queryClient = useQueryClient();
  const columns = useMemo(() => {
    const owner = staff ? ownerId : undefined;
    return shipmentLineColumns(skuLookup(queryClient, owner, staff), owner, staff);
  }, [queryClient, ownerId, staff]);

  return (
    <>
      <RecordFormShell
        form={form}
        submit={submit}
        submitLabel={shipment ? 'Save draft' : 'Save the draft'}
        label={shipment ? `Shipment ${shipment.number}` : 'New shipment'}
        testId="shipment-form"
        fieldLabels={L}
        onCancel={onCancel}
        {...(reload
          ? {
              onReload: async () => {
                const fresh = await reload();
                return fresh ? base.reapply(fresh) : undefined;
              },
            }
          : {})}
      >
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            {staff ? (
              <LookupField
                form={form}
                name="ownerId"
                label={L.ownerId}
                source={ownerLookup}
                knownOption={(() => {
                  const owner = shipment?.owner ?? fromStock?.owner;
                  return owner ? { value: owner.id, label: owner.name } : null;
                })()}
                withAsterisk
              />
            ) : (
              <TextInput label={L.ownerId} value={party?.name ?? ''} readOnly data-testid="field-ownerId" />
            )}
            <LookupField
              form={form}
              name="consigneeId"
              label={L.consigneeId}
              source={consigneeLookup}
              knownOption={
                shipment?.consignee ? { value: shipment.consignee.id, label: shipment.consignee.name } : null
              }
              clearable
              description={consigneeId ? undefined : 'A known party, or type a name instead'}
            />
            {!consigneeId && (
              <TextField form={form} name="consigneeName" label={L.consigneeName} maxLength={200} />
            )}
            <DateField form={form} name="plannedDate" label={L.plannedDate} />
            <SelectField
              form={form}
              name="outboundProcedure"
              label={L.outboundProcedure}
              data={procedureOptionsFor(statuses)}
              clearable
              description="For non-Union goods: how they leave the warehouse"
            />
            <TextField form={form} name="customerReference" label={L.customerReference} maxLength={50} />
          </SimpleGrid>
          <ProcedureNotice
            number={shipment?.number}
            ownerId={staff ? ownerId : undefined}
            lines={lines ?? []}
            procedure={procedure ?? ''}
          />
          <TextareaField form={form} name="deliveryAddress" label={L.deliveryAddress} maxLength={500} />
          <LineItemsEditor
            form={form}
            name="lines"
            columns={columns}
            newLine={newShipmentLine}
            itemName="line"
            emptyTitle="No lines yet"
            emptyHint={`Add the articles to ship (up to ${MAX_SHIPMENT_LINES}).`}
            testId="shipment-lines-editor"
          />
          {staff && (
            <TextareaField
              form={form}
              name="notes"
              label={L.notes}
              description="For your colleagues: never shown to the customer"
              maxLength={2000}
            />
          )}
        </Stack>
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}
