import { type Transport, transportCreateSchema } from '@fvg/contracts';
import { SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type UseFormReturn, useWatch } from 'react-hook-form';
import {
  ChecklistField,
  DateTimeField,
  LookupField,
  type LookupSource,
  RecordForm,
  type RecordFormWiring,
  SelectField,
  TagsField,
  TextareaField,
  TextField,
  useRecordForm,
} from '../../../components/records/form.ts';
import { emptyTexts, textsOf } from '../../../components/records/form-values.ts';
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
  'customerRemark',
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
  return {
    dossierId: dossier,
    mode: 'road',
    carrierId: '',
    containers: [],
    ...emptyTexts(TEXT_FIELDS),
    ...emptyTexts(TIME_FIELDS),
  };
}

export function transportValues(t: Transport): TransportFormValues {
  return {
    dossierId: t.dossier.number,
    mode: t.mode,
    carrierId: t.carrier?.id ?? '',
    containers: [...t.containers],
    ...textsOf(t, TEXT_FIELDS),
    ...textsOf(t, TIME_FIELDS),
  };
}

/** What the API takes: empty carrier → null; the times are already ISO 8601 (the schema turns '' into null). */
export function transportInput(v: TransportFormValues) {
  return { ...v, carrierId: v.carrierId || null, dossierId: v.dossierId.trim() };
}

/** The dossier a new leg is for, when the screen already knows it (the dossier's Transports tab). */
export interface TransportDossier {
  id: string;
  number: string;
  /** The dossier's container numbers: the leg's containers are ticked from them. */
  containers: readonly string[];
}

export interface TransportFormProps extends RecordFormWiring<Transport> {
  /** The leg being edited; none: a new leg. */
  transport?: Transport | undefined;
  /** A new leg's dossier, fixed (shown, not changeable); its containers are offered. */
  dossier?: TransportDossier | undefined;
  /** Where a new leg's dossier is picked when none is fixed (the dossiers area provides it). */
  dossierLookup?: LookupSource | undefined;
  /** The container numbers of a picked dossier, to offer them (the dossiers area provides it). */
  dossierContainers?: ((dossierId: string, signal?: AbortSignal) => Promise<string[]>) | undefined;
  carrierLookup: LookupSource;
  onSaved: (transport: Transport) => void;
}

/** Create (staff) or edit a transport leg: contract validation, server errors on fields, conflict reload. */
export function TransportForm({
  transport,
  dossier,
  dossierLookup,
  dossierContainers,
  carrierLookup,
  ...wiring
}: TransportFormProps) {
  const create = useCreateTransport();
  const update = useUpdateTransport();
  const record = useRecordForm({
    ...wiring,
    record: transport,
    valuesOf: transportValues,
    empty: () => emptyTransportValues(dossier?.id),
    schema: transportCreateSchema,
    toInput: transportInput,
    labels: L,
    create: (body) => create.mutateAsync(body),
    // A leg stays with its dossier: an edit does not send it.
    update: ({ dossierId: _dossier, ...fields }, edit) =>
      update.mutateAsync({ id: edit.record.id, body: edit.patch(fields) }),
  });
  return (
    <RecordForm
      of={record}
      noun="transport"
      reference={transport && `${transport.dossier.number}-${transport.sequence}`}
    >
      <TransportFields
        form={record.form}
        carrierLookup={carrierLookup}
        creating={!transport}
        transport={transport}
        dossier={dossier}
        dossierLookup={dossierLookup}
        dossierContainers={dossierContainers}
      />
    </RecordForm>
  );
}

/**
 * The containers the leg may carry: a fixed dossier's own, or those of the dossier picked (fetched);
 * null while unknown (no dossier yet, no way to ask, or editing a leg).
 */
function useOfferedContainers(
  form: UseFormReturn<TransportFormValues>,
  creating: boolean,
  dossier: TransportDossier | undefined,
  dossierContainers: TransportFormProps['dossierContainers'],
): readonly string[] | null {
  const picked = useWatch({ control: form.control, name: 'dossierId' });
  const fetched = useQuery({
    queryKey: ['transport-form', 'dossier-containers', picked],
    queryFn: ({ signal }) => (dossierContainers as NonNullable<typeof dossierContainers>)(picked, signal),
    enabled: creating && !dossier && Boolean(dossierContainers) && Boolean(picked),
    staleTime: 60_000,
  });
  const { getValues, setValue } = form;
  // Another dossier picked: containers ticked from the previous one do not belong to this leg.
  useEffect(() => {
    if (!fetched.data) return;
    const kept = getValues('containers').filter((c) => fetched.data.includes(c));
    if (kept.length !== getValues('containers').length) setValue('containers', kept, { shouldDirty: true });
  }, [fetched.data, getValues, setValue]);
  if (!creating) return null;
  if (dossier) return dossier.containers;
  return picked && fetched.data ? fetched.data : null;
}

function TransportFields({
  form,
  carrierLookup,
  creating,
  transport,
  dossier,
  dossierLookup,
  dossierContainers,
}: {
  form: UseFormReturn<TransportFormValues>;
  carrierLookup: LookupSource;
  creating: boolean;
  transport?: Transport | undefined;
  dossier?: TransportDossier | undefined;
  dossierLookup?: LookupSource | undefined;
  dossierContainers?: TransportFormProps['dossierContainers'];
}) {
  const offered = useOfferedContainers(form, creating, dossier, dossierContainers);
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
        {creating &&
          (dossier ? (
            <TextInput label="Dossier" value={dossier.number} readOnly data-testid="field-dossierId" />
          ) : (
            dossierLookup && (
              <LookupField
                form={form}
                name="dossierId"
                label="Dossier"
                placeholder="Search by number, reference or container"
                source={dossierLookup}
                withAsterisk
                comboboxProps={{ withinPortal: true }}
              />
            )
          ))}
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
      {offered && offered.length > 0 ? (
        <ChecklistField
          form={form}
          name="containers"
          label={L.containers}
          description="The dossier's containers this leg carries"
          options={offered.map((c) => ({ value: c, label: c }))}
        />
      ) : (
        <TagsField
          form={form}
          name="containers"
          label={L.containers}
          placeholder="MSKU6011672"
          {...(offered ? { description: 'The dossier has no containers yet: type their numbers' } : {})}
        />
      )}
      <TextareaField
        form={form}
        name="customerRemark"
        label={L.customerRemark}
        description="Shown to the customer with this leg"
        autosize
        minRows={2}
      />
      <TextareaField
        form={form}
        name="notes"
        label={L.notes}
        description="For the team only: never shown to the customer"
        autosize
        minRows={2}
      />
    </Stack>
  );
}
