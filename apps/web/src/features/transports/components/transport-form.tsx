import { type Transport, transportCreateSchema } from '@fvg/contracts';
import { SimpleGrid, Stack, Title } from '@mantine/core';
import { type UseFormReturn, useForm } from 'react-hook-form';
import {
  DateTimeField,
  LookupField,
  SelectField,
  TagsField,
  TextareaField,
  TextField,
} from '../../../components/records/form-fields.tsx';
import {
  changedFields,
  contractResolver,
  RecordFormShell,
  useRecordBase,
  useRecordSubmit,
  useUnsavedChangesGuard,
} from '../../../components/records/record-form.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { useCreateTransport, useUpdateTransport } from '../api/transports-api.ts';
import { TRANSPORT_FIELD_LABELS as L, MODE_OPTIONS } from './transport-meta.ts';

const TEXT_FIELDS = [
  'truckPlate',
  'trailerPlate',
  'vesselName',
  'vesselImo',
  'flightNumber',
  'pickupLocode',
  'pickupAddress',
  'deliveryLocode',
  'deliveryAddress',
  'driverName',
  'driverPhone',
  'notes',
] as const;
const TIME_FIELDS = [
  'pickupFrom',
  'pickupTo',
  'deliveryFrom',
  'deliveryTo',
  'actualPickupAt',
  'actualDeliveryAt',
] as const;

type TextKey = (typeof TEXT_FIELDS)[number] | (typeof TIME_FIELDS)[number];

/** The form's values: text everywhere ('' for empty); times as ISO 8601 instants (DateTimeField). */
export type TransportFormValues = Record<TextKey, string> & {
  dossierId: string;
  mode: string;
  carrierId: string;
  containers: string[];
};

export function emptyTransportValues(dossier = ''): TransportFormValues {
  const values = {
    dossierId: dossier,
    mode: 'road',
    carrierId: '',
    containers: [] as string[],
  } as TransportFormValues;
  for (const key of [...TEXT_FIELDS, ...TIME_FIELDS]) values[key] = '';
  return values;
}

export function transportValues(t: Transport): TransportFormValues {
  const values = emptyTransportValues(t.dossier.number);
  values.mode = t.mode;
  values.carrierId = t.carrier?.id ?? '';
  values.containers = [...t.containers];
  for (const key of TEXT_FIELDS) values[key] = t[key] ?? '';
  for (const key of TIME_FIELDS) values[key] = t[key] ?? '';
  return values;
}

/** What the API takes: empty carrier → null; the times are already ISO 8601 (the schema turns '' into null). */
export function transportInput(v: TransportFormValues) {
  return { ...v, carrierId: v.carrierId || null, dossierId: v.dossierId.trim() };
}

const resolver = contractResolver<TransportFormValues>(transportCreateSchema, transportInput, L);

export interface TransportFormProps {
  /** The leg being edited; none: a new leg. */
  transport?: Transport | undefined;
  /** A new leg's dossier (its number), when the screen knows it. */
  dossierNumber?: string;
  carrierLookup: LookupSource;
  onSaved: (transport: Transport) => void;
  onCancel?: () => void;
  reload?: () => Promise<Transport | undefined>;
  keepsForm?: (next: { pathname: string; search: Record<string, unknown> }) => boolean;
}

/** Create (staff) or edit a transport leg: contract validation, server errors on fields, conflict reload. */
export function TransportForm({
  transport,
  dossierNumber,
  carrierLookup,
  onSaved,
  onCancel,
  reload,
  keepsForm,
}: TransportFormProps) {
  const form = useForm<TransportFormValues>({
    resolver,
    defaultValues: transport ? transportValues(transport) : emptyTransportValues(dossierNumber),
  });
  const create = useCreateTransport();
  const update = useUpdateTransport();
  const guard = useUnsavedChangesGuard(form.formState.isDirty, keepsForm);
  const base = useRecordBase(form, transport, transportValues);

  const submit = useRecordSubmit(
    form,
    async (values) => {
      const body = transportCreateSchema.parse(transportInput(values));
      let saved: Transport;
      if (transport) {
        const { dossierId: _dossier, ...fields } = body;
        saved = await update.mutateAsync({
          id: transport.id,
          body: {
            ...changedFields(fields, form.formState.dirtyFields),
            version: base.version ?? transport.version,
          },
        });
      } else {
        saved = await create.mutateAsync(body);
      }
      guard.release();
      base.restart(saved);
      onSaved(saved);
    },
    { labels: L },
  );

  return (
    <>
      <RecordFormShell
        form={form}
        submit={submit}
        submitLabel={transport ? 'Save transport' : 'Create transport'}
        {...(onCancel ? { onCancel } : {})}
        label={
          transport ? `Edit transport ${transport.dossier.number}-${transport.sequence}` : 'New transport'
        }
        testId="transport-form"
        {...(reload
          ? {
              onReload: () =>
                void reload().then((fresh) => {
                  if (fresh) base.restart(fresh);
                }),
            }
          : {})}
      >
        <TransportFields
          form={form}
          carrierLookup={carrierLookup}
          creating={!transport}
          transport={transport}
        />
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}

function TransportFields({
  form,
  carrierLookup,
  creating,
  transport,
}: {
  form: UseFormReturn<TransportFormValues>;
  carrierLookup: LookupSource;
  creating: boolean;
  transport?: Transport | undefined;
}) {
  const time = (name: (typeof TIME_FIELDS)[number]) => (
    <DateTimeField form={form} name={name} label={L[name]} />
  );
  const text = (name: (typeof TEXT_FIELDS)[number], upper = false) => (
    <TextField
      form={form}
      name={name}
      label={L[name]}
      {...(upper ? { transform: (s: string) => s.toUpperCase() } : {})}
    />
  );
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {creating && (
          <TextField form={form} name="dossierId" label="Dossier" placeholder="Dossier number" withAsterisk />
        )}
        <SelectField form={form} name="mode" label="Mode" data={MODE_OPTIONS} allowDeselect={false} />
        <LookupField
          form={form}
          name="carrierId"
          label="Carrier"
          source={carrierLookup}
          clearable
          knownOption={
            transport?.carrier
              ? {
                  value: transport.carrier.id,
                  label: `${transport.carrier.name} (${transport.carrier.code})`,
                }
              : null
          }
        />
      </SimpleGrid>
      <Title order={5}>Vehicle</Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {text('truckPlate', true)}
        {text('trailerPlate', true)}
        {text('vesselName')}
        {text('vesselImo')}
        {text('flightNumber', true)}
      </SimpleGrid>
      <Title order={5}>Pickup</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {text('pickupLocode', true)}
        {text('pickupAddress')}
        {time('pickupFrom')}
        {time('pickupTo')}
      </SimpleGrid>
      <Title order={5}>Delivery</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {text('deliveryLocode', true)}
        {text('deliveryAddress')}
        {time('deliveryFrom')}
        {time('deliveryTo')}
      </SimpleGrid>
      {!creating && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {time('actualPickupAt')}
          {time('actualDeliveryAt')}
        </SimpleGrid>
      )}
      <Title order={5}>Driver and cargo</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {text('driverName')}
        {text('driverPhone')}
      </SimpleGrid>
      <TagsField form={form} name="containers" label={L.containers} placeholder="MSKU6011672" />
      <TextareaField form={form} name="notes" label={L.notes} autosize minRows={2} />
    </Stack>
  );
}
