import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type ReactNode, useEffect } from 'react';
import { type FieldPath, type Resolver, type UseFormReturn, useForm, useWatch } from 'react-hook-form';
import { isApiError } from '../../lib/api-client.ts';
import { applyProblemToForm } from '../../lib/form-errors.ts';
import { t as translate, useT } from '../../lib/i18n.ts';
import { QuestionModal } from './confirm-dialog.tsx';
import { DateField, LookupField } from './form-fields.tsx';
import type { LookupOption, LookupSource } from './record-select.tsx';

/** A message about one fact: a problem (blocks) or a warning (does not). */
export interface FactMessage {
  field: string;
  message: string;
}

/** One fact a status change states: the departure date, the handler… */
export interface TransitionFactField {
  /** The field of the transition's body (`atd`, `handlerId`). */
  name: string;
  label: string;
  /**
   * `date`: a calendar date (`YYYY-MM-DD`), defaulting to today; `lookup`: a record picked from
   * `source` (a user, a party).
   */
  kind: 'date' | 'lookup';
  /** The value the dialog opens with (today, the signed-in user…). */
  initial: () => string;
  source?: LookupSource;
  /** The option of the initial value, so the picker names it before searching. */
  knownOption?: LookupOption | null;
  description?: string;
}

/** What a target status asks before it is applied. */
export interface TransitionFacts {
  fields: readonly TransitionFactField[];
  /** A sentence above the fields (what the change means). */
  intro?: ReactNode;
  /** The server's rules, run as the user types (in the future, before the departure…). */
  problems?: (values: Record<string, string>) => FactMessage[];
  /** What contradicts the plan but may be true: shown under the fields, does not block. */
  warnings?: (values: Record<string, string>) => FactMessage[];
}

type Values = Record<string, string>;

/**
 * The one place a fact's input is chosen. Dates are calendar dates today (ADR 0022); when a fact
 * becomes an instant, its kind gets the shared date-time field here and nowhere else.
 */
function FactInput({ form, fact }: { form: UseFormReturn<Values>; fact: TransitionFactField }) {
  const common = {
    form,
    name: fact.name as FieldPath<Values>,
    label: fact.label,
    withAsterisk: true,
    ...(fact.description ? { description: fact.description } : {}),
  };
  if (fact.kind === 'lookup' && fact.source)
    return <LookupField {...common} source={fact.source} knownOption={fact.knownOption} />;
  return <DateField {...common} clearable={false} popoverProps={{ withinPortal: true }} />;
}

function factsResolver(spec: TransitionFacts): Resolver<Values> {
  return async (values) => {
    const errors: Record<string, { type: string; message: string }> = {};
    for (const fact of spec.fields)
      if (!values[fact.name])
        errors[fact.name] = { type: 'required', message: translate('records:form.required') };
    for (const p of spec.problems?.(values) ?? [])
      if (!errors[p.field]) errors[p.field] = { type: 'rule', message: p.message };
    return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
  };
}

export interface TransitionFactsDialogProps {
  opened: boolean;
  /** The action's label: the title and the confirm button. */
  title: string;
  spec: TransitionFacts;
  /** Said under the fields when the change cannot be undone. */
  irreversible?: boolean;
  /** Applies the change with the facts; a refused one keeps the dialog open with the server's messages. */
  onSubmit: (values: Values) => Promise<void>;
  onCancel: () => void;
}

/**
 * Asks the facts a status change states (when it departed, who handles it) with the change: each
 * fact starts from its default (today, me), the server's rules show as the user types, a fact that
 * contradicts the plan shows a warning that does not block, and a refusal lands on its field.
 */
export function TransitionFactsDialog({
  opened,
  title,
  spec,
  irreversible = false,
  onSubmit,
  onCancel,
}: TransitionFactsDialogProps) {
  const t = useT('records');
  const initial = () => Object.fromEntries(spec.fields.map((f) => [f.name, f.initial()]));
  const form = useForm<Values>({ resolver: factsResolver(spec), defaultValues: initial(), mode: 'onChange' });
  // Each opening starts from the defaults again: "now" is when the dialog opens.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on opening only
  useEffect(() => {
    if (opened) form.reset(initial());
  }, [opened]);
  const values = useWatch({ control: form.control }) as Values;
  const warnings = spec.warnings?.(values) ?? [];
  const serverMessage = (form.formState.errors.root as { server?: { message?: string } } | undefined)?.server
    ?.message;

  const submit = form.handleSubmit(async (v) => {
    try {
      await onSubmit(v);
    } catch (error) {
      applyProblemToForm(error, form.setError, {
        fields: spec.fields.map((f) => f.name),
        // A stale version: the record moved on meanwhile (the screen reloads it); no version numbers.
        message: (e) => (isApiError(e) && e.status === 409 ? t('transition.stale') : undefined),
      });
    }
  });

  return (
    <QuestionModal opened={opened} title={title} onCancel={onCancel} testId="transition-dialog">
      <form onSubmit={(event) => void submit(event)} noValidate aria-label={title}>
        <Stack gap="md">
          {spec.intro && <Text size="sm">{spec.intro}</Text>}
          {spec.fields.map((fact) => (
            <FactInput key={fact.name} form={form} fact={fact} />
          ))}
          {warnings.map((w) => (
            <Alert
              key={w.field}
              color="yellow"
              variant="light"
              icon={<IconAlertTriangle aria-hidden />}
              data-testid={`transition-warning-${w.field}`}
            >
              {w.message}
            </Alert>
          ))}
          {serverMessage && (
            <Alert color="red" variant="light" role="alert" data-testid="form-error">
              {serverMessage}
            </Alert>
          )}
          {irreversible && (
            <Text size="sm" c="dimmed">
              {t('transition.irreversible')}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onCancel} data-testid="transition-dialog-cancel">
              {t('form.cancel')}
            </Button>
            <Button
              type="submit"
              loading={form.formState.isSubmitting}
              data-testid="transition-dialog-submit"
            >
              {title}
            </Button>
          </Group>
        </Stack>
      </form>
    </QuestionModal>
  );
}
