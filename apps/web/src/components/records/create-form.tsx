import type { ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { KeepsForm } from './list-screen.tsx';
import { RecordFormShell, useRecordSubmit, useUnsavedChangesGuard } from './record-form.tsx';

/** What a "New <record>" form takes from the dialog it opens in (list-screen.tsx `create`). */
export interface CreateFormProps<R> {
  onSaved: (record: R) => void;
  onCancel: () => void;
  keepsForm?: KeepsForm;
}

export interface CreateFormShellProps<TValues extends FieldValues, R> extends CreateFormProps<R> {
  form: UseFormReturn<TValues>;
  /** Creates the record from the form's values (the area's create mutation). */
  create: (values: TValues) => Promise<R>;
  /** A check the schema cannot make (one of two fields): false stops the save; it marks the field itself. */
  check?: (values: TValues) => boolean;
  /** The form's labels by field path, for the server's problems worded with them. */
  labels?: Readonly<Record<string, string>>;
  submitLabel: string;
  /** Accessible name of the form. */
  label: string;
  testId: string;
  children: ReactNode;
}

/**
 * The frame of a "New <record>" form: save creates the record, the unsaved-changes guard lets the
 * navigation to it pass, and the server's problems go to their fields. An area's form declares its fields.
 */
export function CreateFormShell<TValues extends FieldValues, R>({
  form,
  create,
  check,
  labels,
  onSaved,
  onCancel,
  keepsForm,
  submitLabel,
  label,
  testId,
  children,
}: CreateFormShellProps<TValues, R>) {
  const guard = useUnsavedChangesGuard(form.formState.isDirty, keepsForm);
  const submit = useRecordSubmit(
    form,
    async (values) => {
      if (check && !check(values)) return;
      const saved = await create(values);
      guard.release();
      onSaved(saved);
    },
    labels ? { labels } : {},
  );
  return (
    <>
      <RecordFormShell
        form={form}
        submit={submit}
        submitLabel={submitLabel}
        onCancel={onCancel}
        label={label}
        testId={testId}
      >
        {children}
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}
