import { type Party, partyCreateSchema } from '@fvg/contracts';
import { ActionIcon, Button, Fieldset, Group, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { type UseFormReturn, useFieldArray } from 'react-hook-form';
import {
  AddressFields,
  CountryField,
  PeppolFields,
  TaxIdFields,
} from '../../../components/records/address-fields.tsx';
import { FormSection, MultiSelectField, TextField } from '../../../components/records/form-fields.tsx';
import {
  RecordForm,
  type RecordFormWiring,
  useRecordForm,
} from '../../../components/records/record-form.tsx';
import { useCreateParty, useUpdateParty } from '../api/parties-api.ts';
import {
  emptyContact,
  emptyPartyValues,
  type PartyFormValues,
  partyInput,
  partyValues,
} from './party-form-values.ts';
import { EAS_SCHEME_OPTIONS, PARTY_FIELD_LABELS, PARTY_KIND_OPTIONS } from './party-meta.ts';

const upper = (value: string) => value.toUpperCase();

/** The party's fields, shared by create and edit. */
export function PartyFields({ form }: { form: UseFormReturn<PartyFormValues> }) {
  const contacts = useFieldArray({ control: form.control, name: 'contacts' });
  return (
    <Stack gap="md">
      <FormSection legend="Organisation">
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
        <CountryField form={form} />
        <TaxIdFields form={form} />
      </FormSection>
      <FormSection legend="Peppol e-invoicing">
        <PeppolFields
          form={form}
          schemes={EAS_SCHEME_OPTIONS}
          idHint="Where its e-invoices are delivered. Without one, the VAT number is used where its country has a Peppol VAT scheme"
          searchable
        />
      </FormSection>
      <FormSection legend="Address and contact">
        <AddressFields form={form} />
        <TextField form={form} name="email" label="Email" type="email" />
        <TextField form={form} name="phone" label="Phone" />
      </FormSection>
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

export interface PartyFormProps extends RecordFormWiring<Party> {
  /** The party to edit; absent → create. */
  party?: Party;
  onSaved: (party: Party) => void;
  onCancel: () => void;
}

/** Create or edit a party: contract validation, server errors on fields, conflict reload, unsaved guard. */
export function PartyForm({ party, ...wiring }: PartyFormProps) {
  const create = useCreateParty();
  const update = useUpdateParty(party?.id ?? '');
  const record = useRecordForm({
    ...wiring,
    record: party,
    valuesOf: partyValues,
    empty: emptyPartyValues,
    schema: partyCreateSchema,
    toInput: partyInput,
    labels: PARTY_FIELD_LABELS,
    create: (body) => create.mutateAsync(body),
    update: (body, edit) => update.mutateAsync(edit.patch(body)),
  });
  return (
    <RecordForm of={record} noun="party" reference={party?.code}>
      <PartyFields form={record.form} />
    </RecordForm>
  );
}
