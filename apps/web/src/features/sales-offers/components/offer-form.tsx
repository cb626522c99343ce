import { offerToday, type SalesOffer, salesOfferCreateSchema, type VatCode } from '@fvg/contracts';
import { Fieldset, SimpleGrid, Stack } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { type UseFormReturn, useForm, useWatch } from 'react-hook-form';
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
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { useCreateOffer, useUpdateOffer } from '../api/sales-offers-api.ts';
import { emptyOfferValues, type OfferFormValues, offerInput, offerValues } from './offer-form-values.ts';
import { OfferLinesEditor } from './offer-lines.tsx';
import { INCOTERM_OPTIONS, OFFER_FIELD_LABELS as L, MODE_OPTIONS, TYPE_OPTIONS } from './offer-meta.ts';

/** Who an offer is addressed to at the customer: the party's first contact (provided by the screen). */
export interface OfferContact {
  name: string | null;
  email: string | null;
}

export type OfferContactSource = (customerId: string, signal?: AbortSignal) => Promise<OfferContact | null>;

type KeepsForm = (next: { pathname: string; search: Record<string, unknown> }) => boolean;

const upper = (value: string) => value.toUpperCase();
const resolver = contractResolver<OfferFormValues>(salesOfferCreateSchema, offerInput, L);

/**
 * A first line's VAT before anyone picks it: transport connected with an export or import is exempt
 * (art. 146(1)(e) / 144); otherwise the standard rate, typed by the user.
 */
export function suggestedVat(dossierType: string): { vatCode: VatCode; vatRate: string | null } {
  return dossierType === 'export' || dossierType === 'import'
    ? { vatCode: 'E', vatRate: '0' }
    : { vatCode: 'S', vatRate: null };
}

/**
 * Fills the contact from the customer's first contact when the customer changes, unless the user
 * typed one of their own.
 */
function useContactPrefill(form: UseFormReturn<OfferFormValues>, source: OfferContactSource | undefined) {
  const customerId = useWatch({ control: form.control, name: 'customerId' });
  const started = useRef(customerId);
  const prefilled = useRef<OfferContact>({ name: null, email: null });
  useEffect(() => {
    if (!source || !customerId || customerId === started.current) return;
    started.current = customerId;
    const controller = new AbortController();
    void source(customerId, controller.signal)
      .then((contact) => {
        if (controller.signal.aborted) return;
        const put = (name: 'contactName' | 'contactEmail', key: keyof OfferContact) => {
          const now = form.getValues(name);
          // Replace what is empty or what the previous customer's contact put there, never a typed value.
          if (now !== '' && now !== (prefilled.current[key] ?? '')) return;
          form.setValue(name, contact?.[key] ?? '', { shouldDirty: true });
        };
        put('contactName', 'name');
        put('contactEmail', 'email');
        prefilled.current = contact ?? { name: null, email: null };
      })
      .catch(() => {
        // No contact to offer: the user types it.
      });
    return () => controller.abort();
  }, [customerId, source, form]);
}

function OfferFields({
  form,
  customerLookup,
  offer,
}: {
  form: UseFormReturn<OfferFormValues>;
  customerLookup: LookupSource;
  offer?: SalesOffer | undefined;
}) {
  const dossierType = useWatch({ control: form.control, name: 'dossierType' });
  return (
    <Stack gap="md">
      <Fieldset legend="Customer">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
          <LookupField
            form={form}
            name="customerId"
            label={L.customerId}
            source={customerLookup}
            knownOption={
              offer
                ? { value: offer.customer.id, label: `${offer.customer.name} (${offer.customer.code})` }
                : null
            }
            placeholder="Search customers"
            required
          />
          <TextField form={form} name="contactName" label={L.contactName} />
          <TextField
            form={form}
            name="contactEmail"
            label={L.contactEmail}
            type="email"
            hint="The offer is mailed here when sent"
          />
          <DateField form={form} name="validUntil" label={L.validUntil} min={offerToday()} required />
        </SimpleGrid>
      </Fieldset>

      <Fieldset legend="Route and terms">
        <SimpleGrid cols={{ base: 1, sm: 3, md: 6 }} spacing="sm">
          <TextField
            form={form}
            name="originLocode"
            label={L.originLocode}
            placeholder="CNSHA"
            maxLength={5}
            transform={upper}
            hint="UN/LOCODE"
          />
          <TextField
            form={form}
            name="destinationLocode"
            label={L.destinationLocode}
            placeholder="NLRTM"
            maxLength={5}
            transform={upper}
            hint="UN/LOCODE"
          />
          <SelectField
            form={form}
            name="mode"
            label={L.mode}
            data={MODE_OPTIONS}
            allowDeselect={false}
            required
          />
          <SelectField
            form={form}
            name="incoterm"
            label={L.incoterm}
            data={INCOTERM_OPTIONS}
            clearable
            searchable
          />
          <TextField form={form} name="incotermPlace" label={L.incotermPlace} />
          <SelectField
            form={form}
            name="dossierType"
            label={L.dossierType}
            data={TYPE_OPTIONS}
            allowDeselect={false}
            required
            description="Of the dossier booked on acceptance"
          />
        </SimpleGrid>
      </Fieldset>

      <Fieldset legend="Cargo">
        <Stack gap="sm">
          <TextareaField
            form={form}
            name="cargoDescription"
            label={L.cargoDescription}
            maxLength={2000}
            minRows={1}
          />
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            <TextField form={form} name="packages" label={L.packages} inputMode="numeric" />
            <TextField form={form} name="packageType" label={L.packageType} placeholder="pallets" />
            <TextField form={form} name="grossWeightKg" label={L.grossWeightKg} inputMode="decimal" />
            <TextField form={form} name="volumeM3" label={L.volumeM3} inputMode="decimal" />
          </SimpleGrid>
        </Stack>
      </Fieldset>

      <Fieldset legend="Lines">
        <OfferLinesEditor form={form} defaultVat={suggestedVat(dossierType)} />
      </Fieldset>

      <TextareaField
        form={form}
        name="notes"
        label={L.notes}
        description="For the team only: never shown to the customer or printed"
        maxLength={4000}
        minRows={1}
      />
    </Stack>
  );
}

export interface OfferFormProps {
  /** The draft being edited; none: a new offer. */
  offer?: SalesOffer | undefined;
  customerLookup: LookupSource;
  /** The customer's first contact, to prefill who the offer is for (the parties area provides it). */
  customerContact?: OfferContactSource | undefined;
  onSaved: (offer: SalesOffer) => void;
  onCancel?: (() => void) | undefined;
  /** Re-reads the offer after a conflict; the form then reapplies the user's changes on top. */
  reload?: (() => Promise<SalesOffer | undefined>) | undefined;
  keepsForm?: KeepsForm | undefined;
  /** Told when the form gets or loses unsaved changes (the detail holds Send back meanwhile). */
  onDirtyChange?: ((dirty: boolean) => void) | undefined;
}

/**
 * Staff create an offer and edit a draft with one form: salesOfferCreateSchema validates (an edit
 * sends what changed, the lines whole, with the version it started from), server errors land on their
 * fields (`lines.2.unitPrice` on line 3's unit price), a 409 offers to reload, Ctrl+S saves.
 */
export function OfferForm({
  offer,
  customerLookup,
  customerContact,
  onSaved,
  onCancel,
  reload,
  keepsForm,
  onDirtyChange,
}: OfferFormProps) {
  const form = useForm<OfferFormValues>({
    resolver,
    defaultValues: offer ? offerValues(offer) : emptyOfferValues(),
  });
  const create = useCreateOffer();
  const update = useUpdateOffer();
  const dirty = form.formState.isDirty;
  const guard = useUnsavedChangesGuard(dirty, keepsForm);
  const base = useRecordBase(form, offer, offerValues);
  useContactPrefill(form, customerContact);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  const submit = useRecordSubmit(
    form,
    async (values) => {
      const body = salesOfferCreateSchema.parse(offerInput(values));
      const saved = offer
        ? await update.mutateAsync({
            id: offer.id,
            body: {
              ...changedFields(body, form.formState.dirtyFields),
              version: base.version ?? offer.version,
            },
          })
        : await create.mutateAsync(body);
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
        fieldLabels={L}
        submitLabel={offer ? 'Save offer' : 'Create offer'}
        {...(onCancel ? { onCancel } : {})}
        label={offer ? `Edit offer ${offer.number}` : 'New offer'}
        testId="offer-form"
        {...(reload
          ? {
              onReload: async () => {
                const fresh = await reload();
                return fresh ? base.reapply(fresh) : undefined;
              },
            }
          : {})}
      >
        <OfferFields form={form} customerLookup={customerLookup} offer={offer} />
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}
