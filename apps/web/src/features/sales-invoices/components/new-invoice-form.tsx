import { BASE_CURRENCY, defaultVat, type SalesInvoice, salesInvoiceFromLinesSchema } from '@fvg/contracts';
import { SimpleGrid, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useWatch } from 'react-hook-form';
import { CustomerField, DossierLinkField } from '../../../components/records/form-fields.tsx';
import {
  RecordForm,
  type RecordFormWiring,
  useRecordForm,
} from '../../../components/records/record-form.tsx';
import type { CustomerDossierLookups } from '../../../components/records/record-select.tsx';
import { companyOptions } from '../../company/index.ts';
import { dossierOptions } from '../../dossiers/index.ts';
import { partyOptions } from '../../parties/index.ts';
import { useCreateInvoice } from '../api/sales-invoices-api.ts';
import { DraftFields, type DraftFormValues, draftInputOf } from './invoice-draft.tsx';
import type { VatDefault } from './invoice-lines.tsx';
import { INVOICE_FIELD_LABELS as L } from './invoice-meta.ts';

interface NewInvoiceValues extends DraftFormValues {
  customerId: string;
  dossierId: string;
}

const newInvoiceInput = (values: NewInvoiceValues) => ({
  ...draftInputOf(values),
  customerId: values.customerId,
  dossierId: values.dossierId || null,
});

const sameVat = (line: { vatCode: string; vatRate: string; exemptionReason: string }, vat: VatDefault) =>
  line.vatCode === vat.vatCode &&
  line.vatRate === (vat.vatRate ?? '') &&
  line.exemptionReason === (vat.exemptionReason ?? '');

export interface NewInvoiceFormProps extends RecordFormWiring<SalesInvoice>, CustomerDossierLookups {
  onSaved: (invoice: SalesInvoice) => void;
  onCancel: () => void;
}

/**
 * A draft invoice from scratch: customer, currency, an optional dossier and the lines. A new line's
 * VAT follows the customer's country and VAT number and the dossier's type (defaultVat); lines still
 * on the previous default follow when the customer or dossier changes.
 */
export function NewInvoiceForm({ customerLookup, dossierLookup, ...wiring }: NewInvoiceFormProps) {
  const invoice = useRecordForm({
    ...wiring,
    empty: (): NewInvoiceValues => ({
      customerId: '',
      dossierId: '',
      currency: BASE_CURRENCY,
      exchangeRate: '',
      supplyDate: '',
      buyerReference: '',
      orderReference: '',
      notes: '',
      lines: [],
      allowanceCharges: [],
    }),
    schema: salesInvoiceFromLinesSchema,
    toInput: newInvoiceInput,
    labels: L,
    body: newInvoiceInput,
    mutations: { create: useCreateInvoice() },
  });
  const { form } = invoice;
  const customerId = useWatch({ control: form.control, name: 'customerId' });
  const dossierId = useWatch({ control: form.control, name: 'dossierId' });
  const company = useQuery(companyOptions());
  const customer = useQuery({ ...partyOptions(customerId), enabled: customerId !== '' });
  const dossier = useQuery({ ...dossierOptions(dossierId), enabled: dossierId !== '' });
  const sellerCountry = company.data?.countryCode ?? 'NL';
  const vat = defaultVat({
    dossierType: dossierId ? (dossier.data?.type ?? null) : null,
    sellerCountry,
    buyerCountry: customer.data?.countryCode ?? sellerCountry,
    buyerVatNumber: customer.data?.vatNumber ?? null,
  });

  // Lines still carrying the previous default take the new one; lines the user changed keep theirs.
  const previous = useRef<VatDefault>(vat);
  const { vatCode, vatRate, exemptionReason } = vat;
  useEffect(() => {
    const before = previous.current;
    const next = { vatCode, vatRate, exemptionReason };
    previous.current = next;
    form.getValues('lines').forEach((line, i) => {
      if (!sameVat(line, before)) return;
      form.setValue(`lines.${i}.vatCode`, vatCode, { shouldDirty: true });
      form.setValue(`lines.${i}.vatRate`, vatRate ?? '', { shouldDirty: true });
      form.setValue(`lines.${i}.exemptionReason`, exemptionReason ?? '', { shouldDirty: true });
    });
  }, [vatCode, vatRate, exemptionReason, form]);

  return (
    <RecordForm of={invoice} submitLabel="Create draft" label="New invoice" testId="new-invoice-form">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <CustomerField form={form} name="customerId" label={L.customerId} source={customerLookup} />
          <DossierLinkField form={form} name="dossierId" label={L.dossierId} source={dossierLookup} />
        </SimpleGrid>
        <DraftFields form={form} vatDefault={vat} sellerCountry={sellerCountry} />
      </Stack>
    </RecordForm>
  );
}
