import { type Company, companyFormSchema, formatSeriesNumber, SERIES_KIND_LABELS } from '@fvg/contracts';
import { Fieldset, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { UseFormReturn } from 'react-hook-form';
import {
  AddressFields,
  CountryField,
  PeppolFields,
  TaxIdFields,
} from '../../../components/records/address-fields.tsx';
import {
  DateField,
  FormSection,
  SelectField,
  TextareaField,
  TextField,
} from '../../../components/records/form-fields.tsx';
import { RecordForm, useRecordForm } from '../../../components/records/record-form.tsx';
import { useUpdateCompany } from '../api/company-api.ts';
import {
  COMPANY_FIELD_LABELS,
  type CompanyFormValues,
  companyInput,
  companyValues,
  PEPPOL_SCHEME_OPTIONS,
} from './company-form-values.ts';

const upper = (value: string) => value.toUpperCase();

/** The number series: one row per kind with its prefix and the next number of the year shown. */
function SeriesTable({ form }: { form: UseFormReturn<CompanyFormValues> }) {
  const series = form.watch('series');
  return (
    <Table withTableBorder verticalSpacing={4} data-testid="series-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Series</Table.Th>
          <Table.Th w={160}>Prefix</Table.Th>
          <Table.Th w={160}>Next number</Table.Th>
          <Table.Th>Reason for a new number</Table.Th>
          <Table.Th>Last issued</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {series.map((s, index) => (
          <Table.Tr key={s.kind} data-testid={`series-${s.kind}`}>
            <Table.Td>{SERIES_KIND_LABELS[s.kind]}</Table.Td>
            <Table.Td>
              <TextField
                form={form}
                name={`series.${index}.prefix`}
                aria-label={`${SERIES_KIND_LABELS[s.kind]} prefix`}
                transform={upper}
              />
            </Table.Td>
            <Table.Td>
              <TextField
                form={form}
                name={`series.${index}.nextNumber`}
                aria-label={`${SERIES_KIND_LABELS[s.kind]} next number in ${s.year}`}
                inputMode="numeric"
              />
            </Table.Td>
            <Table.Td>
              <TextField
                form={form}
                name={`series.${index}.reason`}
                aria-label={`Why the ${SERIES_KIND_LABELS[s.kind]} next number changes`}
                placeholder="If the number changes"
              />
            </Table.Td>
            <Table.Td>
              <Text size="sm" c="dimmed">
                {s.lastIssued > 0 ? formatSeriesNumber(s.prefix, s.year, s.lastIssued) : `None in ${s.year}`}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function CompanyFields({ form }: { form: UseFormReturn<CompanyFormValues> }) {
  return (
    <Stack gap="md">
      <FormSection legend="Legal">
        <TextField form={form} name="legalName" label="Legal name" required />
        <TextField
          form={form}
          name="registrationNumber"
          label="Registration number"
          hint="e.g. Chamber of Commerce number"
        />
        <AddressFields form={form} />
        <CountryField form={form} />
        <TaxIdFields form={form} eoriLabel="EORI number" />
        <TextField form={form} name="email" label="Email" type="email" />
      </FormSection>
      <FormSection legend="Bank">
        <TextField
          form={form}
          name="iban"
          label="IBAN"
          transform={upper}
          hint="e.g. NL91 ABNA 0417 1643 00"
        />
        <TextField form={form} name="bic" label="BIC" transform={upper} hint="e.g. ABNANL2A" />
      </FormSection>
      <FormSection legend="Peppol">
        <PeppolFields
          form={form}
          schemes={PEPPOL_SCHEME_OPTIONS}
          idHint="The number the scheme names, e.g. a KvK number"
        />
      </FormSection>
      <Fieldset legend="Invoicing">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <SelectField
            form={form}
            name="baseCurrency"
            label="Base currency"
            data={[{ value: 'EUR', label: 'EUR — euro' }]}
            required
          />
          <TextField
            form={form}
            name="paymentTermsDays"
            label="Payment terms (days)"
            inputMode="numeric"
            required
          />
        </SimpleGrid>
        <TextareaField form={form} name="invoiceFooter" label="Invoice footer" mt="sm" minRows={3} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="sm">
          <DateField
            form={form}
            name="booksClosedUpTo"
            label="Books closed up to"
            hint="Nothing is issued, paid or credited on or before this day; empty: no period closed"
          />
        </SimpleGrid>
      </Fieldset>
      <FormSection legend="Warehouse (GS1)">
        <TextField
          form={form}
          name="gs1CompanyPrefix"
          label="GS1 company prefix"
          inputMode="numeric"
          maxLength={14}
          hint="6 to 12 digits from GS1; pallets received without an SSCC get one under it"
        />
        <TextField
          form={form}
          name="ssccExtensionDigit"
          label="SSCC extension digit"
          inputMode="numeric"
          maxLength={1}
          hint="0–9, the SSCC's first digit"
        />
      </FormSection>
      <Fieldset legend="Number series">
        <SeriesTable form={form} />
      </Fieldset>
    </Stack>
  );
}

export interface CompanyFormProps {
  company: Company;
  /** Re-reads the settings after a conflict; the form then reapplies the user's changes. */
  reload: () => Promise<Company | undefined>;
}

/** The company settings, always in edit: contract validation, server errors on fields, 409 reload. */
export function CompanyForm({ company, reload }: CompanyFormProps) {
  const update = useUpdateCompany();
  const record = useRecordForm({
    record: company,
    valuesOf: companyValues,
    schema: companyFormSchema,
    toInput: companyInput,
    labels: COMPANY_FIELD_LABELS,
    reload,
    update: (body, { version }) => update.mutateAsync({ ...body, version }),
    onSaved: () => notifications.show({ color: 'green', message: 'Company settings saved.' }),
  });
  return (
    <RecordForm of={record} submitLabel="Save settings" label="Company settings" testId="company-form">
      <CompanyFields form={record.form} />
    </RecordForm>
  );
}
