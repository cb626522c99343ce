import { containerInputSchema, normalizeContainerNumber } from '@fvg/contracts';
import { ActionIcon, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCircleCheck, IconPlus, IconTrash } from '@tabler/icons-react';
import { type UseFormReturn, useController, useFieldArray } from 'react-hook-form';
import { TagsField, TextField } from '../../../components/records/form-fields.tsx';
import { fieldMessage, type IssueLike } from '../../../lib/field-messages.ts';
import { type DossierFormValues, emptyContainer } from './dossier-form-values.ts';

export type ContainerCheck = { ok: true } | { ok: false; message: string };

/**
 * The contract's ISO 6346 rule applied as the user types: nothing while the number is still
 * incomplete (unless the field was left), then the same sentence a submit would give.
 */
export function checkContainerNumber(value: string, complete = false): ContainerCheck | null {
  const normalized = normalizeContainerNumber(value ?? '');
  if (normalized === '') return null;
  if (normalized.length < 11 && !complete) return null;
  const result = containerInputSchema.shape.number.safeParse(value);
  if (result.success) return { ok: true };
  const issue = result.error.issues[0];
  return {
    ok: false,
    message: issue ? fieldMessage(issue as IssueLike, 'Container number') : 'Not a valid container number',
  };
}

const upper = (value: string) => value.toUpperCase();

function ContainerNumberInput({ form, index }: { form: UseFormReturn<DossierFormValues>; index: number }) {
  const name = `containers.${index}.number` as const;
  const { field, fieldState } = useController({ control: form.control, name });
  const check = checkContainerNumber(field.value, fieldState.isTouched);
  const error = fieldState.error?.message ?? (check && !check.ok ? check.message : undefined);
  return (
    <TextInput
      ref={field.ref}
      name={field.name}
      label="Container number"
      required
      value={field.value}
      onChange={(event) => field.onChange(event.currentTarget.value.toUpperCase())}
      onBlur={field.onBlur}
      error={error}
      description={error ? undefined : check?.ok ? 'Check digit OK' : 'ISO 6346, e.g. MSKU6011672'}
      rightSection={
        check?.ok && !fieldState.error ? (
          <IconCircleCheck
            size={18}
            color="var(--mantine-color-green-6)"
            aria-label="Valid container number"
          />
        ) : undefined
      }
      data-valid={check?.ok && !fieldState.error ? 'true' : undefined}
      maxLength={15}
      data-testid={`field-${name}`}
    />
  );
}

/** The dossier's containers: number (live ISO 6346 check), ISO size-type and seals per row. */
export function ContainersField({ form }: { form: UseFormReturn<DossierFormValues> }) {
  const containers = useFieldArray({ control: form.control, name: 'containers' });
  const arrayError =
    form.formState.errors.containers?.root?.message ?? form.formState.errors.containers?.message;

  return (
    <Stack gap="sm" data-testid="containers-field">
      {containers.fields.length === 0 && (
        <Text size="sm" c="dimmed">
          No containers. Add one per container (full container loads).
        </Text>
      )}
      {containers.fields.map((container, index) => (
        <Paper key={container.id} withBorder p="sm" radius="sm" data-testid={`container-${index}`}>
          <Group align="flex-start" gap="sm" wrap="nowrap">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" style={{ flex: 1 }}>
              <ContainerNumberInput form={form} index={index} />
              <TextField
                form={form}
                name={`containers.${index}.sizeType`}
                label="Size-type"
                placeholder="22G1"
                maxLength={4}
                transform={upper}
              />
              <TagsField
                form={form}
                name={`containers.${index}.seals`}
                label="Seals"
                placeholder="Seal number, Enter"
                maxTags={10}
              />
            </SimpleGrid>
            <Tooltip label="Remove container">
              <ActionIcon
                variant="subtle"
                color="red"
                mt={26}
                onClick={() => containers.remove(index)}
                aria-label={`Remove container ${index + 1}`}
                data-testid={`remove-container-${index}`}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Paper>
      ))}
      {arrayError && (
        <Text size="sm" c="red" role="alert">
          {arrayError}
        </Text>
      )}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => containers.append(emptyContainer())}
          data-testid="add-container"
        >
          Add container
        </Button>
      </Group>
    </Stack>
  );
}
