import { Text } from '@mantine/core';
import type { FieldErrors } from 'react-hook-form';

/** The form-level message a failed save left (lib/form-errors.ts SERVER_ERROR_KEY), said as an alert. */
export function FormMessage({ errors, testId }: { errors: FieldErrors; testId: string }) {
  const message = (errors.root as { server?: { message?: string } } | undefined)?.server?.message;
  if (!message) return null;
  return (
    <Text c="red" size="sm" mt="xs" role="alert" data-testid={testId}>
      {message}
    </Text>
  );
}
