import { type Company, companyFormSchema, formatSeriesNumber, SERIES_KIND_LABELS } from '@fvg/contracts';
import { Fieldset, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type UseFormReturn, useForm } from 'react-hook-form';
import {
  DateField,
  SelectField,
  TextareaField,
  TextField,
} from '../../../components/records/form-fields.tsx';
import {
  contractResolver,
  RecordFormShell,
  useRecordBase,
  useRecordSubmit,
  useUnsavedChangesGuard,
} from '../../../components/records/record-form.tsx';
import { COUNTRY_OPTIONS } from '../../parties/index.ts';
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
      <Fieldset legend="Legal">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextField form={form} name="legalName" label="Legal name" required />
          <TextField
            form={form}
            name="registrationNumber"
            label="Registration number"
            hint="e.g. Chamber of Commerce number"
          />
          <TextField form={form} name="street" label="Street" />
          <TextField form={form} name="postalCode" label="Postal code" />
          <TextField form={form} name="city" label="City" />
          <SelectField
            form={form}
            name="countryCode"
            label="Country"
            data={COUNTRY_OPTIONS}
            searchable
            required
          />
          <TextField
            form={form}
            name="vatNumber"
            label="VAT number"
            transform={upper}
            hint="e.g. NL004495445B01; its check digits are verified"
          />
          <TextField form={form} name="eori" label="EORI number" transform={upper} hint="e.g. NL123456789" />
          <TextField form={form} name="email" label="Email" type="email" />
        </SimpleGrid>
      </Fieldset>
      <Fieldset legend="Bank">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextField
            form={form}
            name="iban"
            label="IBAN"
            transform={upper}
            hint="e.g. NL91 ABNA 0417 1643 00"
          />
          <TextField form={form} name="bic" label="BIC" transform={upper} hint="e.g. ABNANL2A" />
        </SimpleGrid>
      </Fieldset>
      <Fieldset legend="Peppol">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <SelectField
            form={form}
            name="peppolScheme"
            label="Scheme"
            data={PEPPOL_SCHEME_OPTIONS}
            clearable
          />
          <TextField
            form={form}
            name="peppolId"
            label="Endpoint id"
            hint="The number the scheme names, e.g. a KvK number"
          />
        </SimpleGrid>
      </Fieldset>
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
      <Fieldset legend="Warehouse (GS1)">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
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
        </SimpleGrid>
      </Fieldset>
      <Fieldset legend="Number series">
        <SeriesTable form={form} />
      </Fieldset>
    </Stack>
  );
}

const resolver = contractResolver<CompanyFormValues>(companyFormSchema, companyInput, COMPANY_FIELD_LABELS);

export interface CompanyFormProps {
  company: Company;
  /** Re-reads the settings after a conflict; the form then reapplies the user's changes. */
  reload: () => Promise<Company | undefined>;
}

/** The company settings, always in edit: contract validation, server errors on fields, 409 reload. */
export function CompanyForm({ company, reload }: CompanyFormProps) {
  const form = useForm<CompanyFormValues>({ resolver, defaultValues: companyValues(company) });
  const update = useUpdateCompany();
  const guard = useUnsavedChangesGuard(form.formState.isDirty);
  const base = useRecordBase(form, company, companyValues);

  const submit = useRecordSubmit(
    form,
    async (values) => {
      const body = companyFormSchema.parse(companyInput(values));
      const saved = await update.mutateAsync({ ...body, version: base.version ?? company.version });
      guard.release();
      base.restart(saved);
      notifications.show({ color: 'green', message: 'Company settings saved.' });
    },
    { labels: COMPANY_FIELD_LABELS },
  );

  return (
    <>
      <RecordFormShell
        form={form}
        submit={submit}
        fieldLabels={COMPANY_FIELD_LABELS}
        submitLabel="Save settings"
        label="Company settings"
        testId="company-form"
        onReload={async () => {
          const fresh = await reload();
          return fresh ? base.reapply(fresh) : undefined;
        }}
      >
        <CompanyFields form={form} />
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}
