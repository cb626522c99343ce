import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@fvg/contracts';
import { Button, Group, PasswordInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useForm } from 'react-hook-form';
import { applyProblemToForm } from '../../../lib/form-errors.ts';
import { useHub } from '../../../lib/hub-provider.tsx';
import { useT } from '../../../lib/i18n.ts';
import { useChangePassword } from '../api/profile-api.ts';
import { FormMessage } from './form-message.tsx';

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const EMPTY: PasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * Changes the password: the current one proves it is the owner; the new one passes the server's
 * policy (its message lands on the field). Other devices are signed out; this one carries on with the
 * token the answer brings, and its live connection (closed by the server with the others) restarts.
 */
export function PasswordForm() {
  const t = useT('profile');
  const change = useChangePassword();
  const hub = useHub();
  const form = useForm<PasswordValues>({ defaultValues: EMPTY });
  const { errors, isSubmitting } = form.formState;
  const labels = {
    currentPassword: t('password.current'),
    newPassword: t('password.new'),
    confirmPassword: t('password.confirm'),
  };

  const submit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      const answer = await change.mutateAsync({ currentPassword, newPassword });
      form.reset(EMPTY);
      notifications.show({ color: 'teal', title: t('password.changedTitle'), message: answer.message });
      // The server ended every connection of this user, this one's too: start again with the new token.
      await hub.stop();
      void hub.start().catch(() => {});
    } catch (error) {
      applyProblemToForm(error, form.setError, {
        fields: ['currentPassword', 'newPassword'],
        labels,
      });
    }
  });

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={t('password.title')}
      data-testid="profile-password-form"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('password.hint')}
        </Text>
        <PasswordInput
          {...form.register('currentPassword', {
            validate: (v) => (v === '' ? t('password.currentRequired') : true),
          })}
          label={labels.currentPassword}
          autoComplete="current-password"
          required
          error={errors.currentPassword?.message}
          maw={360}
          data-testid="profile-current-password"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <PasswordInput
            {...form.register('newPassword', {
              validate: (v) =>
                v.length < PASSWORD_MIN_LENGTH
                  ? t('password.tooShort', { min: PASSWORD_MIN_LENGTH })
                  : v.length > PASSWORD_MAX_LENGTH
                    ? t('password.tooLong', { max: PASSWORD_MAX_LENGTH })
                    : true,
            })}
            label={labels.newPassword}
            description={t('password.newHint', { min: PASSWORD_MIN_LENGTH })}
            autoComplete="new-password"
            required
            error={errors.newPassword?.message}
            data-testid="profile-new-password"
          />
          <PasswordInput
            {...form.register('confirmPassword', {
              validate: (v, values) => (v === values.newPassword ? true : t('password.mismatch')),
            })}
            label={labels.confirmPassword}
            description={t('password.confirmHint')}
            autoComplete="new-password"
            required
            error={errors.confirmPassword?.message}
            data-testid="profile-confirm-password"
          />
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={isSubmitting} data-testid="profile-password-save">
            {t('password.save')}
          </Button>
        </Group>
        <FormMessage errors={errors} testId="profile-password-message" />
      </Stack>
    </form>
  );
}
