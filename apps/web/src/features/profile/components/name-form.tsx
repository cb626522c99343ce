import { Button, Group, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useForm } from 'react-hook-form';
import { applyProblemToForm } from '../../../lib/form-errors.ts';
import { useT } from '../../../lib/i18n.ts';
import { useUpdateProfile } from '../api/profile-api.ts';
import { FormMessage } from './form-message.tsx';

/** The user's own name: what colleagues and customers see in chats, histories and mails. */
export function NameForm({ name }: { name: string }) {
  const t = useT('profile');
  const update = useUpdateProfile();
  const form = useForm<{ name: string }>({ values: { name } });
  const { errors, isSubmitting, isDirty } = form.formState;

  const submit = form.handleSubmit(async ({ name: next }) => {
    try {
      const me = await update.mutateAsync({ name: next.trim() });
      form.reset({ name: me.name });
      notifications.show({ color: 'teal', message: t('name.saved') });
    } catch (error) {
      applyProblemToForm(error, form.setError, { fields: ['name'], labels: { name: t('name.label') } });
    }
  });

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={t('name.title')}
      data-testid="profile-name-form"
    >
      <Group align="flex-start" gap="sm">
        <TextInput
          {...form.register('name', {
            validate: (v) =>
              v.trim() === '' ? t('name.required') : v.trim().length > 200 ? t('name.tooLong') : true,
          })}
          label={t('name.label')}
          autoComplete="name"
          required
          error={errors.name?.message}
          style={{ flex: '1 1 240px' }}
          data-testid="profile-name-input"
        />
        <Button
          type="submit"
          mt={25}
          loading={isSubmitting}
          disabled={!isDirty}
          data-testid="profile-name-save"
        >
          {t('name.save')}
        </Button>
      </Group>
      <FormMessage errors={errors} testId="profile-name-message" />
    </form>
  );
}
