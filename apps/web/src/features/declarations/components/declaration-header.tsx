import type { DeclarationType } from '@fvg/contracts';
import { Button, Fieldset, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconUserSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type UseFormReturn, useWatch } from 'react-hook-form';
import {
  SelectField,
  SwitchField,
  TagsField,
  TextareaField,
  TextField,
} from '../../../components/records/form-fields.tsx';
import { DecimalField, MoneyField } from '../../../components/records/money-field.tsx';
import { RecordSelect } from '../../../components/records/record-select.tsx';
import { INCOTERM_OPTIONS } from '../../dossiers/index.ts';
import { anyPartyLookup, COUNTRY_OPTIONS, partyOptions } from '../../parties/index.ts';
import { type DeclarationFormValues, emptyParty, type PartyKey } from './declaration-form.ts';
import classes from './declaration-header.module.css';
import {
  GUARANTEE_TYPE_OPTIONS,
  DECLARATION_FIELD_LABELS as L,
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
          <TextField form={form} name={`${role}.name`} label={L.name} maxLength={200} />
          <TextField
            form={form}
            name={`${role}.eori`}
            label={L.eori}
            maxLength={17}
            transform={upper}
            ff="monospace"
            hint={readOnly ? undefined : 'Country prefix and number, e.g. NL812345678'}
          />
          <TextField form={form} name={`${role}.street`} label={L.street} maxLength={200} />
          <SimpleGrid cols={2} spacing="xs">
            <TextField form={form} name={`${role}.postalCode`} label={L.postalCode} maxLength={20} />
            <TextField form={form} name={`${role}.city`} label={L.city} maxLength={100} />
          </SimpleGrid>
          <SelectField
            form={form}
            name={`${role}.countryCode`}
            label={L.countryCode}
            data={COUNTRY_OPTIONS}
            searchable
            clearable={!readOnly}
          />
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
}

/**
 * The header of a declaration by section: parties, offices, transport, location of goods, financial
 * (import and export), guarantee (transit). Read-only once lodged (and for customers): the same
 * fields, disabled, so the screen looks the same before and after.
 */
export function DeclarationHeader({ form, type, readOnly, staff }: DeclarationHeaderProps) {
  const currency = (useWatch({ control: form.control, name: 'currency' }) ?? '').trim().toUpperCase();
  const foreign = /^[A-Z]{3}$/.test(currency) && currency !== 'EUR';
  const representativeStatus = useWatch({ control: form.control, name: 'representativeStatus' });
  const representativeName = useWatch({ control: form.control, name: 'representative.name' });
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
            label={L.representativeStatus}
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
            <TextField
              form={form}
              name="officeOfLodgement"
              label={type === 'transit' ? 'Office of departure' : L.officeOfLodgement}
              transform={upper}
              maxLength={8}
              ff="monospace"
              hint={readOnly ? undefined : 'e.g. NL000396'}
            />
            {type !== 'transit' && (
              <TextField
                form={form}
                name="officeOfExitEntry"
                label={type === 'export' ? 'Office of exit' : 'Office of entry'}
                transform={upper}
                maxLength={8}
                ff="monospace"
              />
            )}
            {type === 'transit' && (
              <>
                <TextField
                  form={form}
                  name="officeOfDestination"
                  label={L.officeOfDestination}
                  transform={upper}
                  maxLength={8}
                  ff="monospace"
                />
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
            <SelectField
              form={form}
              name="countryOfDispatch"
              label={L.countryOfDispatch}
              data={COUNTRY_OPTIONS}
              searchable
              clearable={!readOnly}
            />
            <SelectField
              form={form}
              name="countryOfDestination"
              label={L.countryOfDestination}
              data={COUNTRY_OPTIONS}
              searchable
              clearable={!readOnly}
            />
            <SelectField
              form={form}
              name="transportModeBorder"
              label={L.transportModeBorder}
              data={TRANSPORT_MODE_OPTIONS}
              clearable={!readOnly}
            />
            <SelectField
              form={form}
              name="transportModeInland"
              label={L.transportModeInland}
              data={TRANSPORT_MODE_OPTIONS}
              clearable={!readOnly}
            />
            <TextField form={form} name="meansAtDeparture" label={L.meansAtDeparture} maxLength={35} />
            <SelectField
              form={form}
              name="meansAtDepartureCountry"
              label={L.meansAtDepartureCountry}
              data={COUNTRY_OPTIONS}
              searchable
              clearable={!readOnly}
            />
            <TextField form={form} name="meansAtBorder" label={L.meansAtBorder} maxLength={35} />
            <SelectField
              form={form}
              name="meansAtBorderCountry"
              label={L.meansAtBorderCountry}
              data={COUNTRY_OPTIONS}
              searchable
              clearable={!readOnly}
            />
          </SimpleGrid>
          <SwitchField
            form={form}
            name="containerIndicator"
            label={L.containerIndicator}
            description={readOnly ? undefined : 'The goods travel in containers (box 19)'}
          />
        </Section>

        <Section title="Location of goods" testId="location">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextField
              form={form}
              name="locationOfGoods"
              label={L.locationOfGoods}
              maxLength={70}
              hint={readOnly ? undefined : 'Where customs can examine the goods'}
            />
            <TextField form={form} name="warehouseReference" label={L.warehouseReference} maxLength={35} />
          </SimpleGrid>
        </Section>

        {type !== 'transit' && (
          <Section title="Financial" testId="financial">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
              <SelectField
                form={form}
                name="incoterm"
                label={L.incoterm}
                data={INCOTERM_OPTIONS}
                searchable
                clearable={!readOnly}
              />
              <TextField form={form} name="incotermPlace" label={L.incotermPlace} maxLength={100} />
              <TextField
                form={form}
                name="natureOfTransaction"
                label={L.natureOfTransaction}
                maxLength={2}
                hint={readOnly ? undefined : '11 = outright purchase/sale'}
              />
              <TextField form={form} name="currency" label={L.currency} maxLength={3} transform={upper} />
              <MoneyField
                form={form}
                name="invoiceTotal"
                label={L.invoiceTotal}
                currency={/^[A-Z]{3}$/.test(currency) ? currency : 'EUR'}
              />
              {foreign && (
                <DecimalField
                  form={form}
                  name="exchangeRate"
                  label={`${L.exchangeRate} (EUR per ${currency})`}
                  decimals={6}
                />
              )}
            </SimpleGrid>
          </Section>
        )}

        {type === 'transit' && (
          <Section title="Guarantee" testId="guarantee">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <SelectField
                form={form}
                name="guaranteeType"
                label={L.guaranteeType}
                data={GUARANTEE_TYPE_OPTIONS}
                clearable={!readOnly}
              />
              <TextField
                form={form}
                name="guaranteeReference"
                label={L.guaranteeReference}
                maxLength={24}
                transform={upper}
                ff="monospace"
              />
              <MoneyField
                form={form}
                name="guaranteeAmount"
                label={`${L.guaranteeAmount} (EUR)`}
                currency="EUR"
              />
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
