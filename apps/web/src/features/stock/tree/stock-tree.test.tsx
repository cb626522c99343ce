import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '../../../test/render-route.tsx';
import { StockTreeScreenBody } from './stock-tree-screen.tsx';
import { aTree, PALLET_1, PALLET_2 } from './tree-fixtures.ts';

const node = (id: string) => screen.getByTestId(`hu-node-${id}`);
const shown = () => screen.getAllByRole('treeitem').map((el) => el.dataset.testid?.replace('hu-node-', ''));

async function renderTree() {
  return renderRoute(<StockTreeScreenBody tree={aTree()} />, {
    path: '/stock/$id/tree',
    url: '/stock/st-1/tree',
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('StockTreeScreenBody', () => {
  it('heads the screen with the record: SKU, owner, quantities, customs status and a way back', async () => {
    await renderTree();
    expect(screen.getByTestId('stock-tree-sku').textContent).toBe('LAP-14');
    expect(screen.getByTestId('stock-tree-status').textContent).toBe('Non-Union · customs warehousing');
    const facts = screen.getByTestId('stock-tree-facts');
    expect(facts.textContent).toContain('Acme Trading B.V.');
    expect(screen.getByTestId('fact-on-hand').textContent).toBe('60 pieces');
    expect(screen.getByTestId('fact-reserved').textContent).toBe('5 pieces');
    expect(screen.getByTestId('fact-available').textContent).toBe('55 pieces');
    expect(facts.textContent).toContain('WH1-A-01 (+1 more)');
    expect(screen.getByTestId('stock-tree-back').getAttribute('href')).toBe('/stock/st-1');
    // The tab names the record by its SKU and receipt, not by the id in its address (issue 27 item 1).
    await waitFor(() => expect(document.title).toBe('Stock tree · LAP-14 · SR-2026-000004 · FVG'));
  });

  it('opens the pallets first and expands or collapses everything', async () => {
    await renderTree();
    expect(shown()).toEqual(['hu-p1', 'hu-c1', 'hu-c2', 'hu-p2', 'hu-i3']);
    const p1 = node('hu-p1');
    expect(within(p1).getByText(`(00) ${PALLET_1}`)).toBeTruthy();
    expect(within(p1).getByTestId('hu-quantity').textContent).toBe('40 pieces');
    expect(within(p1).getByTestId('hu-reserved').textContent).toBe('5 reserved');
    // Named by what the row shows, in order (no separate label that could say something else).
    expect(p1.getAttribute('aria-label')).toBeNull();
    expect(
      screen.getByRole('treeitem', { name: `Pallet (00) ${PALLET_1} 40 pieces 5 reserved WH1-A-01` }),
    ).toBe(p1);
    expect(within(node('hu-p2')).getByTestId('hu-location').textContent).toBe('WH1-B-10');
    expect(within(node('hu-c1')).getByText('CTN-A')).toBeTruthy();

    fireEvent.click(screen.getByTestId('tree-expand-all'));
    expect(shown()).toEqual(['hu-p1', 'hu-c1', 'hu-i1', 'hu-i2', 'hu-c2', 'hu-p2', 'hu-i3']);
    expect(node('hu-i1').getAttribute('aria-level')).toBe('3');
    fireEvent.click(screen.getByTestId('tree-collapse-all'));
    expect(shown()).toEqual(['hu-p1', 'hu-p2']);
    expect(node('hu-p1').getAttribute('aria-expanded')).toBe('false');
    expect(node('hu-p2').getAttribute('aria-expanded')).toBe('false');
  });

  it('is driven by the keyboard: arrows move, open and close, Enter and Space toggle', async () => {
    await renderTree();
    fireEvent.click(screen.getByTestId('tree-collapse-all'));
    const p1 = node('hu-p1');
    expect(p1.tabIndex).toBe(0);
    p1.focus();
    fireEvent.keyDown(p1, { key: 'ArrowRight' });
    expect(shown()).toEqual(['hu-p1', 'hu-c1', 'hu-c2', 'hu-p2']);
    fireEvent.keyDown(node('hu-p1'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(node('hu-c1'));
    expect(node('hu-c1').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(node('hu-c1'), { key: 'Enter' });
    expect(shown()).toEqual(['hu-p1', 'hu-c1', 'hu-i1', 'hu-i2', 'hu-c2', 'hu-p2']);
    fireEvent.keyDown(node('hu-c1'), { key: ' ' });
    expect(shown()).toEqual(['hu-p1', 'hu-c1', 'hu-c2', 'hu-p2']);
    fireEvent.keyDown(node('hu-c1'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(node('hu-c2'));
    fireEvent.keyDown(node('hu-c2'), { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(node('hu-p1'));
    fireEvent.keyDown(node('hu-p1'), { key: 'ArrowLeft' });
    expect(shown()).toEqual(['hu-p1', 'hu-p2']);
    fireEvent.keyDown(node('hu-p1'), { key: 'End' });
    expect(document.activeElement).toBe(node('hu-p2'));
    // Only the selected row is a tab stop.
    expect(screen.getAllByRole('treeitem').filter((el) => el.tabIndex === 0)).toHaveLength(1);
  });

  it('shows the movements of the selected unit', async () => {
    await renderTree();
    expect(screen.queryByTestId('hu-movements')).toBeNull();
    fireEvent.click(node('hu-p2'));
    expect(screen.getByTestId('hu-detail-title').textContent).toBe('Movements');
    expect(screen.getByTestId('hu-detail-name').textContent).toBe(`Pallet (00) ${PALLET_2}`);
    const rows = within(screen.getByTestId('hu-movements')).getAllByTestId('hu-movement');
    // Newest first: the transfer, then the receipt.
    expect(rows.map((r) => r.dataset.kind)).toEqual(['transfer', 'receipt']);
    expect(rows[0]?.textContent).toContain('WH1-A-01 → WH1-B-10');
    expect(rows[0]?.textContent).toContain('Ada Admin');
    expect(within(rows[1] as HTMLElement).getByTestId('hu-movement-quantity').textContent).toBe('+20 pieces');
    fireEvent.click(node('hu-c2'));
    expect(screen.getByTestId('hu-movements-empty')).toBeTruthy();
  });

  it('prints one pallet’s label, or all of them, on a sheet outside the app', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const { container } = await renderTree();
    const sheet = screen.getByTestId('pallet-label-sheet');
    expect(container.contains(sheet)).toBe(false);
    expect(sheet.parentElement).toBe(document.body);
    expect(within(sheet).getAllByTestId('pallet-label')).toHaveLength(2);

    await act(async () => {
      fireEvent.click(within(node('hu-p2')).getByTestId('hu-print-label'));
    });
    expect(print).toHaveBeenCalledTimes(1);
    const labels = within(screen.getByTestId('pallet-label-sheet')).getAllByTestId('pallet-label');
    expect(labels).toHaveLength(1);
    const label = labels[0] as HTMLElement;
    expect(label.textContent).toContain('Acme Trading B.V.');
    expect(label.textContent).toContain('LAP-14');
    expect(label.textContent).toContain('Laptop computers 14 inch');
    expect(within(label).getByTestId('pallet-label-quantity').textContent).toBe('20 pieces');
    expect(label.textContent).toContain('WH1-B-10');
    expect(label.textContent).toContain('SR-2026-000004');
    expect(within(label).getByTestId('pallet-label-barcode').querySelector('svg')).not.toBeNull();
    expect(label.textContent).toContain(`(00) ${PALLET_2}`);

    await act(async () => {
      fireEvent.click(screen.getByTestId('print-all-labels'));
    });
    expect(print).toHaveBeenCalledTimes(2);
    expect(within(screen.getByTestId('pallet-label-sheet')).getAllByTestId('pallet-label')).toHaveLength(2);
  });
});
