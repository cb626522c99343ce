import type { DeclarationItem, DeclarationType } from '@fvg/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type ComponentProps, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { errorOf, field } from '../../../test/fields.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import {
  DeclarationItems,
  emptyItem,
  type ItemFormValue,
  itemFromContract,
  itemProblems,
  itemToInput,
} from './declaration-items.tsx';

const item = (over: Partial<ItemFormValue> = {}): ItemFormValue => ({
  ...emptyItem(),
  commodityCode: '84713000',
  description: 'Laptops',
  countryOfOrigin: 'CN',
  procedureCode: '4000',
  packages: '10',
  packageKind: 'CT',
  grossMassKg: '120.5',
  netMassKg: '100',
  invoiceValue: '13000.00',
  customsValue: '12000.00',
  dutyRate: '4.5',
  vatRate: '21',
  vatCosts: '350.00',
  ...over,
});

/** The record form's side: holds the items and records every change the component hands out. */
function Harness({
  type = 'import',
  initial = [],
  readOnly = false,
  errors = {},
  currency = 'EUR',
  exchangeRate = null,
  changes,
  valuation,
}: {
  valuation?: ComponentProps<typeof DeclarationItems>['valuation'];
  type?: DeclarationType;
  initial?: ItemFormValue[];
  readOnly?: boolean;
  errors?: Record<string, string>;
  currency?: string | null;
  exchangeRate?: string | null;
  changes: ItemFormValue[][];
}) {
  const [value, setValue] = useState(initial);
  return (
    <DeclarationItems
      type={type}
      currency={currency}
      exchangeRate={exchangeRate}
      value={value}
      onChange={(next) => {
        changes.push(next);
        setValue(next);
      }}
      readOnly={readOnly}
      errors={errors}
      valuation={valuation}
    />
  );
}

/** A record form whose items change from outside (a reload after saving). */
function Outer({
  changes,
  onSetter,
}: {
  changes: ItemFormValue[][];
  onSetter: (set: (v: ItemFormValue[]) => void) => void;
}) {
  const [value, setValue] = useState([item({ description: 'Before' })]);
  onSetter(setValue);
  return (
    <DeclarationItems
      type="import"
      currency="EUR"
      exchangeRate={null}
      value={value}
      onChange={(next) => {
        changes.push(next);
        setValue(next);
      }}
      readOnly={false}
      errors={{}}
    />
  );
}

const last = (changes: ItemFormValue[][]) => changes[changes.length - 1] ?? [];

describe('DeclarationItems', () => {
  it('starts empty, adds the first item and hands each edited cell to onChange as the API takes it', async () => {
    const changes: ItemFormValue[][] = [];
    renderWithProviders(<Harness changes={changes} />);
    expect(screen.getByTestId('items-empty').textContent).toContain('No items yet — add the first one');
    expect(changes).toHaveLength(0);

    fireEvent.click(screen.getByTestId('add-item'));
    await waitFor(() => expect(last(changes)).toHaveLength(1));
    await waitFor(() => expect(document.activeElement).toBe(field('items.0.commodityCode')));

    // Typed the way the tariff prints it, stored as digits, shown grouped once left.
    fireEvent.change(field('items.0.commodityCode'), { target: { value: '8471 30 00' } });
    await waitFor(() => expect(last(changes)[0]?.commodityCode).toBe('84713000'));
    fireEvent.blur(field('items.0.commodityCode'));
    await waitFor(() => expect(field('items.0.commodityCode').value).toBe('8471 30 00'));

    fireEvent.change(field('items.0.customsValue'), { target: { value: '12,000.50' } });
    await waitFor(() => expect(last(changes)[0]?.customsValue).toBe('12000.50'));
    fireEvent.change(field('items.0.grossMassKg'), { target: { value: '1,250.125' } });
    await waitFor(() => expect(last(changes)[0]?.grossMassKg).toBe('1250.125'));
    expect(last(changes)[0]).toMatchObject({ description: '', netMassKg: '', containers: [] });
  });

  it('says under a closed item which of its details lodging still needs, and opens them on request', async () => {
    const changes: ItemFormValue[][] = [];
    renderWithProviders(
      <Harness
        changes={changes}
        initial={[
          item({ packageKind: '', valuationMethod: '', additionalProcedureCodes: ['000'] }),
          item({ valuationMethod: '1', additionalProcedureCodes: ['000'], supplementaryUnits: '10' }),
        ]}
      />,
    );
    const pending = await screen.findByTestId('item-0-pending');
    expect(pending.textContent).toBe(
      // Laptops (CN 8471) are declared in pieces too (DE 6/2).
      'Still to fill in, in the details: valuation method, supplementary units, kind of packages. Fill in',
    );
    // The complete item has nothing pending; the same rule function as lodging says so.
    expect(screen.queryByTestId('item-1-pending')).toBeNull();
    fireEvent.click(within(pending).getByRole('button', { name: 'Fill in' }));
    expect(await screen.findByTestId('item-0-details')).toBeTruthy();
    expect(screen.queryByTestId('item-0-pending')).toBeNull();
  });

  it('puts the server’s errors on their cells, opens an item whose error is among its details, and checks as you type', async () => {
    const changes: ItemFormValue[][] = [];
    renderWithProviders(
      <Harness
        changes={changes}
        initial={[item(), item({ description: 'Monitors' })]}
        errors={{
          'items.1.grossMassKg': 'The gross mass must be more than 0',
          'items.0.dutyRate': 'Enter the duty rate',
          currency: 'Not this component’s',
        }}
      />,
    );
    await waitFor(() =>
      expect(errorOf(field('items.1.grossMassKg'))).toContain('The gross mass must be more than 0'),
    );
    expect(field('items.0.grossMassKg').getAttribute('aria-invalid')).not.toBe('true');
    // The duty rate has no cell in the row: the details of item 1 open by themselves to show it.
    expect(screen.getByTestId('item-0-details')).toBeTruthy();
    expect(errorOf(field('items.0.dutyRate'))).toContain('Enter the duty rate');
    expect(screen.queryByTestId('item-1-details')).toBeNull();

    // The rules' own sentences while typing: a reserved chapter, net above gross.
    fireEvent.change(field('items.1.commodityCode'), { target: { value: '7712345678' } });
    await waitFor(() => expect(errorOf(field('items.1.commodityCode'))).toContain('Chapter 77 is reserved'));
    fireEvent.change(field('items.1.commodityCode'), { target: { value: '8471' } });
    // Still on its way to 8 digits: nothing said yet.
    await waitFor(() => expect(field('items.1.commodityCode').getAttribute('aria-invalid')).not.toBe('true'));
    // Left that way, it is.
    fireEvent.blur(field('items.1.commodityCode'));
    await waitFor(() =>
      expect(errorOf(field('items.1.commodityCode'))).toContain('8 digits (CN) or 10 digits (TARIC)'),
    );
    fireEvent.change(field('items.0.netMassKg'), { target: { value: '130' } });
    await waitFor(() =>
      expect(errorOf(field('items.0.netMassKg'))).toContain(
        'The net mass cannot be more than the gross mass',
      ),
    );
    fireEvent.change(field('items.0.procedureCode'), { target: { value: '1000' } });
    await waitFor(() => expect(errorOf(field('items.0.procedureCode'))).toMatch(/procedure/i));
  });

  it('works the duty and VAT out per item in its details, and totals the items live', async () => {
    const changes: ItemFormValue[][] = [];
    renderWithProviders(
      <Harness
        changes={changes}
        initial={[item(), item({ customsValue: '1234.56', dutyRate: '3.7', vatRate: '19', vatCosts: '' })]}
      />,
    );
    // The row's estimate column: 540.00 + 2,706.90.
    expect(screen.getByTestId('item-0-estimate').textContent).toBe('€3,246.90');
    fireEvent.click(screen.getByTestId('details-item-0'));
    const calculation = await screen.findByTestId('item-0-calculation');
    expect(calculation.textContent).toContain('Duty €12,000.00 × 4.5 % = €540.00');
    expect(calculation.textContent).toContain('VAT base €12,000.00 + €540.00 + €350.00 = €12,890.00');
    expect(calculation.textContent).toContain('VAT €12,890.00 × 21 % = €2,706.90');

    // 1,234.56 × 3.7 % = 45.67872 → 45.68; (1,234.56 + 45.68) × 19 % = 243.2456 → 243.25.
    expect(screen.getByTestId('item-1-estimate').textContent).toBe('€288.93');
    expect(screen.getByTestId('total-customs-value').textContent).toContain('€13,234.56');
    expect(screen.getByTestId('total-duty').textContent).toContain('€585.68');
    expect(screen.getByTestId('total-vat').textContent).toContain('€2,950.15');
    expect(screen.getByTestId('total-duty-and-vat').textContent).toContain('€3,535.83');
    expect(screen.getByTestId('total-duty-and-vat').textContent).toContain('estimate');
    expect(screen.getByTestId('total-packages').textContent).toContain('20');
    expect(screen.getByTestId('total-gross-mass').textContent).toContain('241 kg');

    // A rate taken away: the item says what is missing instead of a figure.
    fireEvent.change(field('items.0.vatRate'), { target: { value: '' } });
    await waitFor(() =>
      expect(screen.getByTestId('item-0-calculation').textContent).toBe(
        'Enter the VAT rate to see the estimate.',
      ),
    );
    expect(screen.getByTestId('item-0-estimate').textContent).toBe('—');
  });

  it('hints the customs value from the invoice value at the declaration’s rate, and takes it on request', async () => {
    const changes: ItemFormValue[][] = [];
    renderWithProviders(
      <Harness
        changes={changes}
        currency="USD"
        exchangeRate="0.92"
        initial={[item({ invoiceValue: '1341.91', customsValue: '' })]}
      />,
    );
    fireEvent.click(screen.getByTestId('details-item-0'));
    // 1,341.91 × 0.92 = 1,234.5572 → 1,234.56.
    const hint = await screen.findByTestId('item-0-value-hint');
    expect(hint.textContent).toContain('Customs value from the invoice value: €1,234.56');
    fireEvent.click(within(hint).getByTestId('item-0-use-value-hint'));
    await waitFor(() => expect(last(changes)[0]?.customsValue).toBe('1234.56'));
  });

  it('moves items up and down by button and by Alt+arrow, and removes them', async () => {
    const changes: ItemFormValue[][] = [];
    renderWithProviders(
      <Harness
        changes={changes}
        initial={[item({ description: 'A' }), item({ description: 'B' }), item({ description: 'C' })]}
      />,
    );
    expect((screen.getByTestId('move-up-item-0') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('move-down-item-0'));
    await waitFor(() => expect(last(changes).map((i) => i.description)).toEqual(['B', 'A', 'C']));

    fireEvent.keyDown(field('items.2.description'), { key: 'ArrowUp', altKey: true });
    await waitFor(() => expect(last(changes).map((i) => i.description)).toEqual(['B', 'C', 'A']));
    await waitFor(() => expect(document.activeElement).toBe(field('items.1.description')));

    fireEvent.click(screen.getByTestId('remove-item-0'));
    await waitFor(() => expect(last(changes).map((i) => i.description)).toEqual(['C', 'A']));
  });

  it('starts an import item with 000 and the transaction value, and asks the units in the CN code’s unit (Annex B)', async () => {
    const changes: ItemFormValue[][] = [];
    renderWithProviders(<Harness changes={changes} />);
    fireEvent.click(screen.getByTestId('add-item'));
    await waitFor(() => expect(last(changes)).toHaveLength(1));
    expect(last(changes)[0]).toMatchObject({ additionalProcedureCodes: ['000'], valuationMethod: '1' });
    fireEvent.change(field('items.0.commodityCode'), { target: { value: '8471 30 00' } });
    fireEvent.click(screen.getByTestId('details-item-0'));
    // CN 8471 is declared in number of items: the label and the hint say so.
    const units = await screen.findByRole('textbox', { name: 'Supplementary units, item 1' });
    expect((units as HTMLInputElement).labels?.[0]?.textContent).toBe('Supplementary units (p/st)');
    expect(screen.getByText('CN 8471: number of items')).toBeDefined();
    fireEvent.change(units, { target: { value: '1,200' } });
    await waitFor(() => expect(last(changes)[0]?.supplementaryUnits).toBe('1200'));
    expect(itemToInput(last(changes)[0] as ItemFormValue)).toMatchObject({
      additionalProcedureCodes: ['000'],
      valuationMethod: '1',
      supplementaryUnits: '1200',
    });
  });

  it('asks why the customs value is not the transaction value once a fallback method is chosen', () => {
    const { unmount } = renderWithProviders(
      <Harness changes={[]} initial={[item({ valuationMethod: '1' })]} />,
    );
    fireEvent.click(screen.getByTestId('details-item-0'));
    expect(screen.queryByRole('textbox', { name: 'Why not the transaction value, item 1' })).toBeNull();
    unmount();
    const changes: ItemFormValue[][] = [];
    renderWithProviders(<Harness changes={changes} initial={[item({ valuationMethod: '3' })]} />);
    fireEvent.click(screen.getByTestId('details-item-0'));
    const reason = screen.getByRole('textbox', { name: 'Why not the transaction value, item 1' });
    fireEvent.change(reason, { target: { value: 'Related parties' } });
    expect(itemToInput(last(changes)[0] as ItemFormValue)).toMatchObject({
      valuationMethod: '3',
      valuationReason: 'Related parties',
    });
  });

  it('shows each item’s customs value built from the invoice once the consignment has additions, and takes it on request', async () => {
    const changes: ItemFormValue[][] = [];
    renderWithProviders(
      <Harness
        changes={changes}
        currency="USD"
        exchangeRate="0.925"
        valuation={{ adjustments: { additionTransportInsurance: '1350.00' }, apportionment: 'value' }}
        initial={[
          item({ invoiceValue: '10000.00', valuationMethod: '1' }),
          item({ invoiceValue: '5000.00', valuationMethod: '1' }),
        ]}
      />,
    );
    fireEvent.click(screen.getByTestId('details-item-1'));
    // 5 000.00 × 0.925 = 4 625.00, + a third of 1 350.00.
    expect(screen.getByTestId('item-1-build-up').textContent).toBe(
      'Customs value built from the invoice: $5,000.00 × 0.925 = €4,625.00 + €450.00 additions − €0.00 deductions (by value) = €5,075.00Use it',
    );
    fireEvent.click(screen.getByTestId('item-1-use-build-up'));
    await waitFor(() => expect(last(changes)[1]?.customsValue).toBe('5075.00'));
    expect(screen.queryByTestId('item-1-use-build-up')).toBeNull();
  });

  it('gives an export item no valuation method and a transit item none of the three', () => {
    const { unmount } = renderWithProviders(<Harness changes={[]} type="export" initial={[item()]} />);
    fireEvent.click(screen.getByTestId('details-item-0'));
    expect(screen.queryByRole('textbox', { name: 'Valuation method, item 1' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Supplementary units, item 1' })).toBeDefined();
    unmount();
    renderWithProviders(<Harness changes={[]} type="transit" initial={[item({ procedureCode: '' })]} />);
    fireEvent.click(screen.getByTestId('details-item-0'));
    expect(screen.queryByRole('textbox', { name: 'Supplementary units, item 1' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Additional procedure, item 1' })).toBeNull();
  });

  it('reads as text when read-only: no inputs in the rows or the details, no add, move or remove', () => {
    renderWithProviders(
      <Harness
        changes={[]}
        readOnly
        initial={[
          item({
            supportingDocuments: [{ type: 'N380', reference: 'INV-2026-118' }],
            containers: ['MSCU1234565'],
            additionalProcedureCodes: ['F45'],
            valuationMethod: '1',
            supplementaryUnits: '1200',
          }),
        ]}
      />,
    );
    expect(screen.getByTestId('item-0-commodityCode').textContent).toBe('8471 30 00');
    fireEvent.click(screen.getByTestId('details-item-0'));
    const items = screen.getByTestId('declaration-items');
    expect(within(items).queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.queryByTestId('add-item')).toBeNull();
    expect(screen.queryByTestId('move-up-item-0')).toBeNull();
    expect(screen.queryByTestId('remove-item-0')).toBeNull();
    expect(screen.getByTestId('item-0-supportingDocuments').textContent).toContain(
      'N380 · Commercial invoice: INV-2026-118',
    );
    expect(screen.getByTestId('item-0-containers').textContent).toContain('MSCU1234565');
    expect(screen.getByTestId('item-0-calculation').textContent).toContain('= €2,706.90');
    expect(screen.getByTestId('item-0-valuationMethod').textContent).toContain(
      '1 — Transaction value of the goods imported',
    );
    expect(screen.getByTestId('item-0-supplementaryUnits').textContent).toContain('1,200 p/st');
    expect(screen.getByTestId('item-0-additionalProcedureCodes').textContent).toContain('F45');
  });

  it('has no procedure code for a transit; its value and rates give the duties at stake the guarantee covers', () => {
    renderWithProviders(<Harness changes={[]} type="transit" initial={[item({ procedureCode: '' })]} />);
    expect(screen.queryByTestId('field-items.0.procedureCode')).toBeNull();
    expect(field('items.0.customsValue')).toBeTruthy();
    expect(screen.getByTestId('item-0-estimate')).toBeTruthy();
    fireEvent.click(screen.getByTestId('details-item-0'));
    expect(field('items.0.dutyRate')).toBeTruthy();
    expect(field('items.0.vatRate')).toBeTruthy();
    // Costs to a first destination belong to an import's VAT base.
    expect(screen.queryByTestId('field-items.0.vatCosts')).toBeNull();
    expect(screen.getByTestId('total-estimate')).toBeTruthy();
    expect(screen.getByTestId('total-packages').textContent).toContain('10');
  });

  it('shows a transit item’s leftover procedure code (copied from an import) with its problem, to be cleared', async () => {
    const changes: ItemFormValue[][] = [];
    renderWithProviders(<Harness changes={changes} type="transit" initial={[item()]} />);
    // The problem opens the details, where the code can be cleared.
    await waitFor(() =>
      expect(errorOf(field('items.0.procedureCode'))).toContain('A transit item has no procedure code'),
    );
    fireEvent.change(field('items.0.procedureCode'), { target: { value: '' } });
    await waitFor(() => expect(last(changes)[0]?.procedureCode).toBe(''));
    expect(screen.queryByTestId('field-items.0.procedureCode')).toBeNull();
  });

  it('follows a new value from the record form (a reload) without echoing it back', async () => {
    const changes: ItemFormValue[][] = [];
    let setOutside: ((v: ItemFormValue[]) => void) | undefined;
    renderWithProviders(<Outer changes={changes} onSetter={(set) => (setOutside = set)} />);
    act(() => setOutside?.([item({ description: 'After' }), item({ description: 'Second' })]));
    await waitFor(() => expect(field('items.1.description').value).toBe('Second'));
    expect(field('items.0.description').value).toBe('After');
    expect(changes).toHaveLength(0);
  });
});

describe('itemProblems', () => {
  it("judges procedure codes by the declaration's category: 7100 enters customs warehousing (H2), not H1", () => {
    const entry = [item({ procedureCode: '7100' })];
    expect(itemProblems('import', entry, () => false, 'H2')['items.0.procedureCode']).toBeUndefined();
    expect(itemProblems('import', entry)['items.0.procedureCode']).toMatch(
      /customs warehousing procedure; an import \(H1\) declaration takes/,
    );
    expect(
      itemProblems('import', [item({ procedureCode: '4000' })], () => false, 'H2')['items.0.procedureCode'],
    ).toMatch(/H2/);
  });
});

describe('item converters', () => {
  const saved: DeclarationItem = {
    id: '0b5c1f7e-1d3a-4a8e-9a51-1f2b3c4d5e6f',
    position: 1,
    commodityCode: '84713000',
    description: 'Laptops',
    countryOfOrigin: 'CN',
    preference: null,
    procedureCode: '4000',
    additionalProcedureCodes: ['F45'],
    valuationMethod: '1',
    supplementaryUnits: null,
    packages: 10,
    packageKind: 'CT',
    marks: null,
    grossMassKg: '120.500',
    netMassKg: '100.000',
    invoiceValue: '13000.00',
    customsValue: '12000.00',
    statisticalValue: null,
    dutyRate: '4.500',
    vatRate: '21.00',
    vatCosts: null,
    containers: ['MSCU1234565'],
    supportingDocuments: [{ type: 'N380', reference: 'INV-1' }],
    previousDocuments: [],
    estimate: null,
  } as unknown as DeclarationItem;

  it('turns nulls into empty text and back, and numbers into text and back', () => {
    const value = itemFromContract(saved);
    expect(value).toMatchObject({
      preference: '',
      marks: '',
      packages: '10',
      grossMassKg: '120.500',
      vatCosts: '',
      additionalProcedureCodes: ['F45'],
      valuationMethod: '1',
      supplementaryUnits: '',
    });
    const input = itemToInput({
      ...value,
      additionalProcedureCodes: ['f45', ' c07 ', ''],
      commodityCode: '8471 30 00',
      previousDocuments: [{ type: 'N830', reference: ' ' }],
    });
    expect(input).toMatchObject({
      commodityCode: '84713000',
      preference: null,
      marks: null,
      packages: 10,
      vatCosts: null,
      grossMassKg: '120.500',
      containers: ['MSCU1234565'],
      supportingDocuments: [{ type: 'N380', reference: 'INV-1' }],
      additionalProcedureCodes: ['F45', 'C07'],
      valuationMethod: '1',
      supplementaryUnits: null,
    });
    // A pair left with a type only is still sent, for the contract to name what is missing.
    expect(input.previousDocuments).toEqual([{ type: 'N830', reference: '' }]);
  });
});
