import { BASE_CURRENCY, type SalesInvoice, salesInvoiceUpdateSchema } from '@fvg/contracts';
import { Group, SimpleGrid, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { type FieldValues, type UseFormReturn, useForm, useWatch } from 'react-hook-form';
import { DateField, TextareaField, TextField } from '../../../components/records/form-fields.tsx';
import { LineItemsEditor } from '../../../components/records/line-items-editor.tsx';
import { DecimalField } from '../../../components/records/money-field.tsx';
import {
  contractResolver,
  RecordFormShell,
  useRecordBase,
  useRecordSubmit,
  useUnsavedChangesGuard,
} from '../../../components/records/record-form.tsx';
import { useUpdateInvoice } from '../api/sales-invoices-api.ts';
import {
  DocumentAllowanceCharges,
  type DocumentAllowanceChargeValue,
  documentAllowanceChargeInputOf,
  documentAllowanceChargeValueOf,
  type InvoiceLineValue,
  InvoiceTotals,
  invoiceLineColumns,
  lineAllowanceChargeDetails,
  lineInputOf,
  lineValueOf,
  liveTotals,
  newInvoiceLine,
  useVatCodeFollowers,
  type VatDefault,
} from './invoice-lines.tsx';
import { INVOICE_FIELD_LABELS as L } from './invoice-meta.ts';

/** The draft as the form holds it: text everywhere, '' for empty. */
export interface DraftFormValues extends FieldValues {
  currency: string;
  exchangeRate: string;
  supplyDate: string;
  buyerReference: string;
  orderReference: string;
  notes: string;
  lines: InvoiceLineValue[];
  /** Discounts and surcharges on the whole invoice. */
  allowanceCharges: DocumentAllowanceChargeValue[];
}

export function draftValuesOf(invoice: SalesInvoice): DraftFormValues {
  return {
    currency: invoice.currency,
    exchangeRate: invoice.exchangeRate ?? '',
    supplyDate: invoice.supplyDate ?? '',
    buyerReference: invoice.buyerReference ?? '',
    orderReference: invoice.orderReference ?? '',
    notes: invoice.notes ?? '',
    lines: invoice.lines.map(lineValueOf),
    allowanceCharges: invoice.allowanceCharges.map(documentAllowanceChargeValueOf),
  };
}

/** What the API takes: empties → null, the rate only for another currency, lines as inputs. */
export function draftInputOf(values: DraftFormValues) {
  const currency = values.currency.trim().toUpperCase();
  return {
    currency,
    exchangeRate: currency === BASE_CURRENCY || values.exchangeRate === '' ? null : values.exchangeRate,
    supplyDate: values.supplyDate || null,
    buyerReference: values.buyerReference.trim() || null,
    orderReference: values.orderReference.trim() || null,
    notes: values.notes.trim() || null,
    lines: values.lines.map(lineInputOf),
    allowanceCharges: (values.allowanceCharges ?? []).map(documentAllowanceChargeInputOf),
  };
}

// The version is the edit lock's: the save adds it, the form's values are checked without it.
const resolver = contractResolver<DraftFormValues>(
  salesInvoiceUpdateSchema.omit({ version: true }),
  draftInputOf,
  L,
);

export interface DraftFieldsProps<T extends DraftFormValues> {
  form: UseFormReturn<T>;
  /** The VAT a new line starts with (from the customer, the dossier type and the company's country). */
  vatDefault: VatDefault;
  /** The company's country: S lines take its standard rate. */
  sellerCountry: string;
}

/**
 * The draft's fields: currency (and the exchange rate when it is not the base currency), supply date,
 * references, internal notes, then the lines with the VAT summary and totals computed as they are typed.
 */
export function DraftFields<T extends DraftFormValues>({
  form: typed,
  vatDefault,
  sellerCountry,
}: DraftFieldsProps<T>) {
  // The fields below are DraftFormValues' own; a form with more fields (new invoice) is one too.
  const form = typed as unknown as UseFormReturn<DraftFormValues>;
  const currency = (useWatch({ control: form.control, name: 'currency' }) ?? '').trim().toUpperCase();
  const exchangeRate = useWatch({ control: form.control, name: 'exchangeRate' });
  const lines = useWatch({ control: form.control, name: 'lines' }) ?? [];
  const allowanceCharges = useWatch({ control: form.control, name: 'allowanceCharges' }) ?? [];
  const totals = liveTotals(lines, allowanceCharges);
  const shownCurrency = /^[A-Z]{3}$/.test(currency) ? currency : BASE_CURRENCY;
  useVatCodeFollowers(form, 'lines', sellerCountry);
  const columns = useMemo(() => invoiceLineColumns(shownCurrency), [shownCurrency]);
  const details = useMemo(
    () => lineAllowanceChargeDetails(form, 'lines', shownCurrency),
    [form, shownCurrency],
  );
  const foreign = /^[A-Z]{3}$/.test(currency) && currency !== BASE_CURRENCY;

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        <TextField
          form={form}
          name="currency"
          label={L.currency}
          maxLength={3}
          transform={(v) => v.toUpperCase()}
          required
        />
        {foreign && (
          <DecimalField
            form={form}
            name="exchangeRate"
            label={`${L.exchangeRate} (${BASE_CURRENCY} per ${currency})`}
            decimals={6}
            required
          />
        )}
        <DateField form={form} name="supplyDate" label={L.supplyDate} />
        <TextField form={form} name="buyerReference" label={L.buyerReference} maxLength={100} />
        <TextField form={form} name="orderReference" label={L.orderReference} maxLength={100} />
      </SimpleGrid>
      <LineItemsEditor
        form={form}
        name="lines"
        columns={columns}
        newLine={(previous) => newInvoiceLine(vatDefault, previous)}
        itemName="line"
        emptyTitle="No lines yet"
        emptyHint="Add what you bill: freight, terminal handling, customs clearance…"
        details={details}
        testId="invoice-lines"
      />
      <DocumentAllowanceCharges
        form={form}
        currency={shownCurrency}
        vatOfNew={() => {
          const first = form.getValues('lines')[0];
          return first
            ? { vatCode: first.vatCode, vatRate: first.vatRate }
            : { vatCode: vatDefault.vatCode, vatRate: vatDefault.vatRate ?? '' };
        }}
        footer={
          <InvoiceTotals
            totals={totals}
            allowanceCharges={allowanceCharges.flatMap((v) => {
              const ac = documentAllowanceChargeInputOf(v);
              return /^\d+(\.\d+)?$/.test(ac.amount) ? [ac] : [];
            })}
            currency={shownCurrency}
            exchangeRate={foreign ? exchangeRate : null}
            testId="live-totals"
          />
        }
      />
      <Group>
        <TextareaField
          form={form}
          name="notes"
          label={L.notes}
          description="For your colleagues: never printed, never shown to the customer"
          maxLength={2000}
          style={{ flex: 1 }}
        />
      </Group>
    </Stack>
  );
}

/** The draft's form, shared by its editor and the issue action (which saves unsaved changes first). */
export function useDraftForm(invoice: SalesInvoice, invoiceKey: string) {
  const form = useForm<DraftFormValues>({ resolver, defaultValues: draftValuesOf(invoice) });
  const base = useRecordBase(form, invoice, draftValuesOf);
  const update = useUpdateInvoice(invoiceKey);
  const save = async (values: DraftFormValues) => {
    const saved = await update.mutateAsync({
      id: invoice.id,
      body: { ...draftInputOf(values), version: base.version ?? invoice.version },
    });
    base.restart(saved);
    return saved;
  };
  const submit = useRecordSubmit(
    form,
    async (values) => {
      await save(values);
    },
    { labels: L },
  );
  return { form, base, submit, save };
}
export type DraftForm = ReturnType<typeof useDraftForm>;

export interface DraftEditorProps {
  invoice: SalesInvoice;
  draft: DraftForm;
  vatDefault: VatDefault;
  reload: () => Promise<SalesInvoice | undefined>;
  keepsForm?: (next: { pathname: string; search: Record<string, unknown> }) => boolean;
  /** Above the form: the banner naming what to fix before issuing. */
  banner?: React.ReactNode;
}

/** Staff edit a draft: header fields and lines, totals live, saved with the draft's version. */
export function DraftEditor({ invoice, draft, vatDefault, reload, keepsForm, banner }: DraftEditorProps) {
  const { form, base, submit } = draft;
  const guard = useUnsavedChangesGuard(form.formState.isDirty, keepsForm);
  return (
    <>
      <RecordFormShell
        form={form}
        submit={submit}
        submitLabel="Save draft"
        label={invoice.kind === 'credit_note' ? 'Credit note draft' : 'Invoice draft'}
        testId="invoice-draft-form"
        fieldLabels={L}
        onReload={async () => {
          const fresh = await reload();
          return fresh ? base.reapply(fresh) : undefined;
        }}
        {...(form.formState.isDirty ? { onCancel: () => form.reset() } : {})}
      >
        {banner}
        <DraftFields form={form} vatDefault={vatDefault} sellerCountry={invoice.seller.countryCode ?? 'NL'} />
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}
