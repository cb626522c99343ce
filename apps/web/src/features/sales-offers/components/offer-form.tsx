import {
  type DOSSIER_TYPES,
  defaultVat,
  offerToday,
  type SalesOffer,
  salesOfferCreateSchema,
} from '@fvg/contracts';
import { Fieldset, SimpleGrid, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
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

/**
 * What the form reads of the customer party (the parties area provides it): who the offer is for (its
 * first contact) and where the customer is, for the lines' default VAT.
 */
export interface OfferCustomerInfo {
  contactName: string | null;
  contactEmail: string | null;
  countryCode: string | null;
  vatNumber: string | null;
}

export type OfferCustomerSource = (
  customerId: string,
  signal?: AbortSignal,
) => Promise<OfferCustomerInfo | null>;

type KeepsForm = (next: { pathname: string; search: Record<string, unknown> }) => boolean;
type Buyer = Pick<OfferCustomerInfo, 'countryCode' | 'vatNumber'>;

const upper = (value: string) => value.toUpperCase();
const resolver = contractResolver<OfferFormValues>(salesOfferCreateSchema, offerInput, L);

/**
 * Reads the customer when it is picked (and a draft's own at the start): its first contact fills the
 * contact fields unless the user typed their own; its country and VAT number set the lines' default VAT.
 */
function useCustomerInfo(
  form: UseFormReturn<OfferFormValues>,
  source: OfferCustomerSource | undefined,
): Buyer | null {
  const customerId = useWatch({ control: form.control, name: 'customerId' });
  const started = useRef(customerId);
  const prefilled = useRef({ contactName: '', contactEmail: '' });
  const [buyer, setBuyer] = useState<Buyer | null>(null);
  useEffect(() => {
    if (!source || !customerId) return;
    const picked = customerId !== started.current;
    started.current = customerId;
    const controller = new AbortController();
    void source(customerId, controller.signal)
      .then((info) => {
        if (controller.signal.aborted) return;
        setBuyer(info ? { countryCode: info.countryCode, vatNumber: info.vatNumber } : null);
        if (!picked) return;
        for (const name of ['contactName', 'contactEmail'] as const) {
          const now = form.getValues(name);
          // Replace what is empty or what the previous customer's contact put there, never a typed value.
          if (now !== '' && now !== prefilled.current[name]) continue;
          form.setValue(name, info?.[name] ?? '', { shouldDirty: true });
          prefilled.current[name] = info?.[name] ?? '';
        }
      })
      .catch(() => {
        // Nothing to prefill: the user types the contact; lines start from the seller's standard rate.
      });
    return () => controller.abort();
  }, [customerId, source, form]);
  return buyer;
}

function OfferFields({
  form,
  customerLookup,
  offer,
  buyer,
  sellerCountry,
}: {
  form: UseFormReturn<OfferFormValues>;
  customerLookup: LookupSource;
  offer?: SalesOffer | undefined;
  buyer: Buyer | null;
  sellerCountry: string | null;
}) {
  const dossierType = useWatch({ control: form.control, name: 'dossierType' });
  // A new line's VAT follows the law's defaults (contracts' vat-rules): export or import exempt, a
  // business elsewhere in the EU reverse-charged, outside the EU out of scope, else the standard rate.
  const vat = defaultVat({
    dossierType: (dossierType || null) as (typeof DOSSIER_TYPES)[number] | null,
    sellerCountry: sellerCountry ?? '',
    buyerCountry: buyer?.countryCode ?? '',
    buyerVatNumber: buyer?.vatNumber ?? null,
  });
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
          <TextField form={form} name="contactEmail" label={L.contactEmail} type="email" />
          <DateField form={form} name="validUntil" label={L.validUntil} min={offerToday()} required />
        </SimpleGrid>
      </Fieldset>

      <Fieldset legend="Route and terms">
        <SimpleGrid cols={{ base: 1, sm: 3, md: 6 }} spacing="sm">
          <TextField
            form={form}
            name="originLocode"
            label={L.originLocode}
            placeholder="UN/LOCODE"
            maxLength={5}
            transform={upper}
          />
          <TextField
            form={form}
            name="destinationLocode"
            label={L.destinationLocode}
            placeholder="UN/LOCODE"
            maxLength={5}
            transform={upper}
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
        <OfferLinesEditor form={form} defaultVat={vat} sellerCountry={sellerCountry} />
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
  /** The picked customer's first contact, country and VAT number (the parties area provides it). */
  customerInfo?: OfferCustomerSource | undefined;
  /** The company's country: a standard-rated line takes its rate (company settings provide it). */
  sellerCountry?: string | null | undefined;
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
  customerInfo,
  sellerCountry = null,
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
  const buyer = useCustomerInfo(form, customerInfo);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  // A draft edited in place has no dialog to close: Cancel puts back what is saved.
  const cancel = onCancel ?? (offer && dirty ? () => form.reset() : undefined);

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
        {...(cancel ? { onCancel: cancel } : {})}
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
        <OfferFields
          form={form}
          customerLookup={customerLookup}
          offer={offer}
          buyer={buyer}
          sellerCountry={sellerCountry}
        />
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}
