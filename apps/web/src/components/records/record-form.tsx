import { toNestErrors, validateFieldsNatively } from '@hookform/resolvers';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useBlocker } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  type DefaultValues,
  type FieldError,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { isApiError, problemMessage } from '../../lib/api-client.ts';
import { fieldMessage, type IssueLike, labelFor } from '../../lib/field-messages.ts';
import { applyProblemToForm, SERVER_ERROR_KEY } from '../../lib/form-errors.ts';
import { t as translate, useT } from '../../lib/i18n.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

/*
 * The pieces every create/edit form of a record shares: the contract schema as resolver, server
 * problems mapped onto fields (nested paths included), the 409 "someone else changed it" state with
 * a reload, a guard against leaving with unsaved changes, and Ctrl+S / Cmd+S.
 */

/**
 * Validates the form with a contract schema. Inputs hold text ('' for empty); `toInput` turns the
 * form values into what the API takes (empty ids → null, numbers…) before the schema sees them, so
 * the client applies exactly the server's rules. Each problem is worded for people with the field's
 * label (lib/field-messages.ts): "Packages cannot be negative", "Customer is required" (a missing
 * value reads the same whatever check noticed it). The form keeps its own values.
 */
export function contractResolver<TValues extends FieldValues>(
  schema: z.ZodType,
  toInput: (values: TValues) => unknown,
  labels: Readonly<Record<string, string>> = {},
): Resolver<TValues> {
  return async (values, _context, options) => {
    const result = await schema.safeParseAsync(toInput(values), { reportInput: true });
    if (result.success) {
      if (options.shouldUseNativeValidation) validateFieldsNatively({}, options);
      return { values, errors: {} };
    }
    const flat: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.length ? issue.path.join('.') : 'root';
      if (flat[path]) continue;
      // Rules across fields (custom issues) carry no input; a value issue without one is a missing value.
      const input = issue.code === 'custom' ? {} : { input: issue.input };
      flat[path] = {
        type: issue.code,
        message: fieldMessage({ ...(issue as IssueLike), ...input }, labelFor(path, labels)),
      };
    }
    return { values: {}, errors: toNestErrors(flat, options) };
  };
}

/** Every path of a value tree: `containers`, `containers.0`, `containers.0.number`… */
export function fieldPathsOf(values: unknown, prefix = ''): string[] {
  const paths: string[] = [];
  if (Array.isArray(values)) {
    values.forEach((item, i) => {
      const path = prefix ? `${prefix}.${i}` : String(i);
      paths.push(path, ...fieldPathsOf(item, path));
    });
  } else if (values !== null && typeof values === 'object') {
    for (const [key, item] of Object.entries(values)) {
      const path = prefix ? `${prefix}.${key}` : key;
      paths.push(path, ...fieldPathsOf(item, path));
    }
  }
  return paths;
}

/** Whether a react-hook-form dirty marker (true, or a tree of them) marks anything. */
export function isDirtyMark(mark: unknown): boolean {
  if (mark === true) return true;
  if (Array.isArray(mark)) return mark.some(isDirtyMark);
  if (mark !== null && typeof mark === 'object') return Object.values(mark).some(isDirtyMark);
  return false;
}

/** The top-level fields of `payload` whose form fields were changed: a PATCH sends only those. */
export function changedFields<T extends Record<string, unknown>>(
  payload: T,
  dirtyFields: Readonly<Record<string, unknown>>,
): Partial<T> {
  return Object.fromEntries(
    Object.entries(payload).filter(([key]) => isDirtyMark(dirtyFields[key])),
  ) as Partial<T>;
}

export interface RecordBase<R> {
  /** The version the form's values came from: what a save sends, so a change made meanwhile answers 409. */
  version: number | undefined;
  /** Starts the form over from a record (after a save). */
  restart: (record: R) => void;
  /**
   * After a conflict: starts from the newer record and puts the user's changed fields back on top
   * (only those: what someone else changed elsewhere is kept). Answers the top-level fields the
   * newer record changed, for "changed meanwhile".
   */
  reapply: (record: R) => string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Ties an edit form to the record it edits. While the form is untouched it follows the record (a
 * live update refreshes it); once the user has changed something it keeps the version it started
 * from, so saving over someone else's change is refused (409) instead of silently winning.
 */
export function useRecordBase<TValues extends FieldValues, R extends { version: number }>(
  form: UseFormReturn<TValues>,
  record: R | undefined,
  toValues: (record: R) => TValues,
): RecordBase<R> {
  const [version, setVersion] = useState(record?.version);
  const toValuesRef = useRef(toValues);
  toValuesRef.current = toValues;
  const restart = useCallback(
    (next: R) => {
      form.reset(toValuesRef.current(next));
      setVersion(next.version);
    },
    [form],
  );
  // Follow a newer record only when the record itself changes (not when a restart moved the version).
  const seen = useRef(record?.version);
  const reapply = useCallback(
    (next: R) => {
      // Compared with the values the form started from, not react-hook-form's dirty marks: those
      // are kept only for what a render subscribed to.
      const started = (form.formState.defaultValues ?? {}) as Record<string, unknown>;
      const mine = form.getValues() as Record<string, unknown>;
      const theirs = toValuesRef.current(next) as Record<string, unknown>;
      const edited = Object.keys(mine).filter((key) => !same(mine[key], started[key]));
      const changedMeanwhile = Object.keys(theirs).filter((key) => !same(theirs[key], started[key]));
      seen.current = next.version;
      form.reset(theirs as TValues);
      setVersion(next.version);
      for (const key of edited)
        form.setValue(key as FieldPath<TValues>, mine[key] as never, { shouldDirty: true });
      return changedMeanwhile;
    },
    [form],
  );
  const dirty = form.formState.isDirty;
  useEffect(() => {
    if (!record || record.version === seen.current) return;
    if (dirty) return;
    seen.current = record.version;
    restart(record);
  }, [record, dirty, restart]);
  return { version, restart, reapply };
}

export interface RecordSubmit {
  submit: (event?: FormEvent) => Promise<void>;
  /** The server's sentence when it refused because the record changed meanwhile (409). */
  conflict: string | null;
  clearConflict: () => void;
}

/**
 * Submits through `run`; a failure lands on the form: a 409 about the record's version becomes the
 * conflict state, field errors of the problem go to their fields (e.g. `containers.0.number`), the
 * rest to the form's message.
 */
export function useRecordSubmit<TValues extends FieldValues>(
  form: UseFormReturn<TValues>,
  run: (values: TValues) => Promise<void>,
  options: {
    rename?: Partial<Record<string, FieldPath<TValues>>>;
    /** The form's labels by field path, for the server's problems worded with them. */
    labels?: Readonly<Record<string, string>>;
  } = {},
): RecordSubmit {
  const [conflict, setConflict] = useState<string | null>(null);
  const submit = form.handleSubmit(async (values) => {
    setConflict(null);
    try {
      await run(values);
    } catch (error) {
      // 409 on the version alone (or on nothing): the record changed meanwhile. With other field errors
      // it is a clash of values (an email or code already in use): those go to their fields.
      const stale = (e: { field: string }) => e.field === 'version';
      if (isApiError(error) && error.status === 409 && error.fieldErrors.every(stale)) {
        // The server's sentence names versions, the edit lock's business: the user reads what happened.
        // A save refused because someone else saved first (409 on the version).
        const message = error.fieldErrors.length ? translate('records:form.stale') : problemMessage(error);
        setConflict(message);
        form.setError(SERVER_ERROR_KEY as never, { type: 'conflict', message });
        return;
      }
      applyProblemToForm(error, form.setError, {
        fields: fieldPathsOf(form.getValues()) as FieldPath<TValues>[],
        ...(options.rename ? { rename: options.rename } : {}),
        ...(options.labels ? { labels: options.labels } : {}),
      });
    }
  });
  return { submit, conflict, clearConflict: useCallback(() => setConflict(null), []) };
}

export interface UnsavedChangesGuard {
  /** Lets the next navigation through (after a save). */
  release: () => void;
  /** The "discard changes?" dialog; render it once. */
  dialog: ReactNode;
}

/**
 * Asks before leaving a form with unsaved changes: in-app navigation shows a dialog, closing or
 * reloading the tab the browser's own prompt. `keepsForm` tells navigations that leave the form on
 * screen (changing another search parameter) from those that close it.
 */
export function useUnsavedChangesGuard(
  dirty: boolean,
  keepsForm: (next: { pathname: string; search: Record<string, unknown> }) => boolean = () => false,
): UnsavedChangesGuard {
  const t = useT('records');
  const dirtyRef = useRef(dirty);
  const releasedRef = useRef(false);
  dirtyRef.current = dirty;
  useEffect(() => {
    if (dirty) releasedRef.current = false;
  }, [dirty]);

  const blocker = useBlocker({
    shouldBlockFn: ({ next }) =>
      dirtyRef.current &&
      !releasedRef.current &&
      !keepsForm({ pathname: next.pathname, search: (next.search ?? {}) as Record<string, unknown> }),
    enableBeforeUnload: () => dirtyRef.current && !releasedRef.current,
    withResolver: true,
  });

  const dialog = (
    <ConfirmDialog
      opened={blocker.status === 'blocked'}
      title={t('form.discard.title')}
      message={t('form.discard.text')}
      confirmLabel={t('form.discard.confirm')}
      cancelLabel={t('form.discard.keep')}
      danger
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    />
  );
  return {
    release: useCallback(() => {
      releasedRef.current = true;
    }, []),
    dialog,
  };
}

/** Ctrl+S / Cmd+S runs `save` while mounted (and not the browser's "save page"). */
export function useSaveShortcut(save: () => void, enabled = true) {
  const saveRef = useRef(save);
  saveRef.current = save;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        saveRef.current();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}

export interface RecordFormShellProps<TValues extends FieldValues> {
  form: UseFormReturn<TValues>;
  submit: RecordSubmit;
  /**
   * After a conflict: re-reads the record and reapplies the user's changes on top (`base.reapply`),
   * answering the fields that changed meanwhile.
   */
  onReload?: () => Promise<string[] | undefined>;
  /** Names of the form's fields, to say which ones someone else changed (`changed meanwhile: ETA`). */
  fieldLabels?: Readonly<Record<string, string>>;
  submitLabel: string;
  onCancel?: (() => void) | undefined;
  /** The form's fields. */
  children: ReactNode;
  /** Accessible name of the form. */
  label: string;
  testId?: string;
}

/** "ETA and Handler", "3 fields": what someone else changed, in the form's words. */
export function changedFieldsText(
  fields: readonly string[],
  labels?: Readonly<Record<string, string>>,
): string {
  const named = labels ? fields.map((f) => labels[f]).filter((l): l is string => !!l) : [];
  if (!named.length || named.length < fields.length)
    return translate('records:form.fields', { count: fields.length });
  return named.length === 1
    ? (named[0] as string)
    : translate('records:form.andList', { list: named.slice(0, -1).join(', '), last: named.at(-1) });
}

/**
 * The frame of a record form: the fields, then Save/Cancel with the form-level message beside them —
 * a conflict (409) there, where the user just pressed Save, with "Reload and reapply my changes".
 * Ctrl+S / Cmd+S saves.
 */
export function RecordFormShell<TValues extends FieldValues>({
  form,
  submit,
  onReload,
  fieldLabels,
  submitLabel,
  onCancel,
  children,
  label,
  testId = 'record-form',
}: RecordFormShellProps<TValues>) {
  const t = useT('records');
  const { isSubmitting, errors } = form.formState;
  const serverMessage = (errors.root as { server?: { message?: string } } | undefined)?.server?.message;
  const [reapplied, setReapplied] = useState<string[] | null>(null);
  const [reloading, setReloading] = useState(false);
  useSaveShortcut(() => void submit.submit());

  const reload = async () => {
    if (!onReload) return;
    setReloading(true);
    try {
      const changed = await onReload();
      submit.clearConflict();
      form.clearErrors(SERVER_ERROR_KEY as never);
      setReapplied(changed ?? []);
    } finally {
      setReloading(false);
    }
  };

  const message = submit.conflict ? (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={onReload ? t('form.conflict.changed') : t('form.conflict.notSaved')}
      role="alert"
      data-testid="form-conflict"
    >
      <Stack gap="xs">
        <Text size="sm">{submit.conflict}</Text>
        {onReload && (
          <Group>
            <Button
              size="xs"
              variant="light"
              color="orange"
              loading={reloading}
              leftSection={<IconRefresh size={14} aria-hidden />}
              onClick={() => void reload()}
              data-testid="form-reload"
            >
              {t('form.conflict.reload')}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  ) : serverMessage ? (
    <Alert color="red" variant="light" role="alert" data-testid="form-error">
      {serverMessage}
    </Alert>
  ) : reapplied ? (
    <Alert
      color="blue"
      variant="light"
      data-testid="form-reapplied"
      withCloseButton
      onClose={() => setReapplied(null)}
    >
      {reapplied.length
        ? t('form.reapplied.some', { fields: changedFieldsText(reapplied, fieldLabels) })
        : t('form.reapplied.none')}
    </Alert>
  ) : null;

  return (
    <form
      onSubmit={(event) => {
        setReapplied(null);
        void submit.submit(event);
      }}
      noValidate
      aria-label={label}
      data-testid={testId}
    >
      <Stack gap="lg">
        {children}
        <Group justify="flex-end" align="flex-start" gap="sm" wrap="wrap">
          {message && (
            <div style={{ flex: '1 1 20rem', minWidth: 0 }} data-testid="form-message">
              {message}
            </div>
          )}
          <Group gap="sm" wrap="nowrap">
            {onCancel && (
              <Button variant="default" onClick={onCancel} data-testid="form-cancel">
                {t('form.cancel')}
              </Button>
            )}
            <Button type="submit" loading={isSubmitting} data-testid="form-submit">
              {submitLabel}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

/** Navigations that leave a form on screen (changing another search parameter): not guarded. */
export type KeepsForm = (next: { pathname: string; search: Record<string, unknown> }) => boolean;

/** What the screen gives a record form: where a save goes next, Cancel, the conflict reload, the guard's exceptions. */
export interface RecordFormWiring<R> {
  onSaved?: ((saved: R) => void) | undefined;
  onCancel?: (() => void) | undefined;
  /** Re-reads the record after a conflict; the form then reapplies the user's changes on top of it. */
  reload?: (() => Promise<R | undefined>) | undefined;
  /** Navigations that keep the form on screen (not guarded). */
  keepsForm?: KeepsForm | undefined;
}

/** What an edit's save is given besides the body. */
export interface RecordEdit<R> {
  /** The record being edited. */
  record: R;
  /** The version the form's values came from: what a save sends, so a change made meanwhile answers 409. */
  version: number;
  /** The top-level fields of `body` the user changed. */
  changed: <B extends Record<string, unknown>>(body: B) => Partial<B>;
  /** What a PATCH sends: the changed fields with that version. */
  patch: <B extends Record<string, unknown>>(body: B) => Partial<B> & { version: number };
}

/**
 * A record form declared: the contract (schema and the mapping of the inputs onto what it takes), the
 * values of a record (or of a new one), the labels, and how a save creates or updates. useRecordForm
 * wires the rest (RecordBase, RecordSubmit, the unsaved-changes guard, the conflict reload) the same
 * way for every area.
 */
export interface RecordFormOptions<TValues extends FieldValues, R, S extends z.ZodType, B>
  extends RecordFormWiring<R> {
  /** The record edited; absent: a new one. */
  record?: R | undefined;
  /**
   * The form's values of a record: an edit starts from them, follows the record while untouched and
   * starts over from what it saved.
   */
  valuesOf?: (record: R) => TValues;
  /** A new record's starting values (read once). */
  empty?: () => TValues;
  /** The contract's schema: it validates as the user types (contractResolver) and makes the body of a save. */
  schema?: S;
  /** The form's values as the schema takes them (empty ids → null, numbers…); default: the values. */
  toInput?: (values: TValues) => unknown;
  /** The form's labels by field path: problems and "changed meanwhile" are worded with them. */
  labels?: Readonly<Record<string, string>> | undefined;
  /** Guards leaving with unsaved changes (default); a form that closes with its dialog says false. */
  guard?: boolean;
  /** What a save sends, when it is not the schema's reading of the input (default: that, or the values). */
  body?: (values: TValues) => B;
  /**
   * The area's create and update mutations when they take the API's shapes: the body for POST, `{ id,
   * body }` for PATCH /:id (the changed fields with the version). `create`/`update` say otherwise.
   */
  mutations?: {
    create?: { mutateAsync: (body: B) => Promise<R> };
    update?: { mutateAsync: (vars: { id: string; body: Partial<B> & { version: number } }) => Promise<R> };
  };
  /** Saves a new record; undefined: not saved (the form has said why on a field). */
  create?: (body: B) => Promise<R | undefined>;
  /** Saves the edited record. */
  update?: (body: B, edit: RecordEdit<R>) => Promise<R>;
  /**
   * A form edited in place, with no dialog to close: without `onCancel`, Cancel shows while there are
   * changes and puts back what is saved.
   */
  inPlace?: boolean;
  /**
   * What a form without `valuesOf` starts over from after a save: what it sent ('sent') or its empty
   * values ('empty'); by default it is left as it is (the screen closes it).
   */
  startOver?: 'sent' | 'empty';
}

export interface RecordFormState<TValues extends FieldValues, R = unknown> {
  form: UseFormReturn<TValues>;
  submit: RecordSubmit;
  base: RecordBase<R>;
  guard: UnsavedChangesGuard;
  /** Whether it edits a record (or makes a new one). */
  editing: boolean;
  labels?: Readonly<Record<string, string>> | undefined;
  onCancel?: (() => void) | undefined;
  onReload?: (() => Promise<string[] | undefined>) | undefined;
}

const noValues = () => ({}) as never;
const asIs = (values: unknown) => values;

/**
 * One record form's wiring: the form with the contract's resolver, the edit tied to the record's
 * version, the save (create or update, a PATCH sending what changed), the unsaved-changes guard and
 * the 409 reload. Render it with RecordForm; the area declares its fields.
 */
export function useRecordForm<
  TValues extends FieldValues,
  R,
  S extends z.ZodType = z.ZodType<TValues>,
  B = z.output<S>,
>(options: RecordFormOptions<TValues, R, S, B>): RecordFormState<TValues, R> {
  const { record, valuesOf, labels, reload, schema, toInput = asIs, mutations } = options;
  const create = options.create ?? mutations?.create?.mutateAsync;
  const update =
    options.update ??
    (mutations?.update
      ? (body: B, edit: RecordEdit<R>) =>
          (mutations.update as NonNullable<typeof mutations.update>).mutateAsync({
            id: (edit.record as { id: string }).id,
            body: edit.patch(body as Record<string, unknown>) as Partial<B> & { version: number },
          })
      : undefined);
  const [defaultValues] = useState(() =>
    record && valuesOf ? valuesOf(record) : (options.empty?.() ?? ({} as TValues)),
  );
  const resolver = useMemo(
    () => (schema ? contractResolver<TValues>(schema, toInput, labels) : undefined),
    [schema, toInput, labels],
  );
  const form = useForm<TValues>({
    ...(resolver ? { resolver } : {}),
    defaultValues: defaultValues as DefaultValues<TValues>,
  });
  const guard = useUnsavedChangesGuard(
    options.guard === false ? false : form.formState.isDirty,
    options.keepsForm,
  );
  const base = useRecordBase(
    form,
    valuesOf ? (record as (R & { version: number }) | undefined) : undefined,
    (valuesOf ?? noValues) as (record: R & { version: number }) => TValues,
  ) as RecordBase<R>;
  const submit = useRecordSubmit(
    form,
    async (values) => {
      const body = options.body
        ? options.body(values)
        : schema
          ? (schema.parse(toInput(values)) as B)
          : (values as unknown as B);
      let saved: R | undefined;
      if (record) {
        if (!update) return;
        const version = base.version ?? (record as unknown as { version: number }).version;
        const changed = <F extends Record<string, unknown>>(full: F) =>
          changedFields(full, form.formState.dirtyFields);
        saved = await update(body, {
          record,
          version,
          changed,
          patch: (full) => ({ ...changed(full), version }),
        });
      } else {
        saved = await create?.(body);
        if (saved === undefined) return;
      }
      guard.release();
      if (valuesOf) base.restart(saved);
      else if (options.startOver === 'sent') form.reset(values);
      else if (options.startOver === 'empty') form.reset(options.empty?.());
      options.onSaved?.(saved);
    },
    labels ? { labels } : {},
  );
  return {
    form,
    submit,
    base,
    guard,
    editing: Boolean(record),
    labels,
    onCancel:
      options.onCancel ??
      (options.inPlace && record && form.formState.isDirty ? () => form.reset() : undefined),
    onReload: reload
      ? async () => {
          const fresh = await reload();
          return fresh ? base.reapply(fresh) : undefined;
        }
      : undefined,
  };
}

export type RecordFormProps<TValues extends FieldValues> = Omit<
  RecordFormShellProps<TValues>,
  'form' | 'submit' | 'submitLabel' | 'label'
> & {
  /** What useRecordForm answered. */
  of: Pick<
    RecordFormState<TValues>,
    'form' | 'submit' | 'guard' | 'editing' | 'labels' | 'onCancel' | 'onReload'
  >;
} & (
    | {
        /**
         * What the record is called ('dossier'): the form reads "New dossier" / "Edit dossier D-…",
         * saves with "Create dossier" / "Save dossier" and is found as `dossier-form`.
         */
        noun: string;
        /** The edited record's number or code, in the form's name. */
        reference?: string | undefined;
        submitLabel?: never;
        label?: never;
      }
    | { noun?: never; reference?: never; submitLabel: string; label: string }
  );

/** A record form on screen: the shell (fields, Save/Cancel, messages, conflict reload) and the guard's dialog. */
export function RecordForm<TValues extends FieldValues>({
  of,
  noun,
  reference,
  submitLabel,
  label,
  ...shell
}: RecordFormProps<TValues>) {
  const named = noun
    ? {
        submitLabel: of.editing ? `Save ${noun}` : `Create ${noun}`,
        label: of.editing ? `Edit ${noun} ${reference ?? ''}`.trim() : `New ${noun}`,
        testId: `${noun}-form`,
      }
    : { submitLabel: submitLabel as string, label: label as string };
  return (
    <>
      <RecordFormShell
        form={of.form}
        submit={of.submit}
        {...named}
        {...(of.labels ? { fieldLabels: of.labels } : {})}
        {...(of.onCancel ? { onCancel: of.onCancel } : {})}
        {...(of.onReload ? { onReload: of.onReload } : {})}
        {...shell}
      />
      {of.guard.dialog}
    </>
  );
}
