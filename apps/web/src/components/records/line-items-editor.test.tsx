import { multiplyDecimal } from '@fvg/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { errorOf, field } from '../../test/fields.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { type LineColumn, LineItemsEditor, type LineTotal, totalsPerCurrency } from './line-items-editor.tsx';

/** An invoice-like line: quantity × unit price, with a VAT code and an internal cost. */
interface Line extends Record<string, unknown> {
  description: string;
  quantity: string;
  unitPrice: string;
  currency: string;
  vatCode: string;
  unitCost: string;
}

const VAT = [
  { value: 'S', label: 'Standard 21%' },
  { value: 'Z', label: 'Zero rated' },
];

const lineAmount = (l: Line) =>
  /^\d+(\.\d+)?$/.test(l.quantity) && /^\d+(\.\d+)?$/.test(l.unitPrice)
    ? multiplyDecimal(l.quantity, l.unitPrice, 2)
    : null;

const COLUMNS: LineColumn<Line>[] = [
  { field: 'description', label: 'Description', kind: 'text', flex: 2, minWidth: 200, required: true },
  { field: 'quantity', label: 'Qty', kind: 'quantity', decimals: 3, width: 90 },
  { field: 'unitPrice', label: 'Unit price', kind: 'money', currency: (l) => l.currency, width: 120 },
  { field: 'currency', label: 'Currency', kind: 'code', width: 80, maxLength: 3 },
  { field: 'vatCode', label: 'VAT', kind: 'select', options: VAT, width: 140 },
  {
    field: 'unitCost',
    label: 'Unit cost',
    kind: 'money',
    currency: (l) => l.currency,
    width: 120,
    internal: true,
  },
  { field: 'amount', label: 'Amount', kind: 'computed', value: (l) => lineAmount(l) ?? '—', width: 110 },
];

const TOTALS: LineTotal<Line>[] = [
  { label: 'Total', amount: lineAmount, currency: (l) => l.currency },
  { label: 'Cost', amount: (l) => l.unitCost, currency: (l) => l.currency, internal: true },
];

const blank = (previous?: Line): Line => ({
  description: '',
  quantity: '1',
  unitPrice: '',
  currency: previous?.currency ?? 'EUR',
  vatCode: 'S',
  unitCost: '',
});

const line = (over: Partial<Line>): Line => ({ ...blank(), description: 'Freight', ...over });

function Harness({
  lines = [],
  readOnly = false,
  showInternal = true,
  layout = 'auto',
  onForm,
  withDetails = false,
}: {
  lines?: Line[];
  readOnly?: boolean;
  showInternal?: boolean;
  layout?: 'auto' | 'wide' | 'narrow';
  onForm?: (form: ReturnType<typeof useForm<{ lines: Line[] }>>) => void;
  /** The VAT code moves to a details panel, and the lines can be reordered. */
  withDetails?: boolean;
}) {
  const form = useForm<{ lines: Line[] }>({ defaultValues: { lines } });
  onForm?.(form);
  return (
    <LineItemsEditor
      form={form}
      name="lines"
      columns={withDetails ? COLUMNS.filter((c) => c.field !== 'vatCode') : COLUMNS}
      newLine={blank}
      totals={TOTALS}
      {...(withDetails
        ? {
            reorderable: true,
            details: {
              fields: ['vatCode'],
              render: (index: number, l: Line) => (
                <p data-testid={`panel-${index}`}>
                  VAT of {l.description}: {l.vatCode}
                </p>
              ),
            },
          }
        : {})}
      readOnly={readOnly}
      showInternal={showInternal}
      layout={layout}
      itemName="line"
      emptyTitle="No lines yet"
      emptyHint="Add what the customer is billed for."
      testId="lines"
    />
  );
}

const rows = () => screen.queryAllByRole('group');
describe('LineItemsEditor', () => {
  it('starts empty with a way to add, and "Add line" focuses the new line’s first cell', async () => {
    renderWithProviders(<Harness />);
    expect(screen.getByTestId('lines-empty').textContent).toContain('No lines yet');
    fireEvent.click(screen.getByTestId('add-line'));
    await waitFor(() => expect(document.activeElement).toBe(field('lines.0.description')));
    expect(rows()).toHaveLength(1);
    expect(screen.queryByTestId('lines-empty')).toBeNull();
  });

  it('adds with Enter in the last line and removes with Ctrl+Shift+Backspace, keeping the focus in the lines', async () => {
    renderWithProviders(<Harness lines={[line({ currency: 'USD' })]} />);
    fireEvent.keyDown(field('lines.0.unitPrice'), { key: 'Enter' });
    await waitFor(() => expect(document.activeElement).toBe(field('lines.1.description')));
    expect(rows()).toHaveLength(2);
    // The new line follows the one before (its currency).
    expect(field('lines.1.currency').value).toBe('USD');

    // Enter in a line above moves down the same column instead of adding.
    fireEvent.keyDown(field('lines.0.quantity'), { key: 'Enter' });
    await waitFor(() => expect(document.activeElement).toBe(field('lines.1.quantity')));
    expect(rows()).toHaveLength(2);

    fireEvent.change(field('lines.1.description'), { target: { value: 'Second' } });
    fireEvent.keyDown(field('lines.0.description'), { key: 'Backspace', ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(field('lines.0.description').value).toBe('Second');
    await waitFor(() => expect(document.activeElement).toBe(field('lines.0.description')));

    // A plain Ctrl+Backspace (delete a word) is left to the input.
    fireEvent.keyDown(field('lines.0.description'), { key: 'Backspace', ctrlKey: true });
    expect(rows()).toHaveLength(1);

    // The remove button says its shortcut, and the last removal hands the focus to "Add line".
    const remove = screen.getByTestId('remove-line-0');
    expect(remove.getAttribute('aria-label')).toBe('Remove line 1');
    expect(remove.getAttribute('aria-keyshortcuts')).toContain('Control+Shift+Backspace');
    fireEvent.click(remove);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('add-line')));
    expect(screen.getByTestId('lines-empty')).toBeTruthy();
  });

  it('totals per currency with exact decimals: 0.1 + 0.2 is 0.30, yen without cents', () => {
    renderWithProviders(
      <Harness
        lines={[
          line({ unitPrice: '0.10', unitCost: '0.05' }),
          line({ unitPrice: '0.20', unitCost: '0.05' }),
          line({ quantity: '3', unitPrice: '333', currency: 'JPY' }),
          line({ quantity: '2', unitPrice: 'oops' }),
        ]}
      />,
    );
    expect(screen.getByTestId('lines-total-total').textContent).toBe('Total €0.30 · ¥999');
    expect(screen.getByTestId('lines-total-cost').textContent).toBe('Cost €0.10');
    expect(screen.getByTestId('line-2-amount').textContent).toBe('999.00');
    expect(
      totalsPerCurrency(
        [
          { a: '0.1', c: 'usd' },
          { a: '0.2', c: 'USD' },
          { a: '12,5', c: 'USD' },
          { a: '1', c: 'U' },
        ],
        { amount: (l) => l.a, currency: (l) => l.c },
      ),
    ).toEqual([{ currency: 'USD', amount: '0.30' }]);
  });

  it('puts each error of the form on its cell, and errors of the lines as a whole under them', async () => {
    let form: ReturnType<typeof useForm<{ lines: Line[] }>> | undefined;
    renderWithProviders(<Harness lines={[line({}), line({}), line({})]} onForm={(f) => (form = f)} />);
    // As useRecordSubmit does with a problem's errors[].field (`lines.2.unitPrice`, `lines`).
    act(() => {
      form?.setError('lines.2.unitPrice', { type: 'server', message: 'More than the customer’s credit' });
      form?.setError('lines', { type: 'server', message: 'The total is beyond 99,999,999,999,999.99' });
    });
    await waitFor(() => expect(field('lines.2.unitPrice').getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(field('lines.2.unitPrice'))).toContain('More than the customer’s credit');
    expect(field('lines.1.unitPrice').getAttribute('aria-invalid')).not.toBe('true');
    expect(screen.getByTestId('lines-error').textContent).toBe('The total is beyond 99,999,999,999,999.99');
  });

  it('reads as text when read-only: no inputs, no add or remove, internal columns only for those who see them', () => {
    renderWithProviders(
      <Harness
        readOnly
        showInternal={false}
        lines={[line({ quantity: '1250.5', unitPrice: '2450', unitCost: '1.00' })]}
      />,
    );
    const row = screen.getByTestId('line-0');
    expect(within(row).queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.queryByTestId('add-line')).toBeNull();
    expect(screen.queryByTestId('remove-line-0')).toBeNull();
    expect(screen.getByTestId('line-0-unitPrice').textContent).toBe('€2,450.00');
    expect(screen.getByTestId('line-0-quantity').textContent).toBe('1,250.5');
    expect(screen.getByTestId('line-0-vatCode').textContent).toBe('Standard 21%');
    expect(screen.queryByTestId('line-0-unitCost')).toBeNull();
    expect(screen.queryByText('Unit cost')).toBeNull();
    expect(screen.queryByTestId('lines-total-cost')).toBeNull();
    expect(screen.getByTestId('lines-total-total').textContent).toBe('Total €3,063,725.00');
  });

  it('wraps a line onto two with a caption per cell when narrow, instead of a header that scrolls', () => {
    renderWithProviders(<Harness layout="narrow" lines={[line({ unitPrice: '10' })]} />);
    expect(screen.getByTestId('lines').getAttribute('data-layout')).toBe('narrow');
    const row = screen.getByTestId('line-0');
    // Every cell says what it is, the inputs keep their names and the remove button stays.
    for (const label of ['Description', 'Qty', 'Unit price', 'Currency', 'VAT', 'Unit cost', 'Amount'])
      expect(within(row).getByText(label)).toBeTruthy();
    expect(field('lines.0.unitPrice').getAttribute('aria-label')).toBe('Unit price, line 1');
    expect(within(row).getByTestId('remove-line-0')).toBeTruthy();
  });

  it('lays out wide with one header when the width is unknown or enough', () => {
    renderWithProviders(<Harness lines={[line({})]} />);
    expect(screen.getByTestId('lines').getAttribute('data-layout')).toBe('wide');
    // The header names each column once (aria-hidden: the inputs carry the names).
    expect(screen.getAllByText('Unit price')).toHaveLength(1);
  });

  it('opens a line’s details from its row (by itself on an error there) and moves lines by button and Alt+arrow', async () => {
    let form: ReturnType<typeof useForm<{ lines: Line[] }>> | undefined;
    renderWithProviders(
      <Harness
        withDetails
        lines={[line({ description: 'A' }), line({ description: 'B', vatCode: 'Z' })]}
        onForm={(f) => (form = f)}
      />,
    );
    const toggle = screen.getByTestId('details-line-1');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(screen.getByTestId('panel-1').textContent).toBe('VAT of B: Z');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('line-1-details').id).toBe(toggle.getAttribute('aria-controls'));

    // An error on a panel field opens that line; its message is not repeated under the row.
    act(() => form?.setError('lines.0.vatCode', { type: 'server', message: 'Not for this customer' }));
    await waitFor(() => expect(screen.getByTestId('panel-0')).toBeTruthy());
    expect(within(screen.getByTestId('line-0')).queryByRole('alert')).toBeNull();
    // Fixed, it stays open: the panel does not vanish under the user's hands.
    act(() => form?.clearErrors('lines.0.vatCode'));
    expect(screen.getByTestId('panel-0')).toBeTruthy();

    // The panel moves with its line.
    fireEvent.click(screen.getByTestId('move-up-line-1'));
    await waitFor(() => expect(field('lines.0.description').value).toBe('B'));
    expect(screen.getByTestId('panel-0').textContent).toBe('VAT of B: Z');
    expect((screen.getByTestId('move-up-line-0') as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('move-down-line-0')));

    fireEvent.keyDown(field('lines.0.quantity'), { key: 'ArrowDown', altKey: true });
    await waitFor(() => expect(field('lines.1.description').value).toBe('B'));
    await waitFor(() => expect(document.activeElement).toBe(field('lines.1.quantity')));
    expect(screen.getByTestId('lines-keys').textContent).toContain('Alt+↑ / Alt+↓ moves it');
  });

  it('keeps details openable when read-only, without move or remove', () => {
    renderWithProviders(<Harness withDetails readOnly lines={[line({ description: 'A' })]} />);
    expect(screen.queryByTestId('move-up-line-0')).toBeNull();
    expect(screen.queryByTestId('remove-line-0')).toBeNull();
    fireEvent.click(screen.getByTestId('details-line-0'));
    expect(screen.getByTestId('panel-0').textContent).toBe('VAT of A: S');
  });
});
