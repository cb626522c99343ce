import { minorUnitsOf, sumDecimal } from '@fvg/contracts';
import { ActionIcon, Anchor, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useElementSize, useMergedRef } from '@mantine/hooks';
import {
  IconArrowDown,
  IconArrowUp,
  IconChevronDown,
  IconChevronRight,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import {
  type CSSProperties,
  Fragment,
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';
import {
  type ArrayPath,
  type FieldArray,
  type FieldPath,
  type FieldValues,
  get,
  type UseFormReturn,
  useFieldArray,
  useWatch,
} from 'react-hook-form';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import { useT } from '../../lib/i18n.ts';
import { LookupField, SelectField, TextareaField, TextField } from './form-fields.tsx';
import classes from './line-items-editor.module.css';
import { DecimalField, MoneyField } from './money-field.tsx';
import type { LookupOption, LookupSource } from './record-select.tsx';

/*
 * The one editor of document lines (charges now; offer, invoice, declaration and shipment lines next):
 * a column list drives a react-hook-form field array. Rows sit on one line while the columns fit and
 * wrap into two (each cell with its own caption) when they do not, so nothing is cut and nothing
 * scrolls sideways. Totals per currency are exact decimals. Enter in the last row adds a line,
 * Ctrl+Shift+Backspace (⌘⇧⌫) removes the row, and every cell shows its own error, including the
 * server's (`charges.3.amount` lands on line 4's amount). Lines with more fields than a row holds
 * (declaration items) open a details panel under their row; lines whose order matters move up and down
 * (buttons, Alt+↑/↓).
 */

type LineValues = Record<string, unknown>;

interface ColumnBase<L extends LineValues> {
  /** The line's field this column edits (for `computed`, a name of its own). */
  field: keyof L & string;
  /** Header and accessible name of the cells. */
  label: string;
  /** Fixed width in px… */
  width?: number;
  /** …or a share of the free space, never narrower than `minWidth` px. */
  flex?: number;
  minWidth?: number;
  /** Narrow layout: this column starts the line's second row (e.g. the amounts after the texts). */
  wrapBefore?: boolean;
  required?: boolean;
  /** Costs, margins and other internal figures: left out for viewers who must not see them. */
  internal?: boolean;
  placeholder?: string;
  /**
   * Lines this cell applies to (an exemption reason only on exempt lines); on the others the cell is
   * an empty dash, not an input.
   */
  when?: (line: L) => boolean;
}

export type LineColumn<L extends LineValues> = ColumnBase<L> &
  /** `multiline`: grows to show a long description whole instead of cutting it. */
  (
    | { kind: 'text'; maxLength?: number; multiline?: boolean }
    /**
     * Short upper-case codes: charge codes, currencies, VAT codes. `transform` replaces the upper-casing
     * (a commodity code drops the spaces it is grouped with); `format` shows the stored code the way people read it
     * ('84713000' → '8471 30 00') while the cell is not being edited.
     */
    | {
        kind: 'code';
        maxLength?: number;
        transform?: (typed: string) => string;
        format?: (stored: string) => string;
      }
    | { kind: 'select'; options: readonly { value: string; label: string }[]; searchable?: boolean }
    | { kind: 'lookup'; source: LookupSource; knownOption?: (line: L) => LookupOption | null }
    /** An amount in the line's currency (its decimals: JPY 0, EUR 2…), capped by the column's scale. */
    | { kind: 'money'; currency: (line: L) => string; maxDecimals?: number }
    /** A quantity, rate or percentage: up to `decimals`, kept as typed. */
    | { kind: 'quantity'; decimals: number }
    /** Shown, not edited: a line amount (quantity × unit price), a converted amount. */
    | { kind: 'computed'; value: (line: L) => ReactNode }
  );

/** Sums one figure of the lines per currency (e.g. the cost lines' amounts). */
export interface LineTotal<L extends LineValues> {
  label: string;
  /** The line's share as a decimal string, or null to leave the line out (another kind, still typed). */
  amount: (line: L) => string | null | undefined;
  currency: (line: L) => string;
  internal?: boolean;
}

export interface LineAddAction<L extends LineValues> {
  label: string;
  line: () => L;
  testId?: string;
  color?: string;
  icon?: ReactNode;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const CURRENCY = /^[A-Z]{3}$/;

/** Per currency (A→Z), the exact sum of the lines' amounts in that currency's decimals; lines still being typed are left out. */
export function totalsPerCurrency<L extends LineValues>(
  lines: readonly L[],
  total: Pick<LineTotal<L>, 'amount' | 'currency'>,
): { currency: string; amount: string }[] {
  const byCurrency = new Map<string, string[]>();
  for (const line of lines) {
    const amount = total.amount(line)?.trim();
    const currency = total.currency(line).trim().toUpperCase();
    if (!amount || !DECIMAL.test(amount) || !CURRENCY.test(currency)) continue;
    byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), amount]);
  }
  return [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amounts]) => ({ currency, amount: sumDecimal(amounts, minorUnitsOf(currency)) }));
}

const ACTIONS_WIDTH = 36;
/** Per button when a line has more than one (details, move up and down, remove). */
const ACTION_WIDTH = 30;
const GAP = 8;

function columnTrack(column: ColumnBase<LineValues>): string {
  if (column.width !== undefined) return `${column.width}px`;
  return `minmax(${column.minWidth ?? 120}px, ${column.flex ?? 1}fr)`;
}

function columnBasis(column: ColumnBase<LineValues>): number {
  return column.width ?? column.minWidth ?? 120;
}

const REMOVE_SHORTCUT_MAC = '⌘⇧⌫';
const REMOVE_SHORTCUT_SHORT = 'Ctrl+Shift+Backspace';

function isRemoveShortcut(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && event.shiftKey && event.key === 'Backspace';
}

const MOVE_SHORTCUT = 'Alt+↑ / Alt+↓';

function moveShortcut(event: KeyboardEvent): -1 | 1 | 0 {
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return 0;
  return event.key === 'ArrowUp' ? -1 : event.key === 'ArrowDown' ? 1 : 0;
}

/** A line's further fields, in a panel under its row (the fields a row has no room for, a calculation). */
export interface LineDetails<L extends LineValues> {
  render: (index: number, line: L) => ReactNode;
  /** The line fields the panel edits: an error on one opens the line and shows in the panel, not under the row. */
  fields: readonly string[];
  /** Names the panel in the toggle's label: 'details' → "Show details of item 2". */
  label?: string;
  /**
   * The names of the panel's fields a line still needs (e.g. what lodging requires), shown under its
   * row while the panel is closed, with a button that opens it: nothing required hides in a panel.
   */
  pending?: (index: number, line: L) => readonly string[];
}

export interface LineItemsEditorProps<T extends FieldValues, L extends LineValues> {
  form: UseFormReturn<T>;
  /** The field array, e.g. 'charges'. */
  name: ArrayPath<T>;
  columns: readonly LineColumn<L>[];
  /** The line Enter adds after `previous` (e.g. the same kind and currency). */
  newLine: (previous: L | undefined) => L;
  /** The add buttons; one "Add line" by default. */
  addActions?: readonly LineAddAction<L>[];
  totals?: readonly LineTotal<L>[];
  /** Below the totals (e.g. the base-currency totals and profit). */
  footer?: ReactNode;
  /** Lines as text: customers, locked records. */
  readOnly?: boolean;
  /** False for viewers who must not see internal columns and totals (customers). */
  showInternal?: boolean;
  /** Names one line in labels: 'charge' → "Remove charge 2"; test ids `charge-1`, `remove-charge-1`. */
  itemName: string;
  /** "No charges yet". */
  emptyTitle: string;
  /** What to add, under the empty title. */
  emptyHint?: ReactNode;
  /** Forces a layout (tests, print); by default the measured width decides. */
  layout?: 'auto' | 'wide' | 'narrow';
  testId?: string;
  /** A panel of further fields per line, opened from its row (also when read-only). */
  details?: LineDetails<L>;
  /** Lines whose order matters: move up / down buttons and Alt+↑ / Alt+↓. */
  reorderable?: boolean;
}

/** Under a closed line: which of its panel's fields still need filling in, and a way there. */
function PendingDetails({
  names,
  label,
  open,
  testId,
}: {
  names: readonly string[];
  label: string;
  open: () => void;
  testId: string;
}) {
  const t = useT('records');
  if (names.length === 0) return null;
  return (
    <Text size="xs" c="orange.9" className={classes.lineError} data-testid={testId}>
      {t('lines.pending', { details: label, fields: names.join(', ') })}{' '}
      <Anchor component="button" type="button" size="xs" onClick={open}>
        {t('lines.fillIn')}
      </Anchor>
    </Text>
  );
}

export function LineItemsEditor<T extends FieldValues, L extends LineValues>({
  form,
  name,
  columns: allColumns,
  newLine,
  addActions,
  totals = [],
  footer,
  readOnly = false,
  showInternal = true,
  itemName,
  emptyTitle,
  emptyHint,
  layout = 'auto',
  testId = 'line-items',
  details,
  reorderable = false,
}: LineItemsEditorProps<T, L>) {
  const t = useT('records');
  const removeShortcut = t('lines.removeShortcut', { keys: REMOVE_SHORTCUT_SHORT, mac: REMOVE_SHORTCUT_MAC });
  const columns = allColumns.filter((c) => showInternal || !c.internal);
  const lines = useFieldArray({ control: form.control, name });
  const watched = (useWatch({ control: form.control, name: name as unknown as FieldPath<T> }) ?? []) as L[];
  const { ref: sizeRef, width } = useElementSize();
  const firstAdd = useRef<HTMLButtonElement>(null);

  const actionCount = (details ? 1 : 0) + (readOnly ? 0 : 1 + (reorderable ? 2 : 0));
  const actionsWidth = actionCount <= 1 ? ACTIONS_WIDTH : actionCount * ACTION_WIDTH;
  const hasActions = actionCount > 0;
  const minWidth =
    columns.reduce((sum, c) => sum + columnBasis(c as ColumnBase<LineValues>), 0) +
    (hasActions ? actionsWidth : 0) +
    GAP * columns.length;
  // Unmeasured (0) renders wide: the first measurement follows before anyone sees it.
  const narrow = layout === 'narrow' || (layout === 'auto' && width > 0 && width < minWidth);
  const template = [
    ...columns.map((c) => columnTrack(c as ColumnBase<LineValues>)),
    ...(hasActions ? [`${actionsWidth}px`] : []),
  ].join(' ');

  const editable = columns.filter((c) => c.kind !== 'computed');
  const pathOf = useCallback(
    (index: number, field: string) => `${name}.${index}.${field}` as FieldPath<T>,
    [name],
  );

  // After a removal the focus moves to the line that took its place (or the one before, or "Add").
  const pendingFocus = useRef<{ index: number; field: string } | null>(null);
  const count = lines.fields.length;
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = null;
    if (count === 0) firstAdd.current?.focus();
    else form.setFocus(pathOf(Math.min(target.index, count - 1), target.field));
  }, [count, form, pathOf]);

  // After a move the focus follows the line (the button or cell it was on, at the line's new place).
  const pendingMoveFocus = useRef<{ index: number; field: string | null; button: string | null } | null>(
    null,
  );
  const rowsRef = useRef<HTMLDivElement>(null);
  const rowsAndSizeRef = useMergedRef(sizeRef, rowsRef);
  useEffect(() => {
    const target = pendingMoveFocus.current;
    if (!target) return;
    pendingMoveFocus.current = null;
    if (target.field) form.setFocus(pathOf(target.index, target.field));
    else if (target.button) {
      const button = rowsRef.current?.querySelector<HTMLButtonElement>(
        `[data-testid="${target.button}-${itemName}-${target.index}"]`,
      );
      // At the first or last place the button pressed is disabled: its partner takes the focus.
      const partner = target.button === 'move-up' ? 'move-down' : 'move-up';
      (button && !button.disabled
        ? button
        : rowsRef.current?.querySelector<HTMLButtonElement>(
            `[data-testid="${partner}-${itemName}-${target.index}"]`,
          )
      )?.focus();
    }
  });
  const move = (index: number, by: -1 | 1, focus: { field: string | null; button: string | null }) => {
    const to = index + by;
    if (to < 0 || to >= lines.fields.length) return;
    pendingMoveFocus.current = { index: to, ...focus };
    lines.move(index, to);
  };

  // Which lines' details are open, by line id (a move keeps a line's panel with it). Untouched, a line
  // opens by itself when one of its panel's fields has an error, so a server error is never hidden.
  const [toggled, setToggled] = useState<Record<string, boolean>>({});

  const add = (line: L) => {
    const index = lines.fields.length;
    const first = editable[0];
    lines.append(line as FieldArray<T, ArrayPath<T>>, {
      shouldFocus: Boolean(first),
      ...(first ? { focusName: pathOf(index, first.field) } : {}),
    });
  };
  const remove = (index: number, field: string = editable[0]?.field ?? '') => {
    pendingFocus.current = { index, field };
    lines.remove(index);
  };

  const onRowKeyDown = (index: number) => (event: KeyboardEvent<HTMLFieldSetElement>) => {
    const target = event.target as HTMLElement;
    if (target.closest('[data-line-details]')) {
      // The panel's own inputs: Enter neither adds a line nor submits the record's form.
      if (
        event.key === 'Enter' &&
        target.tagName === 'INPUT' &&
        !target.hasAttribute('aria-haspopup') &&
        !event.defaultPrevented
      )
        event.preventDefault();
      return;
    }
    const field = target.closest<HTMLElement>('[data-line-field]')?.dataset.lineField;
    const by = reorderable ? moveShortcut(event) : 0;
    if (by !== 0 && !target.hasAttribute('aria-haspopup')) {
      event.preventDefault();
      const button = target.dataset.testid?.match(/^(move-up|move-down)-/)?.[1] ?? null;
      move(index, by, { field: field ?? null, button: field ? null : (button ?? 'move-up') });
      return;
    }
    if (isRemoveShortcut(event)) {
      event.preventDefault();
      remove(index, field);
      return;
    }
    // Enter in a text box (not a dropdown, which uses it to pick; Shift+Enter keeps a new line in a
    // description): the next line, or a new one.
    if (
      event.key !== 'Enter' ||
      event.shiftKey ||
      event.ctrlKey ||
      event.metaKey ||
      event.altKey ||
      event.defaultPrevented ||
      (target.tagName !== 'INPUT' && target.tagName !== 'TEXTAREA') ||
      target.hasAttribute('aria-haspopup')
    )
      return;
    event.preventDefault();
    if (index === lines.fields.length - 1) add(newLine(watched[index]));
    else if (field) form.setFocus(pathOf(index + 1, field));
  };

  const arrayError = (() => {
    // `get`: the array may sit in a nested path (`sections.0.lines`).
    const error = get(form.formState.errors, name) as
      | { message?: string; root?: { message?: string } }
      | undefined;
    return error?.root?.message ?? error?.message;
  })();
  const lineErrorsOf = (index: number) =>
    (get(form.formState.errors, name) as Record<number, Record<string, unknown> | undefined> | undefined)?.[
      index
    ];
  const detailsHaveErrors = (index: number): boolean => {
    const line = lineErrorsOf(index);
    return Boolean(line && details?.fields.some((f) => line[f] !== undefined));
  };
  const isOpen = (index: number): boolean => {
    const id = lines.fields[index]?.id;
    return Boolean(details) && (toggled[id ?? ''] ?? detailsHaveErrors(index));
  };
  // A line an error opened stays open once the error is fixed: the panel does not vanish under the
  // user's hands.
  const openedByErrors = lines.fields
    .filter((f, i) => toggled[f.id] === undefined && detailsHaveErrors(i))
    .map((f) => f.id)
    .join(' ');
  useEffect(() => {
    if (openedByErrors)
      setToggled((t) => ({ ...t, ...Object.fromEntries(openedByErrors.split(' ').map((id) => [id, true])) }));
  }, [openedByErrors]);
  /** Errors of a line's fields that have no cell here (a column left out, the line as a whole). */
  const lineErrors = (index: number): string[] => {
    const line = lineErrorsOf(index);
    if (!line) return [];
    const shown = new Set<string>([
      ...columns.filter((c) => c.kind !== 'computed').map((c) => c.field),
      ...(isOpen(index) ? (details?.fields ?? []) : []),
    ]);
    const messageOf = (value: unknown) =>
      typeof (value as { message?: unknown } | undefined)?.message === 'string'
        ? [(value as { message: string }).message]
        : [];
    return [
      ...messageOf(line),
      ...Object.entries(line)
        .filter(([key]) => !shown.has(key) && key !== 'message' && key !== 'type' && key !== 'ref')
        .flatMap(([, value]) => messageOf(value)),
    ];
  };

  const actions: readonly LineAddAction<L>[] = addActions ?? [
    { label: t('lines.add'), line: () => newLine(watched[watched.length - 1]) },
  ];
  const visibleTotals = totals.filter((t) => showInternal || !t.internal);
  const style = { '--line-columns': template, '--line-gap': `${GAP}px` } as CSSProperties;

  const cell = (column: LineColumn<L>, index: number): ReactNode => {
    // A line just added is in the field array a render before useWatch reports it.
    const line = (watched[index] ?? lines.fields[index] ?? {}) as L;
    const path = pathOf(index, column.field);
    const label = t('lines.cell', { column: column.label, item: itemName, n: index + 1 });
    if (column.when && !column.when(line))
      return (
        <Text
          size="sm"
          c="dimmed"
          className={classes.readOnly}
          aria-label={t('lines.notApplicable', { label })}
        >
          —
        </Text>
      );
    if (readOnly || column.kind === 'computed') return <ReadOnlyCell column={column} line={line} />;
    // What every editable cell shares: its field and its accessible name.
    const bound = { form, name: path, 'aria-label': label, placeholder: column.placeholder };
    switch (column.kind) {
      case 'text':
        return column.multiline ? (
          <TextareaField {...bound} maxLength={column.maxLength} autosize minRows={1} maxRows={4} />
        ) : (
          <TextField {...bound} maxLength={column.maxLength} />
        );
      case 'code':
        return (
          <TextField
            {...bound}
            maxLength={column.maxLength}
            transform={column.transform ?? ((v) => v.toUpperCase())}
            {...(column.format ? { format: column.format } : {})}
          />
        );
      case 'select':
        return (
          <SelectField
            {...bound}
            data={column.options as { value: string; label: string }[]}
            allowDeselect={!column.required}
            searchable={column.searchable}
          />
        );
      case 'lookup':
        return (
          <LookupField
            {...bound}
            source={column.source}
            knownOption={column.knownOption?.(line) ?? null}
            clearable={!column.required}
          />
        );
      case 'money':
        return (
          <MoneyField
            {...bound}
            currency={column.currency(line)}
            showCurrency={false}
            {...(column.maxDecimals !== undefined ? { maxDecimals: column.maxDecimals } : {})}
          />
        );
      case 'quantity':
        return <DecimalField {...bound} decimals={column.decimals} />;
    }
  };

  return (
    <Stack gap="sm" data-testid={testId} data-layout={narrow ? 'narrow' : 'wide'}>
      <div
        ref={rowsAndSizeRef}
        className={`${classes.lines} ${narrow ? classes.narrow : ''}`}
        style={style}
        data-testid={`${testId}-rows`}
      >
        {!narrow && lines.fields.length > 0 && (
          // Each cell carries its own accessible name; the header is for the eye.
          <div className={`${classes.row} ${classes.header}`} aria-hidden>
            {columns.map((c) => (
              <div key={c.field} className={alignClass(c)}>
                {c.label}
                {c.required && !readOnly ? <span className={classes.required}> *</span> : null}
              </div>
            ))}
            {hasActions && <div />}
          </div>
        )}
        {lines.fields.map((item, index) => {
          const extra = lineErrors(index);
          const open = isOpen(index);
          const line = (watched[index] ?? item) as unknown as L;
          const detailsId = `${testId}-${item.id}-details`;
          const detailsLabel = details?.label ?? t('lines.details');
          return (
            // A fieldset: one named group of inputs per line, relaying its inputs' keys.
            <fieldset
              key={item.id}
              aria-label={`${capitalize(itemName)} ${index + 1}`}
              className={`${classes.row} ${classes.line}`}
              onKeyDown={readOnly ? undefined : onRowKeyDown(index)}
              data-open={details ? open : undefined}
              data-testid={`${itemName}-${index}`}
            >
              {columns.map((c) => (
                <Fragment key={c.field}>
                  {narrow && c.wrapBefore && <div className={classes.break} />}
                  <div
                    className={`${classes.cell} ${alignClass(c)}`}
                    data-line-field={c.field}
                    style={
                      {
                        '--cell-basis': `${columnBasis(c as ColumnBase<LineValues>)}px`,
                        '--cell-grow': c.width === undefined ? (c.flex ?? 1) : 0,
                      } as CSSProperties
                    }
                  >
                    {narrow && (
                      <Text component="div" size="xs" c="dimmed" className={classes.caption} aria-hidden>
                        {c.label}
                      </Text>
                    )}
                    <div
                      data-testid={
                        c.kind === 'computed' || readOnly ? `${itemName}-${index}-${c.field}` : undefined
                      }
                    >
                      {cell(c, index)}
                    </div>
                  </div>
                </Fragment>
              ))}
              {hasActions && (
                <div className={classes.actions}>
                  {details && (
                    <Tooltip
                      label={
                        open
                          ? t('lines.hide', { details: detailsLabel })
                          : t('lines.allFields', { details: detailsLabel })
                      }
                      openDelay={300}
                    >
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        onClick={() => setToggled((t) => ({ ...t, [item.id]: !open }))}
                        aria-label={
                          open
                            ? t('lines.hideOf', { details: detailsLabel, item: itemName, n: index + 1 })
                            : t('lines.showOf', { details: detailsLabel, item: itemName, n: index + 1 })
                        }
                        aria-expanded={open}
                        aria-controls={open ? detailsId : undefined}
                        data-testid={`details-${itemName}-${index}`}
                      >
                        {open ? (
                          <IconChevronDown size={16} aria-hidden />
                        ) : (
                          <IconChevronRight size={16} aria-hidden />
                        )}
                      </ActionIcon>
                    </Tooltip>
                  )}
                  {reorderable && !readOnly && (
                    <>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        disabled={index === 0}
                        onClick={() => move(index, -1, { field: null, button: 'move-up' })}
                        aria-label={t('lines.moveUp', { item: itemName, n: index + 1 })}
                        aria-keyshortcuts="Alt+ArrowUp"
                        title={t('lines.moveUpTitle', { keys: MOVE_SHORTCUT })}
                        data-testid={`move-up-${itemName}-${index}`}
                      >
                        <IconArrowUp size={16} aria-hidden />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        disabled={index === lines.fields.length - 1}
                        onClick={() => move(index, 1, { field: null, button: 'move-down' })}
                        aria-label={t('lines.moveDown', { item: itemName, n: index + 1 })}
                        aria-keyshortcuts="Alt+ArrowDown"
                        title={t('lines.moveDownTitle', { keys: MOVE_SHORTCUT })}
                        data-testid={`move-down-${itemName}-${index}`}
                      >
                        <IconArrowDown size={16} aria-hidden />
                      </ActionIcon>
                    </>
                  )}
                  {!readOnly && (
                    <Tooltip
                      label={t('lines.removeTooltip', { item: itemName, keys: removeShortcut })}
                      openDelay={300}
                    >
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={() => remove(index)}
                        aria-label={t('lines.remove', { item: itemName, n: index + 1 })}
                        aria-keyshortcuts="Control+Shift+Backspace Meta+Shift+Backspace"
                        data-testid={`remove-${itemName}-${index}`}
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </div>
              )}
              {extra.length > 0 && (
                <Text size="xs" c="red" className={classes.lineError} role="alert">
                  {extra.join(' ')}
                </Text>
              )}
              {details?.pending && !open && !readOnly && (
                <PendingDetails
                  names={details.pending(index, line)}
                  label={detailsLabel}
                  open={() => setToggled((t) => ({ ...t, [item.id]: true }))}
                  testId={`${itemName}-${index}-pending`}
                />
              )}
              {details && open && (
                <section
                  id={detailsId}
                  className={classes.details}
                  aria-label={t('lines.detailsOf', {
                    details: capitalize(detailsLabel),
                    item: itemName,
                    n: index + 1,
                  })}
                  data-line-details
                  data-testid={`${itemName}-${index}-details`}
                >
                  {details.render(index, line)}
                </section>
              )}
            </fieldset>
          );
        })}
      </div>

      {lines.fields.length === 0 && (
        <Stack gap={2} className={classes.empty} data-testid={`${testId}-empty`}>
          <Text fw={600} size="sm">
            {emptyTitle}
          </Text>
          {emptyHint && (
            <Text size="sm" c="dimmed">
              {emptyHint}
            </Text>
          )}
        </Stack>
      )}

      {arrayError && (
        <Text size="sm" c="red" role="alert" data-testid={`${testId}-error`}>
          {arrayError}
        </Text>
      )}

      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        {readOnly ? (
          <div />
        ) : (
          <Stack gap={4}>
            <Group gap="xs">
              {actions.map((action, i) => (
                <Button
                  key={action.label}
                  ref={i === 0 ? firstAdd : undefined}
                  variant="light"
                  size="xs"
                  color={action.color}
                  leftSection={action.icon ?? <IconPlus size={14} aria-hidden />}
                  onClick={() => add(action.line())}
                  data-testid={action.testId ?? `add-${itemName}`}
                >
                  {action.label}
                </Button>
              ))}
            </Group>
            <Text size="xs" c="dimmed" data-testid={`${testId}-keys`}>
              {t('lines.keys', { keys: REMOVE_SHORTCUT_SHORT })}
              {reorderable ? t('lines.keysMove', { keys: MOVE_SHORTCUT }) : ''}
            </Text>
          </Stack>
        )}
        <Stack gap={4} align="flex-end" ml="auto">
          {visibleTotals.map((total) => (
            <TotalLine key={total.label} total={total} lines={watched} testId={testId} />
          ))}
          {footer}
        </Stack>
      </Group>
    </Stack>
  );
}

function TotalLine<L extends LineValues>({
  total,
  lines,
  testId,
}: {
  total: LineTotal<L>;
  lines: readonly L[];
  testId: string;
}) {
  const sums = totalsPerCurrency(lines, total);
  return (
    <Text size="sm" data-testid={`${testId}-total-${total.label.toLowerCase().replace(/\W+/g, '-')}`}>
      {total.label}{' '}
      {sums.length === 0 ? (
        <Text span c="dimmed">
          —
        </Text>
      ) : (
        sums.map((s, i) => (
          <Text span fw={600} key={s.currency}>
            {i > 0 ? ' · ' : ''}
            {formatMoney(s.amount as `${number}`, { currency: s.currency })}
          </Text>
        ))
      )}
    </Text>
  );
}

function ReadOnlyCell<L extends LineValues>({ column, line }: { column: LineColumn<L>; line: L }) {
  const raw = line[column.field];
  const text = typeof raw === 'string' ? raw : raw == null ? '' : String(raw);
  let shown: ReactNode = text;
  switch (column.kind) {
    case 'computed':
      shown = column.value(line);
      break;
    case 'select':
      shown = column.options.find((o) => o.value === text)?.label ?? text;
      break;
    case 'code':
      shown = column.format && text !== '' ? column.format(text) : text;
      break;
    case 'lookup':
      shown = column.knownOption?.(line)?.label ?? '';
      break;
    case 'money': {
      const currency = column.currency(line).trim().toUpperCase();
      shown =
        DECIMAL.test(text) && CURRENCY.test(currency) ? formatMoney(text as `${number}`, { currency }) : text;
      break;
    }
    case 'quantity':
      shown = DECIMAL.test(text)
        ? formatNumber(text as `${number}`, { maximumFractionDigits: column.decimals })
        : text;
      break;
  }
  return (
    <Text size="sm" className={classes.readOnly}>
      {shown === '' || shown === null || shown === undefined ? '—' : shown}
    </Text>
  );
}

function alignClass(column: { kind: string }): string {
  return column.kind === 'money' || column.kind === 'quantity' || column.kind === 'computed'
    ? (classes.end ?? '')
    : '';
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
