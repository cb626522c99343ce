import {
  ADDITIONAL_INFORMATION_LABELS,
  AUTHORISATION_TYPE_LABELS,
  type AuthorisationType,
  type DeclarationType,
  transitAmountAtStake,
} from '@fvg/contracts';
import { Button, Fieldset, Group, type SelectProps, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconUserSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type FieldPath, type UseFormReturn, useWatch } from 'react-hook-form';
import {
  DateField,
  HINT_BELOW,
  SelectField,
  SwitchField,
  TagsField,
  TextareaField,
  TextField,
} from '../../../components/records/form-fields.tsx';
import { DecimalField, MoneyField } from '../../../components/records/money-field.tsx';
import { RecordSelect } from '../../../components/records/record-select.tsx';
import { RowListField } from '../../../components/records/row-list-field.tsx';
import { COUNTRY_OPTIONS } from '../../../lib/countries.ts';
import { INCOTERM_OPTIONS } from '../../dossiers/index.ts';
import { anyPartyLookup, partyOptions } from '../../parties/index.ts';
import { CustomsRateHint } from './customs-rate-hint.tsx';
import { DataElementLabel } from './data-element-label.tsx';
import { type DeclarationFormValues, emptyParty, type PartyKey } from './declaration-form.ts';
import classes from './declaration-header.module.css';
import { eur } from './declaration-list-config.tsx';
import {
  authorisationOptionsOf,
  GUARANTEE_TYPE_OPTIONS,
  DECLARATION_FIELD_LABELS as L,
  LOCATION_QUALIFIER_OPTIONS,
  LOCATION_TYPE_OPTIONS,
  METHOD_OF_PAYMENT_OPTIONS,
  REPRESENTATIVE_STATUS_OPTIONS,
  TRANSPORT_MODE_OPTIONS,
} from './declaration-meta.ts';

type Form = UseFormReturn<DeclarationFormValues>;
const upper = (v: string) => v.toUpperCase();

/** The party roles each type carries, in the order a broker reads them. */
const PARTIES_OF_TYPE: Record<DeclarationType, readonly PartyKey[]> = {
  import: ['consignee', 'consignor', 'declarant', 'representative'],
  export: ['consignor', 'consignee', 'declarant', 'representative'],
  transit: ['holder', 'consignor', 'consignee', 'declarant', 'representative'],
};

type Name = FieldPath<DeclarationFormValues>;
interface FieldOptions {
  /** The field's label when it is not L[name] (a party's fields, a label per type). */
  label?: string;
  /** Help under the field while it is edited. */
  hint?: string;
}

/**
 * The header's fields by kind, declared by name and length: texts, codes (upper case, monospace),
 * choices (clearable while edited) and countries. Read-only, hints give way to the values.
 */
function fieldsOf(form: Form, readOnly: boolean) {
  const labelOf = (name: Name, options: FieldOptions) => (
    <DataElementLabel field={name}>{options.label ?? L[name] ?? name}</DataElementLabel>
  );
  const text = (
    name: Name,
    maxLength: number,
    options: FieldOptions & { transform?: (v: string) => string; ff?: 'monospace' } = {},
  ) => (
    <TextField
      form={form}
      name={name}
      label={labelOf(name, options)}
      maxLength={maxLength}
      {...(options.transform ? { transform: options.transform } : {})}
      {...(options.ff ? { ff: options.ff } : {})}
      {...(options.hint && !readOnly ? { hint: options.hint } : {})}
    />
  );
  const choice = (
    name: Name,
    data: SelectProps['data'],
    options: FieldOptions & { searchable?: boolean } = {},
  ) => (
    <SelectField
      form={form}
      name={name}
      label={labelOf(name, options)}
      data={data}
      {...(options.searchable ? { searchable: true } : {})}
      clearable={!readOnly}
    />
  );
  return {
    text,
    choice,
    code: (name: Name, maxLength: number, options: FieldOptions = {}) =>
      text(name, maxLength, { ...options, transform: upper, ff: 'monospace' }),
    country: (name: Name, options: FieldOptions = {}) =>
      choice(name, COUNTRY_OPTIONS, { ...options, searchable: true }),
  };
}

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId: string }) {
  return (
    <Stack gap="xs" data-testid={`section-${testId}`}>
      <Title order={4}>{title}</Title>
      {children}
    </Stack>
  );
}

/**
 * One party of the declaration (SAD boxes 2, 8, 14, 50): taken from a party record (its name, address
 * and EORI copied in) or typed. The copy is what is lodged; the record can change later.
 */
function PartyFields({ form, role, readOnly }: { form: Form; role: PartyKey; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const f = fieldsOf(form, readOnly);
  const [picking, setPicking] = useState(false);
  const take = async (id: string | null) => {
    if (!id) return;
    setPicking(true);
    try {
      const party = await queryClient.fetchQuery(partyOptions(id));
      const set = (key: string, value: string | null) =>
        form.setValue(`${role}.${key}` as never, (value ?? '') as never, {
          shouldDirty: true,
          shouldValidate: true,
        });
      set('partyId', party.id);
      set('name', party.name);
      set('street', party.street);
      set('postalCode', party.postalCode);
      set('city', party.city);
      set('countryCode', party.countryCode);
      set('eori', party.eori);
    } finally {
      setPicking(false);
    }
  };
  return (
    <Fieldset legend={L[role]} data-testid={`party-${role}`} variant="filled" p="sm">
      <Stack gap="xs">
        {!readOnly && (
          <Group gap="xs" wrap="nowrap">
            <RecordSelect
              source={anyPartyLookup}
              value={null}
              onChange={(id) => void take(id)}
              placeholder="Take from a party…"
              leftSection={<IconUserSearch size={16} aria-hidden />}
              disabled={picking}
              aria-label={`${L[role]}: take from a party`}
              data-testid={`party-pick-${role}`}
              style={{ flex: 1 }}
            />
            <Button
              variant="subtle"
              color="gray"
              size="xs"
              onClick={() => form.setValue(role, emptyParty(), { shouldDirty: true, shouldValidate: true })}
              data-testid={`party-clear-${role}`}
            >
              Clear
            </Button>
          </Group>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs">
          {f.text(`${role}.name`, 200, { label: L.name })}
          {f.code(`${role}.eori`, 17, { label: L.eori, hint: 'Country prefix and number, e.g. NL812345678' })}
          {f.text(`${role}.street`, 200, { label: L.street })}
          <SimpleGrid cols={2} spacing="xs">
            {f.text(`${role}.postalCode`, 20, { label: L.postalCode })}
            {f.text(`${role}.city`, 100, { label: L.city })}
          </SimpleGrid>
          {f.country(`${role}.countryCode`, { label: L.countryCode })}
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
}

export interface DeclarationHeaderProps {
  form: Form;
  type: DeclarationType;
  readOnly: boolean;
  /** Internal notes are staff's; customers never get them. */
  staff: boolean;
  /** The month whose customs rate applies (`YYYY-MM`): of the lodging once lodged, else this month. */
  rateMonth?: string;
}

/**
 * The header of a declaration by section: parties, offices, transport, location of goods, financial
 * (import and export), guarantee (transit). Read-only once lodged (and for customers): the same
 * fields, disabled, so the screen looks the same before and after.
 */
/**
 * The amount the guarantee covers, with what it must cover at least under it: the duties and taxes at
 * stake on the items as entered (the shared lodging rule, UCC art. 89–90), live as the items change.
 */
function GuaranteeAmount({ form }: { form: Form }) {
  const items = useWatch({ control: form.control, name: 'items' });
  const atStake = transitAmountAtStake(items ?? []);
  return (
    <MoneyField
      form={form}
      name="guaranteeAmount"
      label={`${L.guaranteeAmount} (EUR)`}
      currency="EUR"
      // Under the input, so the three guarantee inputs stay on one line.
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      description={
        atStake === null
          ? 'At least the duties and taxes at stake: enter the items’ values and rates'
          : `At least the duties and taxes at stake: ${eur(atStake)}`
      }
    />
  );
}

/** How the identification of DE 5/23 reads under each qualifier: the hint and an example. */
const LOCATION_HINTS: Record<string, string> = {
  U: 'A UN/LOCODE, e.g. NLRTM',
  V: 'A customs office, e.g. NL000396',
  X: 'An EORI number, e.g. NL812345678',
  Y: 'The authorisation number, e.g. NLC521RTM0042',
  Z: 'The address, e.g. ECT Delta terminal, Maasvlakte',
  T: 'Postcode and house number',
  W: 'Latitude and longitude',
};

/** DE 5/23's identification, its hint following the qualifier chosen beside it. */
function LocationIdentification({ form, readOnly }: { form: Form; readOnly: boolean }) {
  const qualifier = useWatch({ control: form.control, name: 'locationOfGoodsQualifier' }) ?? '';
  const f = fieldsOf(form, readOnly);
  return f.text('locationOfGoods', 70, {
    label: 'Identification of the location',
    hint: LOCATION_HINTS[qualifier] ?? 'Where customs can examine the goods',
  });
}

/**
 * A transit's seals (DE 7/18: their number is the count), each on one of the items' containers or on
 * the vehicle, and the limit date by which the goods are due at the office of destination.
 */
function SealsSection({ form, readOnly }: { form: Form; readOnly: boolean }) {
  const items = useWatch({ control: form.control, name: 'items' }) ?? [];
  const containers = [...new Set(items.flatMap((i) => i.containers ?? []))].map((c) => ({
    value: c,
    label: c,
  }));
  return (
    <Section title="Seals and time limit" testId="seals">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <RowListField
          form={form}
          name="seals"
          title={<DataElementLabel field="seals">Seals</DataElementLabel>}
          itemName="seal"
          hint={
            containers.length
              ? 'Each on its container, or on the vehicle'
              : 'On the vehicle or the load compartment'
          }
          columns={[
            {
              key: 'identifier',
              label: 'Seal number',
              kind: 'text',
              maxLength: 20,
              code: true,
              transform: upper,
              grow: 1,
            },
            {
              key: 'container',
              label: 'Container of seal',
              kind: 'select',
              options: containers,
              clearable: true,
              placeholder: 'Vehicle (no container)',
              grow: 1,
            },
          ]}
          newRow={() => ({
            identifier: '',
            container: containers.length === 1 ? (containers[0]?.value ?? '') : '',
          })}
          describe={(s) =>
            `${s.identifier} — ${s.container ? `on container ${s.container}` : 'on the vehicle'}`
          }
          readOnly={readOnly}
          testIds={{ list: 'seals', add: 'add-seal', remove: (i) => `remove-seal-${i}` }}
        />
        <DateField
          form={form}
          name="limitDate"
          label={L.limitDate}
          // Read-only, the date shows without its clear button (like the selects).
          clearable={!readOnly}
          hint={readOnly ? undefined : 'When the goods are due at the office of destination'}
          maw={240}
        />
      </SimpleGrid>
    </Section>
  );
}

const APPORTIONMENT_OPTIONS = [
  { value: 'value', label: 'Value of the items' },
  { value: 'mass', label: 'Net mass of the items' },
];

/**
 * The consignment's additions and deductions (DE 4/9, UCC art. 71–72), in EUR: split over the items by
 * value or by net mass, each item's share shown in its details with the whole build-up.
 */
function ValuationAdjustments({ form, readOnly }: { form: Form; readOnly: boolean }) {
  const f = fieldsOf(form, readOnly);
  const money = (name: Name) => (
    <MoneyField
      form={form}
      name={name}
      label={<DataElementLabel field={name}>{`${L[name]} (EUR)`}</DataElementLabel>}
      currency="EUR"
    />
  );
  return (
    <Fieldset
      legend="Customs value: additions and deductions"
      variant="filled"
      p="sm"
      data-testid="valuation-adjustments"
    >
      <Stack gap="xs">
        {!readOnly && (
          <Text size="xs" c="dimmed">
            Costs of the whole consignment, split over the items; an item at its transaction value (method 1)
            then carries its price at the exchange rate plus its share.
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          {money('additionTransportInsurance')}
          {money('additionCommissions')}
          {money('additionPacking')}
          {money('deductionTransportAfterEntry')}
          {money('deductionDuties')}
          {f.choice('apportionment', APPORTIONMENT_OPTIONS)}
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
}

export function DeclarationHeader({ form, type, readOnly, staff, rateMonth }: DeclarationHeaderProps) {
  const currency = (useWatch({ control: form.control, name: 'currency' }) ?? '').trim().toUpperCase();
  const foreign = /^[A-Z]{3}$/.test(currency) && currency !== 'EUR';
  const exchangeRate = useWatch({ control: form.control, name: 'exchangeRate' });
  const representativeStatus = useWatch({ control: form.control, name: 'representativeStatus' });
  const representativeName = useWatch({ control: form.control, name: 'representative.name' });
  const f = fieldsOf(form, readOnly);
  // A representative only when someone represents the declarant (status 2 or 3), or when one is
  // filled in anyway (taken from the dossier): then it shows, so it can be seen and removed.
  const parties = PARTIES_OF_TYPE[type].filter(
    (role) =>
      role !== 'representative' ||
      (representativeStatus !== '' && representativeStatus !== '1') ||
      (representativeName ?? '') !== '',
  );
  return (
    <Fieldset
      disabled={readOnly}
      variant="unstyled"
      className={readOnly ? classes.readOnly : undefined}
      data-testid="declaration-header"
    >
      <Stack gap="lg">
        <Section title="Parties" testId="parties">
          <SelectField
            form={form}
            name="representativeStatus"
            label={<DataElementLabel field="representativeStatus">{L.representativeStatus}</DataElementLabel>}
            data={REPRESENTATIVE_STATUS_OPTIONS}
            clearable={!readOnly}
            maw={360}
          />
          <SimpleGrid cols={1} spacing="sm">
            {parties.map((role) => (
              <PartyFields key={role} form={form} role={role} readOnly={readOnly} />
            ))}
          </SimpleGrid>
        </Section>

        <Section title="Offices" testId="offices">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            {f.code('officeOfLodgement', 8, {
              label: type === 'transit' ? 'Office of departure' : L.officeOfLodgement,
              hint: 'e.g. NL000396',
            })}
            {type !== 'transit' &&
              f.code('officeOfExitEntry', 8, {
                label: type === 'export' ? 'Office of exit' : 'Office of entry',
              })}
            {type === 'transit' && (
              <>
                {f.code('officeOfDestination', 8)}
                <TagsField
                  form={form}
                  name="officesOfTransit"
                  label={L.officesOfTransit}
                  placeholder="Type and press Enter"
                  maxTags={9}
                />
              </>
            )}
          </SimpleGrid>
        </Section>

        <Section title="Transport" testId="transport">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            {f.country('countryOfDispatch')}
            {f.country('countryOfDestination')}
            {f.choice('transportModeBorder', TRANSPORT_MODE_OPTIONS)}
            {f.choice('transportModeInland', TRANSPORT_MODE_OPTIONS)}
            {f.text('meansAtDeparture', 35)}
            {f.country('meansAtDepartureCountry')}
            {f.text('meansAtBorder', 35)}
            {f.country('meansAtBorderCountry')}
          </SimpleGrid>
          <SwitchField
            form={form}
            name="containerIndicator"
            label={<DataElementLabel field="containerIndicator">{L.containerIndicator}</DataElementLabel>}
            description={readOnly ? undefined : 'The goods travel in containers (box 19)'}
          />
        </Section>

        <Section title="Location of goods" testId="location">
          {/* Two by two: the options' words ("Y · Authorisation number") need the width. */}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {f.choice('locationOfGoodsType', LOCATION_TYPE_OPTIONS)}
            {f.choice('locationOfGoodsQualifier', LOCATION_QUALIFIER_OPTIONS)}
            <LocationIdentification form={form} readOnly={readOnly} />
            {f.text('warehouseReference', 35)}
          </SimpleGrid>
        </Section>

        <Section title="Authorisations and additional information" testId="references">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <RowListField
              form={form}
              name="authorisations"
              title={<DataElementLabel field="authorisations">Authorisations</DataElementLabel>}
              itemName="authorisation"
              hint={
                type === 'transit'
                  ? 'Authorised consignor, special seals, reduced data set'
                  : 'e.g. deferred payment (C506), customs warehouse (C517)'
              }
              columns={[
                {
                  key: 'type',
                  label: 'Type of authorisation',
                  kind: 'select',
                  options: authorisationOptionsOf(type),
                  grow: 3,
                },
                {
                  key: 'reference',
                  label: 'Number of authorisation',
                  kind: 'text',
                  maxLength: 35,
                  code: true,
                  transform: upper,
                  grow: 2,
                },
              ]}
              newRow={() => ({ type: authorisationOptionsOf(type)[0]?.value ?? '', reference: '' })}
              describe={(a) =>
                `${a.type} · ${AUTHORISATION_TYPE_LABELS[a.type as AuthorisationType] ?? a.type}: ${a.reference || '—'}`
              }
              readOnly={readOnly}
              testIds={{
                list: 'authorisations',
                add: 'add-authorisation',
                remove: (i) => `remove-authorisation-${i}`,
              }}
            />
            <RowListField
              form={form}
              name="additionalInformation"
              title={
                <DataElementLabel field="additionalInformation">Additional information</DataElementLabel>
              }
              itemName="statement"
              hint="A 5-character code, e.g. 00500 (declarant and importer are the same)"
              columns={[
                {
                  key: 'code',
                  label: 'Code of statement',
                  kind: 'text',
                  maxLength: 5,
                  code: true,
                  transform: upper,
                  placeholder: '00500',
                  grow: 1,
                },
                { key: 'text', label: 'Text of statement', kind: 'text', maxLength: 512, grow: 3 },
              ]}
              newRow={() => ({ code: '', text: '' })}
              describe={(a) => {
                const known = ADDITIONAL_INFORMATION_LABELS[a.code ?? ''];
                return `${a.code}${known ? ` · ${known}` : ''}${a.text ? `: ${a.text}` : ''}`;
              }}
              readOnly={readOnly}
              testIds={{
                list: 'additional-information',
                add: 'add-additional-information',
                remove: (i) => `remove-additional-information-${i}`,
              }}
            />
          </SimpleGrid>
        </Section>

        {type !== 'transit' && (
          <Section title="Financial" testId="financial">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
              {f.choice('incoterm', INCOTERM_OPTIONS, { searchable: true })}
              {f.text('incotermPlace', 100)}
              {f.text('natureOfTransaction', 2, { hint: '11 = outright purchase/sale' })}
              {f.text('currency', 3, { transform: upper })}
              <MoneyField
                form={form}
                name="invoiceTotal"
                label={<DataElementLabel field="invoiceTotal">{L.invoiceTotal}</DataElementLabel>}
                currency={/^[A-Z]{3}$/.test(currency) ? currency : 'EUR'}
              />
              {foreign && (
                <DecimalField
                  form={form}
                  name="exchangeRate"
                  label={
                    <DataElementLabel field="exchangeRate">{`${L.exchangeRate} (EUR per ${currency})`}</DataElementLabel>
                  }
                  decimals={6}
                  {...(staff && !readOnly && rateMonth
                    ? {
                        inputWrapperOrder: HINT_BELOW,
                        description: (
                          <CustomsRateHint
                            currency={currency}
                            month={rateMonth}
                            value={exchangeRate ?? ''}
                            onUse={(rate) =>
                              form.setValue('exchangeRate', rate, { shouldDirty: true, shouldValidate: true })
                            }
                          />
                        ),
                      }
                    : {})}
                />
              )}
              {type === 'import' &&
                f.choice('methodOfPayment', METHOD_OF_PAYMENT_OPTIONS, { searchable: true })}
            </SimpleGrid>
            {type === 'import' && <ValuationAdjustments form={form} readOnly={readOnly} />}
          </Section>
        )}

        {type === 'transit' && <SealsSection form={form} readOnly={readOnly} />}

        {type === 'transit' && (
          <Section title="Guarantee" testId="guarantee">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              {f.choice('guaranteeType', GUARANTEE_TYPE_OPTIONS)}
              {f.code('guaranteeReference', 24)}
              <GuaranteeAmount form={form} />
            </SimpleGrid>
          </Section>
        )}

        {staff && (
          <TextareaField
            form={form}
            name="notes"
            label={L.notes}
            description={
              readOnly ? undefined : 'For your colleagues: never lodged, never shown to the customer'
            }
            maxLength={2000}
          />
        )}
        {readOnly && (
          <Text size="xs" c="dimmed">
            Lodged declarations are not edited: changes go to the authority as an amendment.
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
