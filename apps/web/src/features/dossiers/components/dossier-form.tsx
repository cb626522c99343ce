import { bookingRequestSchema, type Dossier, dossierCreateSchema } from '@fvg/contracts';
import { Fieldset, SimpleGrid, Stack } from '@mantine/core';
import { type UseFormReturn, useForm } from 'react-hook-form';
import {
  DateField,
  LookupField,
  SelectField,
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
import type { LookupOption, LookupSource } from '../../../components/records/record-select.tsx';
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
import { INCOTERM_OPTIONS, DOSSIER_FIELD_LABELS as L, MODE_OPTIONS, TYPE_OPTIONS } from './dossier-meta.ts';

/** Where the dossier form finds parties and handlers (provided by the screen; see LookupSource). */
export interface DossierLookups {
  /** Any party (consignor, consignee, notify party). */
  party: LookupSource;
  /** Parties with the customer role. */
  customer: LookupSource;
  /** Staff users who can handle a dossier. */
  handler: LookupSource;
}

const upper = (value: string) => value.toUpperCase();

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

export function DossierFields({ form, variant = 'full', lookups, known = {} }: DossierFieldsProps) {
  const full = variant === 'full';
  const initialCustomer = form.formState.defaultValues?.customerId;
  const moving = Boolean(initialCustomer) && form.watch('customerId') !== initialCustomer;
  return (
    <Stack gap="md">
      <Fieldset legend="General">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          <SelectField form={form} name="type" label={L.type} data={TYPE_OPTIONS} required />
          <SelectField form={form} name="mode" label={L.mode} data={MODE_OPTIONS} required />
          {full && lookups && (
            <LookupField
              form={form}
              name="customerId"
              label={L.customerId}
              source={lookups.customer}
              knownOption={known.customerId}
              placeholder="Search customers"
              required
              {...(moving ? { description: CUSTOMER_CHANGE_NOTE } : {})}
            />
          )}
          {full && lookups && (
            <LookupField
              form={form}
              name="handlerId"
              label={L.handlerId}
              source={lookups.handler}
              knownOption={known.handlerId}
              placeholder="Nobody yet"
            />
          )}
          <SelectField
            form={form}
            name="incoterm"
            label={L.incoterm}
            data={INCOTERM_OPTIONS}
            clearable
            searchable
          />
          <TextField form={form} name="incotermPlace" label={L.incotermPlace} />
        </SimpleGrid>
      </Fieldset>

      {full && lookups && (
        <Fieldset legend="Parties">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <LookupField
              form={form}
              name="consignorId"
              label={L.consignorId}
              source={lookups.party}
              knownOption={known.consignorId}
            />
            <LookupField
              form={form}
              name="consigneeId"
              label={L.consigneeId}
              source={lookups.party}
              knownOption={known.consigneeId}
            />
            <LookupField
              form={form}
              name="notifyPartyId"
              label={L.notifyPartyId}
              source={lookups.party}
              knownOption={known.notifyPartyId}
            />
          </SimpleGrid>
        </Fieldset>
      )}

      <Fieldset legend="Route and dates">
        <SimpleGrid cols={{ base: 1, sm: 2, md: full ? 3 : 3 }} spacing="sm">
          <TextField
            form={form}
            name="originLocode"
            label={L.originLocode}
            placeholder="NLRTM"
            maxLength={5}
            transform={upper}
            required={!full}
            hint="UN/LOCODE"
          />
          <TextField
            form={form}
            name="destinationLocode"
            label={L.destinationLocode}
            placeholder="CNSHA"
            maxLength={5}
            transform={upper}
            required={!full}
            hint="UN/LOCODE"
          />
          <DateField form={form} name="etd" label={full ? L.etd : 'Ready to ship (ETD)'} />
          {full && <DateField form={form} name="eta" label={L.eta} />}
          {full && <DateField form={form} name="atd" label={L.atd} />}
          {full && <DateField form={form} name="ata" label={L.ata} />}
        </SimpleGrid>
      </Fieldset>

      <Fieldset legend="References">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          <TextField form={form} name="customerReference" label={L.customerReference} />
          {full && <TextField form={form} name="bookingNumber" label={L.bookingNumber} />}
          {full && <TextField form={form} name="masterBl" label={L.masterBl} />}
          {full && <TextField form={form} name="houseBl" label={L.houseBl} />}
          {full && <TextField form={form} name="cmrNumber" label={L.cmrNumber} />}
        </SimpleGrid>
      </Fieldset>

      <Fieldset legend="Cargo">
        <Stack gap="sm">
          <TextareaField
            form={form}
            name="cargoDescription"
            label={L.cargoDescription}
            required={!full}
            maxLength={2000}
          />
          <SimpleGrid cols={{ base: 1, sm: 2, md: full ? 5 : 4 }} spacing="sm">
            <TextField form={form} name="packages" label={L.packages} inputMode="numeric" />
            <TextField form={form} name="packageType" label={L.packageType} placeholder="pallets" />
            <TextField form={form} name="grossWeightKg" label={L.grossWeightKg} inputMode="decimal" />
            <TextField form={form} name="volumeM3" label={L.volumeM3} inputMode="decimal" />
            {full && (
              <TextField
                form={form}
                name="chargeableWeightKg"
                label={L.chargeableWeightKg}
                inputMode="decimal"
              />
            )}
          </SimpleGrid>
        </Stack>
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
const dossierResolver = contractResolver<DossierFormValues>(dossierCreateSchema, dossierInput, LABELS);
const bookingResolver = contractResolver<DossierFormValues>(bookingRequestSchema, bookingInput, LABELS);

type KeepsForm = (next: { pathname: string; search: Record<string, unknown> }) => boolean;

export interface DossierFormProps {
  /** The dossier to edit; absent → create. */
  dossier?: Dossier;
  /** The key the screen reads the dossier with (its number in the URL). */
  dossierKey?: string;
  lookups: DossierLookups;
  /** Starting values of a new dossier. */
  initial?: Partial<DossierFormValues>;
  onSaved: (dossier: Dossier) => void;
  onCancel: () => void;
  /** Re-reads the dossier after a conflict; the form then starts over from it. */
  reload?: () => Promise<Dossier | undefined>;
  keepsForm?: KeepsForm;
}

/**
 * Staff create and edit a dossier with one form: dossierCreateSchema validates (the edit sends only
 * what changed, with the version it started from), server field errors land on their fields, a 409
 * offers to reload, Ctrl+S saves, and leaving with unsaved changes asks first.
 */
export function DossierForm({
  dossier,
  dossierKey,
  lookups,
  initial,
  onSaved,
  onCancel,
  reload,
  keepsForm,
}: DossierFormProps) {
  const form = useForm<DossierFormValues>({
    resolver: dossierResolver,
    defaultValues: dossier ? dossierValues(dossier) : { ...emptyDossierValues(), ...initial },
  });
  const create = useCreateDossier();
  const update = useUpdateDossier(dossierKey ?? dossier?.number ?? '');
  const guard = useUnsavedChangesGuard(form.formState.isDirty, keepsForm);
  const base = useRecordBase(form, dossier, dossierValues);

  const submit = useRecordSubmit(
    form,
    async (values) => {
      const body = dossierCreateSchema.parse(dossierInput(values));
      const saved = dossier
        ? await update.mutateAsync({
            id: dossier.id,
            body: {
              ...changedFields(body, form.formState.dirtyFields),
              version: base.version ?? dossier.version,
            },
          })
        : await create.mutateAsync(body);
      guard.release();
      base.restart(saved);
      onSaved(saved);
    },
    { labels: LABELS },
  );

  return (
    <>
      <RecordFormShell
        form={form}
        submit={submit}
        submitLabel={dossier ? 'Save dossier' : 'Create dossier'}
        onCancel={onCancel}
        label={dossier ? `Edit dossier ${dossier.number}` : 'New dossier'}
        testId="dossier-form"
        fieldLabels={L}
        {...(reload
          ? {
              onReload: async () => {
                const fresh = await reload();
                return fresh ? base.reapply(fresh) : undefined;
              },
            }
          : {})}
      >
        <DossierFields form={form} lookups={lookups} known={knownOptionsOf(dossier)} />
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}

export interface BookingFormProps {
  onSaved: (dossier: Dossier) => void;
  onCancel: () => void;
  keepsForm?: KeepsForm;
}

/** A customer books a transport: the reduced form; the dossier starts in status requested. */
export function BookingForm({ onSaved, onCancel, keepsForm }: BookingFormProps) {
  const form = useForm<DossierFormValues>({ resolver: bookingResolver, defaultValues: emptyDossierValues() });
  const book = useBookTransport();
  const guard = useUnsavedChangesGuard(form.formState.isDirty, keepsForm);

  const submit = useRecordSubmit(
    form,
    async (values) => {
      const saved = await book.mutateAsync(bookingRequestSchema.parse(bookingInput(values)));
      guard.release();
      form.reset(values);
      onSaved(saved);
    },
    { labels: LABELS },
  );

  return (
    <>
      <RecordFormShell
        form={form}
        submit={submit}
        submitLabel="Send booking request"
        onCancel={onCancel}
        label="Book a transport"
        testId="booking-form"
      >
        <DossierFields form={form} variant="booking" />
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}
