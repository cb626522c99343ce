import { bookingRequestSchema, type Dossier, dossierCreateSchema } from '@fvg/contracts';
import { Fieldset, Stack } from '@mantine/core';
import type { UseFormReturn } from 'react-hook-form';
import {
  CargoFields,
  DateField,
  FormSection,
  IncotermFields,
  LookupField,
  type LookupOption,
  type LookupSource,
  RecordForm,
  type RecordFormWiring,
  RouteFields,
  SelectField,
  TextField,
  useRecordForm,
} from '../../../components/records/form.ts';
import { useBookTransport, useCreateDossier, useUpdateDossier } from '../api/dossiers-api.ts';
import { ContainersField } from './containers-field.tsx';
import {
  bookingInput,
  type DossierFormValues,
  dossierInput,
  dossierValues,
  emptyDossierValues,
  knownOptionsOf,
} from './dossier-form-values.ts';
import { DOSSIER_FIELD_LABELS as L, MODE_OPTIONS, TYPE_OPTIONS } from './dossier-meta.ts';

/** Where the dossier form finds parties and handlers (provided by the screen; see LookupSource). */
export interface DossierLookups {
  /** Any party (consignor, consignee, notify party). */
  party: LookupSource;
  /** Parties with the customer role. */
  customer: LookupSource;
  /** Staff users who can handle a dossier. */
  handler: LookupSource;
}

export interface DossierFieldsProps {
  form: UseFormReturn<DossierFormValues>;
  /** 'booking': the reduced set a customer fills in when booking a transport. */
  variant?: 'full' | 'booking';
  lookups?: DossierLookups | undefined;
  known?: Partial<Record<keyof DossierFormValues, LookupOption>>;
}

/** The dossier's fields, shared by create, edit and (reduced) the customer's booking. */
/** Shown while an existing dossier's customer is being changed (ADR 0044). */
export const CUSTOMER_CHANGE_NOTE =
  'Changing the customer: issued invoices, their PDFs and the chat so far stay with the current customer; the shipment, its legs and the documents shown to the customer go to the new one. The customer reference is the current customer’s: it is cleared unless you enter the new customer’s.';

type LookupKey = 'customerId' | 'handlerId' | 'consignorId' | 'consigneeId' | 'notifyPartyId';

export function DossierFields({ form, variant = 'full', lookups, known = {} }: DossierFieldsProps) {
  const full = variant === 'full';
  const initialCustomer = form.formState.defaultValues?.customerId;
  const moving = Boolean(initialCustomer) && form.watch('customerId') !== initialCustomer;
  // A party or handler picked from its lookup, named at once when the dossier already has one.
  const lookup = (
    name: LookupKey,
    source: LookupSource,
    more: { placeholder?: string; required?: boolean } = {},
  ) => (
    <LookupField
      form={form}
      name={name}
      label={L[name]}
      source={source}
      knownOption={known[name]}
      {...more}
      {...(name === 'customerId' && moving ? { description: CUSTOMER_CHANGE_NOTE } : {})}
    />
  );
  return (
    <Stack gap="md">
      <FormSection legend="General" cols={{ base: 1, sm: 2, md: 3 }}>
        <SelectField form={form} name="type" label={L.type} data={TYPE_OPTIONS} required />
        <SelectField form={form} name="mode" label={L.mode} data={MODE_OPTIONS} required />
        {full &&
          lookups &&
          lookup('customerId', lookups.customer, { placeholder: 'Search customers', required: true })}
        {full && lookups && lookup('handlerId', lookups.handler, { placeholder: 'Nobody yet' })}
        <IncotermFields form={form} labels={L} />
      </FormSection>

      {full && lookups && (
        <FormSection legend="Parties" cols={{ base: 1, sm: 3 }}>
          {lookup('consignorId', lookups.party)}
          {lookup('consigneeId', lookups.party)}
          {lookup('notifyPartyId', lookups.party)}
        </FormSection>
      )}

      <FormSection legend="Route and dates" cols={{ base: 1, sm: 2, md: 3 }}>
        <RouteFields form={form} labels={L} examples={['NLRTM', 'CNSHA']} required={!full} />
        <DateField form={form} name="etd" label={full ? L.etd : 'Ready to ship (ETD)'} />
        {full && <DateField form={form} name="eta" label={L.eta} />}
        {full && <DateField form={form} name="atd" label={L.atd} />}
        {full && <DateField form={form} name="ata" label={L.ata} />}
      </FormSection>

      <FormSection legend="References" cols={{ base: 1, sm: 2, md: 3 }}>
        <TextField form={form} name="customerReference" label={L.customerReference} />
        {full && <TextField form={form} name="bookingNumber" label={L.bookingNumber} />}
        {full && <TextField form={form} name="masterBl" label={L.masterBl} />}
        {full && <TextField form={form} name="houseBl" label={L.houseBl} />}
        {full && <TextField form={form} name="cmrNumber" label={L.cmrNumber} />}
      </FormSection>

      <Fieldset legend="Cargo">
        <CargoFields form={form} labels={L} cols={{ base: 1, sm: 2, md: full ? 5 : 4 }} required={!full}>
          {full && (
            <TextField
              form={form}
              name="chargeableWeightKg"
              label={L.chargeableWeightKg}
              inputMode="decimal"
            />
          )}
        </CargoFields>
      </Fieldset>

      <Fieldset legend="Containers">
        <ContainersField form={form} />
      </Fieldset>
    </Stack>
  );
}

/** The form's labels, the containers' fields included (`containers.0.number` → 'Container number'). */
const LABELS: Record<string, string> = {
  ...L,
  'containers.number': 'Container number',
  'containers.sizeType': 'Size/type',
  'containers.seals': 'Seals',
};

export interface DossierFormProps extends RecordFormWiring<Dossier> {
  /** The dossier to edit; absent → create. */
  dossier?: Dossier;
  /** The key the screen reads the dossier with (its number in the URL). */
  dossierKey?: string;
  lookups: DossierLookups;
  /** Starting values of a new dossier. */
  initial?: Partial<DossierFormValues>;
  onSaved: (dossier: Dossier) => void;
  onCancel: () => void;
}

/**
 * Staff create and edit a dossier with one form: dossierCreateSchema validates (the edit sends only
 * what changed, with the version it started from), server field errors land on their fields, a 409
 * offers to reload, Ctrl+S saves, and leaving with unsaved changes asks first.
 */
export function DossierForm({ dossier, dossierKey, lookups, initial, ...wiring }: DossierFormProps) {
  const record = useRecordForm({
    ...wiring,
    record: dossier,
    valuesOf: dossierValues,
    empty: () => ({ ...emptyDossierValues(), ...initial }),
    schema: dossierCreateSchema,
    toInput: dossierInput,
    labels: LABELS,
    mutations: { create: useCreateDossier(), update: useUpdateDossier(dossierKey ?? dossier?.number ?? '') },
  });
  return (
    <RecordForm of={record} noun="dossier" reference={dossier?.number}>
      <DossierFields form={record.form} lookups={lookups} known={knownOptionsOf(dossier)} />
    </RecordForm>
  );
}

export interface BookingFormProps extends RecordFormWiring<Dossier> {
  onSaved: (dossier: Dossier) => void;
  onCancel: () => void;
}

/** A customer books a transport: the reduced form; the dossier starts in status requested. */
export function BookingForm(wiring: BookingFormProps) {
  const book = useBookTransport();
  const booking = useRecordForm({
    ...wiring,
    empty: emptyDossierValues,
    schema: bookingRequestSchema,
    toInput: bookingInput,
    labels: LABELS,
    create: (body) => book.mutateAsync(body),
    startOver: 'sent',
  });
  return (
    <RecordForm
      of={booking}
      submitLabel="Send booking request"
      label="Book a transport"
      testId="booking-form"
    >
      <DossierFields form={booking.form} variant="booking" />
    </RecordForm>
  );
}
