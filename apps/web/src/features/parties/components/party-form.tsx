import { type Party, partyCreateSchema } from '@fvg/contracts';
import { ActionIcon, Button, Fieldset, Group, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { type UseFormReturn, useFieldArray, useForm } from 'react-hook-form';
import { MultiSelectField, SelectField, TextField } from '../../../components/records/form-fields.tsx';
import {
  changedFields,
  contractResolver,
  RecordFormShell,
  useRecordBase,
  useRecordSubmit,
  useUnsavedChangesGuard,
} from '../../../components/records/record-form.tsx';
import { useCreateParty, useUpdateParty } from '../api/parties-api.ts';
import {
  emptyContact,
  emptyPartyValues,
  type PartyFormValues,
  partyInput,
  partyValues,
} from './party-form-values.ts';
import { COUNTRY_OPTIONS, EAS_SCHEME_OPTIONS, PARTY_FIELD_LABELS, PARTY_KIND_OPTIONS } from './party-meta.ts';

const upper = (value: string) => value.toUpperCase();

/** The party's fields, shared by create and edit. */
export function PartyFields({ form }: { form: UseFormReturn<PartyFormValues> }) {
  const contacts = useFieldArray({ control: form.control, name: 'contacts' });
  return (
    <Stack gap="md">
      <Fieldset legend="Organisation">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextField form={form} name="name" label="Name" required />
          <TextField
            form={form}
            name="code"
            label="Code"
            required
            transform={upper}
            hint="2 to 20 letters, digits, - or _"
          />
          <MultiSelectField form={form} name="kinds" label="Roles" data={PARTY_KIND_OPTIONS} required />
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
          <TextField form={form} name="eori" label="EORI" transform={upper} hint="e.g. NL123456789" />
        </SimpleGrid>
      </Fieldset>
      <Fieldset legend="Peppol e-invoicing">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <SelectField
            form={form}
            name="peppolScheme"
            label="Peppol scheme"
            data={EAS_SCHEME_OPTIONS}
            searchable
            clearable
          />
          <TextField
            form={form}
            name="peppolId"
            label="Peppol endpoint id"
            hint="Where its e-invoices are delivered. Without one, the VAT number is used where its country has a Peppol VAT scheme"
          />
        </SimpleGrid>
      </Fieldset>
      <Fieldset legend="Address and contact">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextField form={form} name="street" label="Street" />
          <TextField form={form} name="postalCode" label="Postal code" />
          <TextField form={form} name="city" label="City" />
          <TextField form={form} name="email" label="Email" type="email" />
          <TextField form={form} name="phone" label="Phone" />
        </SimpleGrid>
      </Fieldset>
      <Fieldset legend="Contacts">
        <Stack gap="sm">
          {contacts.fields.length === 0 && (
            <Text size="sm" c="dimmed">
              No contacts yet.
            </Text>
          )}
          {contacts.fields.map((contact, index) => (
            <Group
              key={contact.id}
              align="flex-start"
              gap="sm"
              wrap="nowrap"
              data-testid={`contact-${index}`}
            >
              <SimpleGrid cols={{ base: 1, sm: 4 }} spacing="sm" style={{ flex: 1 }}>
                <TextField form={form} name={`contacts.${index}.name`} label="Name" required />
                <TextField form={form} name={`contacts.${index}.role`} label="Role" />
                <TextField form={form} name={`contacts.${index}.email`} label="Email" type="email" />
                <TextField form={form} name={`contacts.${index}.phone`} label="Phone" />
              </SimpleGrid>
              <Tooltip label="Remove contact">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={26}
                  onClick={() => contacts.remove(index)}
                  aria-label={`Remove contact ${index + 1}`}
                  data-testid={`remove-contact-${index}`}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Group>
          ))}
          <Group>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => contacts.append(emptyContact())}
              data-testid="add-contact"
            >
              Add contact
            </Button>
          </Group>
        </Stack>
      </Fieldset>
    </Stack>
  );
}

export interface PartyFormProps {
  /** The party to edit; absent → create. */
  party?: Party;
  onSaved: (party: Party) => void;
  onCancel: () => void;
  /** Re-reads the party after a conflict; the form then starts over from it. */
  reload?: () => Promise<Party | undefined>;
  /** Navigations that keep this form on screen (not guarded). */
  keepsForm?: (next: { pathname: string; search: Record<string, unknown> }) => boolean;
}

const resolver = contractResolver<PartyFormValues>(partyCreateSchema, partyInput, PARTY_FIELD_LABELS);

/** Create or edit a party: contract validation, server errors on fields, conflict reload, unsaved guard. */
export function PartyForm({ party, onSaved, onCancel, reload, keepsForm }: PartyFormProps) {
  const form = useForm<PartyFormValues>({
    resolver,
    defaultValues: party ? partyValues(party) : emptyPartyValues(),
  });
  const create = useCreateParty();
  const update = useUpdateParty(party?.id ?? '');
  const guard = useUnsavedChangesGuard(form.formState.isDirty, keepsForm);
  const base = useRecordBase(form, party, partyValues);

  const submit = useRecordSubmit(
    form,
    async (values) => {
      const body = partyCreateSchema.parse(partyInput(values));
      const saved = party
        ? await update.mutateAsync({
            ...changedFields(body, form.formState.dirtyFields),
            version: base.version ?? party.version,
          })
        : await create.mutateAsync(body);
      guard.release();
      base.restart(saved);
      onSaved(saved);
    },
    { labels: PARTY_FIELD_LABELS },
  );

  return (
    <>
      <RecordFormShell
        form={form}
        submit={submit}
        fieldLabels={PARTY_FIELD_LABELS}
        submitLabel={party ? 'Save party' : 'Create party'}
        onCancel={onCancel}
        label={party ? `Edit party ${party.code}` : 'New party'}
        testId="party-form"
        {...(reload
          ? {
              onReload: async () => {
                const fresh = await reload();
                return fresh ? base.reapply(fresh) : undefined;
              },
            }
          : {})}
      >
        <PartyFields form={form} />
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}
