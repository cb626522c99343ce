import { ActionIcon, Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { type FieldValues, type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form';
import { SelectField, TextField } from './form-fields.tsx';

/*
 * A short list of small records inside a form, one line each: a document's type and reference, an
 * authorisation's type and number, a seal and its container. Each column is a select or a text input
 * bound to `name.N.key`, so a server error on `name.2.reference` lands on its cell; a line is added
 * with its first text input focused and removed with its own button. Read-only, the lines read as text.
 */

export interface RowListColumn {
  key: string;
  /** The accessible name of the cell: `${label} ${n}` and the form's `context` ("…, item 2"). */
  label: string;
  kind: 'select' | 'text';
  options?: readonly { value: string; label: string }[];
  placeholder?: string;
  maxLength?: number;
  transform?: (value: string) => string;
  /** Monospace, for codes. */
  code?: boolean;
  /** Share of the line's width (CSS flex), 1 by default. */
  grow?: number;
  /** A select that may be left empty (its placeholder says what empty means). */
  clearable?: boolean;
}

export interface RowListFieldProps<T extends FieldValues> {
  form: UseFormReturn<T>;
  /** The array's path in the form, e.g. `authorisations` or `items.0.supportingDocuments`. */
  name: string;
  title: ReactNode;
  /** One line's name in the buttons: "Add authorisation", "Remove authorisation 2". */
  itemName: string;
  columns: readonly RowListColumn[];
  /** A new line's values (the first select's first option, empty texts). */
  newRow: () => Record<string, string | null>;
  /** One line read-only. */
  describe: (row: Record<string, string | null>) => ReactNode;
  readOnly: boolean;
  hint?: string | undefined;
  /** Appended to every accessible name, e.g. ", item 2". */
  context?: string;
  /** Nothing listed: the word shown. */
  emptyText?: string;
  max?: number;
  testIds: { list: string; add: string; remove: (index: number) => string };
}

export function RowListField<T extends FieldValues>({
  form,
  name,
  title,
  itemName,
  columns,
  newRow,
  describe,
  readOnly,
  hint,
  context = '',
  emptyText = 'None',
  max = 99,
  testIds,
}: RowListFieldProps<T>) {
  // The path is dynamic (a header list or an item's); rhf's path types cannot follow it.
  const list = useFieldArray({ control: form.control, name: name as never });
  const values = (useWatch({ control: form.control, name: name as never }) ?? []) as Record<
    string,
    string | null
  >[];
  const firstText = columns.find((c) => c.kind === 'text')?.key ?? columns[0]?.key;
  return (
    <Stack gap={4} data-testid={testIds.list}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {hint && !readOnly && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
      {list.fields.length === 0 && (
        <Text size="sm" c="dimmed">
          {emptyText}
        </Text>
      )}
      {readOnly
        ? values.map((row, i) => (
            <Text size="sm" key={list.fields[i]?.id ?? i}>
              {describe(row)}
            </Text>
          ))
        : list.fields.map((entry, i) => (
            <Group key={entry.id} gap="xs" align="flex-start" wrap="nowrap">
              {columns.map((c) => {
                const cell = `${name}.${i}.${c.key}` as never;
                const common = {
                  form,
                  name: cell,
                  'aria-label': `${c.label} ${i + 1}${context}`,
                  style: { flex: `${c.grow ?? 1} 1 0`, minWidth: 0 },
                };
                return c.kind === 'select' ? (
                  <SelectField
                    key={c.key}
                    {...common}
                    data={(c.options ?? []) as { value: string; label: string }[]}
                    searchable
                    allowDeselect={c.clearable === true}
                    clearable={c.clearable === true}
                    placeholder={c.placeholder}
                  />
                ) : (
                  <TextField
                    key={c.key}
                    {...common}
                    placeholder={c.placeholder ?? c.label}
                    maxLength={c.maxLength}
                    {...(c.transform ? { transform: c.transform } : {})}
                    {...(c.code ? { ff: 'monospace' } : {})}
                  />
                );
              })}
              <ActionIcon
                variant="subtle"
                color="red"
                mt={4}
                onClick={() => list.remove(i)}
                aria-label={`Remove ${itemName} ${i + 1}${context}`}
                data-testid={testIds.remove(i)}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
          ))}
      {!readOnly && list.fields.length < max && (
        <div>
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() =>
              list.append(newRow() as never, {
                focusName: `${name}.${list.fields.length}.${firstText}`,
              })
            }
            data-testid={testIds.add}
          >
            Add {itemName}
          </Button>
        </div>
      )}
    </Stack>
  );
}
