import {
  type DOSSIER_TYPES,
  defaultVat,
  offerToday,
  type SalesOffer,
  salesOfferCreateSchema,
} from '@fvg/contracts';
import { Fieldset, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { type UseFormReturn, useWatch } from 'react-hook-form';
import {
  CargoFields,
  CustomerField,
  DateField,
  FormSection,
  IncotermFields,
  type LookupSource,
  RecordForm,
  type RecordFormWiring,
  RouteFields,
  SelectField,
  TextareaField,
  TextField,
  useRecordForm,
} from '../../../components/records/form.ts';
import { useCreateOffer, useUpdateOffer } from '../api/sales-offers-api.ts';
import { emptyOfferValues, type OfferFormValues, offerInput, offerValues } from './offer-form-values.ts';
import { OfferLinesEditor } from './offer-lines.tsx';
import { OFFER_FIELD_LABELS as L, MODE_OPTIONS, TYPE_OPTIONS } from './offer-meta.ts';

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

type Buyer = Pick<OfferCustomerInfo, 'countryCode' | 'vatNumber'>;

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
  // A choice the offer cannot do without (no empty option).
  const required = (name: 'mode' | 'dossierType', data: readonly { value: string; label: string }[]) => (
    <SelectField form={form} name={name} label={L[name]} data={data} allowDeselect={false} required />
  );
  return (
    <Stack gap="md">
      <FormSection legend="Customer" cols={{ base: 1, sm: 2, md: 4 }}>
        <CustomerField
          form={form}
          name="customerId"
          label={L.customerId}
          source={customerLookup}
          knownOption={
            offer
              ? { value: offer.customer.id, label: `${offer.customer.name} (${offer.customer.code})` }
              : null
          }
        />
        <TextField form={form} name="contactName" label={L.contactName} />
        <TextField form={form} name="contactEmail" label={L.contactEmail} type="email" />
        <DateField form={form} name="validUntil" label={L.validUntil} min={offerToday()} required />
      </FormSection>

      <FormSection legend="Route and terms" cols={{ base: 1, sm: 3, md: 6 }}>
        <RouteFields form={form} labels={L} />
        {required('mode', MODE_OPTIONS)}
        <IncotermFields form={form} labels={L} />
        {required('dossierType', TYPE_OPTIONS)}
      </FormSection>

      <Fieldset legend="Cargo">
        <CargoFields form={form} labels={L} cols={{ base: 2, sm: 4 }} minRows={1} />
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

export interface OfferFormProps extends RecordFormWiring<SalesOffer> {
  /** The draft being edited; none: a new offer. */
  offer?: SalesOffer | undefined;
  customerLookup: LookupSource;
  /** The picked customer's first contact, country and VAT number (the parties area provides it). */
  customerInfo?: OfferCustomerSource | undefined;
  /** The company's country: a standard-rated line takes its rate (company settings provide it). */
  sellerCountry?: string | null | undefined;
  onSaved: (offer: SalesOffer) => void;
  /** Told when the form gets or loses unsaved changes (the detail holds Send back meanwhile). */
  onDirtyChange?: ((dirty: boolean) => void) | undefined;
}

/**
 * Staff create an offer and edit a draft with one form: salesOfferCreateSchema validates (an edit
 * sends what changed, the lines whole, with the version it started from), server errors land on their
 * fields (`lines.2.unitPrice` on line 3's unit price), a 409 offers to reload, Ctrl+S saves. A draft
 * edited in place has no dialog to close: Cancel puts back what is saved.
 */
export function OfferForm({
  offer,
  customerLookup,
  customerInfo,
  sellerCountry = null,
  onDirtyChange,
  ...wiring
}: OfferFormProps) {
  const record = useRecordForm({
    ...wiring,
    record: offer,
    valuesOf: offerValues,
    empty: () => emptyOfferValues(),
    schema: salesOfferCreateSchema,
    toInput: offerInput,
    labels: L,
    inPlace: true,
    mutations: { create: useCreateOffer(), update: useUpdateOffer() },
  });
  const { form } = record;
  const dirty = form.formState.isDirty;
  const buyer = useCustomerInfo(form, customerInfo);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  return (
    <RecordForm of={record} noun="offer" reference={offer?.number}>
      <OfferFields
        form={form}
        customerLookup={customerLookup}
        offer={offer}
        buyer={buyer}
        sellerCountry={sellerCountry}
      />
    </RecordForm>
  );
}
