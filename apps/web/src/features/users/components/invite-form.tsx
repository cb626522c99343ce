import { type UserAdmin, userInviteSchema } from '@fvg/contracts';
import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import {
  LookupField,
  SelectField,
  SwitchField,
  TextField,
} from '../../../components/records/form-fields.tsx';
import { type KeepsForm, RecordForm, useRecordForm } from '../../../components/records/record-form.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { useInviteUser } from '../api/users-api.ts';
import { ROLE_OPTIONS } from './user-meta.ts';

export interface InviteFormValues {
  email: string;
  name: string;
  role: string;
  partyId: string;
  cwAccess: boolean;
}

const empty: InviteFormValues = { email: '', name: '', role: '', partyId: '', cwAccess: false };

export const inviteInput = (values: InviteFormValues) => ({
  ...values,
  role: values.role === '' ? undefined : values.role,
  partyId: values.partyId === '' ? null : values.partyId,
});

export interface InviteFormProps {
  partyLookup: LookupSource;
  onInvited: (user: UserAdmin) => void;
  onCancel: () => void;
  keepsForm?: KeepsForm;
}

/** Invites a user: the server creates the account and mails a link to choose a password. */
export function InviteForm({ partyLookup, onInvited, onCancel, keepsForm }: InviteFormProps) {
  const invite = useInviteUser();
  const record = useRecordForm({
    empty: () => empty,
    schema: userInviteSchema,
    toInput: inviteInput,
    keepsForm,
    create: (body) => invite.mutateAsync(body),
    startOver: 'empty',
    onSaved: onInvited,
  });
  const { form } = record;
  const role = useWatch({ control: form.control, name: 'role' });

  return (
    <RecordForm
      of={record}
      submitLabel="Send invitation"
      onCancel={onCancel}
      label="Invite a user"
      testId="invite-form"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          The user receives an email with a link to choose a password.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextField form={form} name="email" label="Email" type="email" required />
          <TextField form={form} name="name" label="Name" required />
          <SelectField form={form} name="role" label="Role" data={ROLE_OPTIONS} required />
          {role === 'customer' && (
            <LookupField
              form={form}
              name="partyId"
              label="Organisation"
              source={partyLookup}
              placeholder="Search parties"
              required
            />
          )}
        </SimpleGrid>
        <SwitchField
          form={form}
          name="cwAccess"
          label="Customs warehouse access"
          description="Stock and outbound shipments (customers of the warehouse)."
        />
      </Stack>
    </RecordForm>
  );
}
