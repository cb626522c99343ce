import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../lib/format-date.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { PickListDocument } from './pick-list-document.tsx';
import { aDraftShipment, aReleasedShipment, SSCC_A, SSCC_B } from './pick-list-fixtures.ts';
import { packingSummary, pickRows } from './pick-list-model.ts';

const PRINTED_AT = '2026-11-24T10:30:00Z';
const rows = () => screen.getAllByTestId('pick-row');

describe('pickRows', () => {
  it('lists the live allocations in walking order (A-2 before A-10), freed ones left out', () => {
    const picks = pickRows(aReleasedShipment());
    expect(picks.map((p) => p.location)).toEqual(['WH1-A-2', 'WH1-A-10', 'WH1-B-10']);
    expect(picks.map((p) => p.sscc)).toEqual([null, SSCC_B, SSCC_A]);
    expect(picks.map((p) => p.quantity)).toEqual([5, 3, 40]);
  });

  it('sums per unit of measure and counts the handling units and loose picks', () => {
    expect(packingSummary(pickRows(aReleasedShipment()))).toEqual({
      total: '45 pieces · 3 cartons',
      handlingUnits: 2,
      loosePicks: 1,
    });
  });
});

describe('PickListDocument', () => {
  it('heads the list with the shipment: number and its barcode, parties, address, date, declaration, print time', () => {
    renderWithProviders(<PickListDocument shipment={aReleasedShipment()} printedAt={PRINTED_AT} />);
    expect(screen.getByTestId('pick-list-number').textContent).toBe('S-2026-000012');
    expect(screen.getByTestId('pick-list-barcode').querySelector('svg')).not.toBeNull();
    const header = screen.getByTestId('pick-list-header');
    expect(header.textContent).toContain('Acme Trading B.V.');
    expect(header.textContent).toContain('Globex GmbH');
    expect(header.textContent).toContain('20457 Hamburg');
    expect(header.textContent).toContain('4071 ·');
    expect(screen.getByTestId('pick-list-declaration').textContent).toContain(
      'LRN-2026-000031 · MRN 26NL0000000000031B · Lodged',
    );
    // The formatter's reading of the moment, never the raw ISO text.
    expect(screen.getByTestId('pick-list-printed-at').textContent).toBe(
      `Printed at${formatDateTime(PRINTED_AT)}`,
    );
    expect(screen.getByTestId('pick-list-printed-at').textContent).not.toContain('T10:30');
    expect(screen.queryByTestId('pick-list-draft')).toBeNull();
  });

  it('shows the picks in walking order with SSCC barcodes, “Loose”, quantities and a box to tick', () => {
    renderWithProviders(<PickListDocument shipment={aReleasedShipment()} printedAt={PRINTED_AT} />);
    expect(rows().map((r) => r.dataset.location)).toEqual(['WH1-A-2', 'WH1-A-10', 'WH1-B-10']);
    const [loose, palletB, palletA] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(loose).getByTestId('pick-row-unit').textContent).toBe('Loose');
    expect(within(loose).getByTestId('pick-row-quantity').textContent).toBe('5 pieces');
    expect(within(palletB).getByTestId('pick-row-sscc').querySelector('svg')).not.toBeNull();
    expect(within(palletB).getByTestId('pick-row-unit').textContent).toContain(`(00) ${SSCC_B}`);
    expect(within(palletB).getByTestId('pick-row-quantity').textContent).toBe('3 cartons');
    expect(palletB.textContent).toContain('MOUSE-1');
    expect(within(palletA).getByTestId('pick-row-unit').textContent).toContain(`(00) ${SSCC_A}`);
    expect(within(palletA).getByRole('img', { name: 'To tick when picked' })).toBeTruthy();
    expect(screen.getByTestId('packing-total').textContent).toContain('45 pieces · 3 cartons');
    expect(screen.getByTestId('packing-units').textContent).toContain('2');
    const signatures = screen.getByTestId('pick-list-signatures').textContent;
    for (const box of ['Picked by', 'Checked by', 'Driver', 'Date']) expect(signatures).toContain(box);
  });

  it('lists a draft’s lines and says that nothing is reserved yet', () => {
    renderWithProviders(<PickListDocument shipment={aDraftShipment()} printedAt={PRINTED_AT} />);
    expect(screen.getByTestId('pick-list-draft').textContent).toBe(
      'Not released yet — quantities are not reserved',
    );
    expect(rows()).toHaveLength(2);
    expect(rows().map((r) => within(r).getByTestId('pick-row-location').textContent)).toEqual(['—', '—']);
    expect(within(rows()[0] as HTMLElement).getByTestId('pick-row-quantity').textContent).toBe('45 pieces');
    expect(screen.queryByTestId('pick-row-sscc')).toBeNull();
  });

  it('marks picked allocations as ticked', () => {
    const shipped = aReleasedShipment({ status: 'packed' });
    for (const l of shipped.lines)
      for (const a of l.allocations) if (a.state === 'reserved') a.state = 'picked';
    renderWithProviders(<PickListDocument shipment={shipped} printedAt={PRINTED_AT} />);
    expect(screen.getAllByRole('img', { name: 'Picked' })).toHaveLength(3);
  });
});
