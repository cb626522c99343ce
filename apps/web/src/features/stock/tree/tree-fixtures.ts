import { type HandlingUnitNode, makeSscc, type StockMovement, type StockTree } from '@fvg/contracts';

export const PALLET_1 = makeSscc({ extensionDigit: 0, companyPrefix: '8712345', serial: 1 });
export const PALLET_2 = makeSscc({ extensionDigit: 0, companyPrefix: '8712345', serial: 2 });

const admin = { id: 'u-admin', name: 'Ada Admin' };

function movement(
  over: Partial<StockMovement> & Pick<StockMovement, 'id' | 'kind' | 'quantity'>,
): StockMovement {
  return {
    handlingUnit: null,
    fromLocation: null,
    toLocation: 'WH1-A-01',
    reason: null,
    shipment: null,
    at: '2026-11-02T09:15:00Z',
    by: admin,
    ...over,
  };
}

/**
 * A receipt line of 60 pieces on two pallets: pallet 1 (40) holds two cartons of 20 (carton A with
 * two items of 10), pallet 2 (20) holds items directly; 5 pieces of pallet 1 are reserved.
 */
export function aTree(): StockTree {
  const unit = (
    id: string,
    kind: 'pallet' | 'carton' | 'item',
    parentId: string | null,
    quantity: number,
    position: number,
    extra: { sscc?: string; reference?: string; location?: string; reserved?: number } = {},
  ): HandlingUnitNode => ({
    id,
    parentId,
    kind,
    sscc: extra.sscc ?? null,
    reference: extra.reference ?? null,
    quantity,
    quantityReserved: extra.reserved ?? 0,
    location: extra.location ?? 'WH1-A-01',
    position,
    movements: [],
    children: [],
  });
  const p1 = unit('hu-p1', 'pallet', null, 40, 1, { sscc: PALLET_1, reserved: 5 });
  const c1 = unit('hu-c1', 'carton', 'hu-p1', 20, 2, { reference: 'CTN-A' });
  const i1 = unit('hu-i1', 'item', 'hu-c1', 10, 3, { reference: 'ITM-1' });
  const i2 = unit('hu-i2', 'item', 'hu-c1', 10, 4, { reference: 'ITM-2' });
  const c2 = unit('hu-c2', 'carton', 'hu-p1', 20, 5, { reference: 'CTN-B' });
  const p2 = unit('hu-p2', 'pallet', null, 20, 6, { sscc: PALLET_2, location: 'WH1-B-10' });
  const i3 = unit('hu-i3', 'item', 'hu-p2', 20, 7, { reference: 'ITM-3', location: 'WH1-B-10' });
  c1.children = [i1, i2];
  p1.children = [c1, c2];
  p2.children = [i3];
  p1.movements = [
    movement({
      id: 'm1',
      kind: 'receipt',
      quantity: 40,
      handlingUnit: { id: 'hu-p1', kind: 'pallet', sscc: PALLET_1, reference: null },
    }),
  ];
  p2.movements = [
    movement({ id: 'm2', kind: 'receipt', quantity: 20, toLocation: 'WH1-A-01' }),
    movement({
      id: 'm3',
      kind: 'transfer',
      quantity: 0,
      fromLocation: 'WH1-A-01',
      toLocation: 'WH1-B-10',
      at: '2026-11-03T14:00:00Z',
      reason: null,
    }),
  ];
  return {
    stock: {
      id: 'st-1',
      receipt: { id: 'rc-1', number: 'SR-2026-000004' },
      owner: { id: 'p-acme', code: 'ACME', name: 'Acme Trading B.V.' },
      sku: 'LAP-14',
      description: 'Laptop computers 14 inch',
      commodityCode: '84713000',
      unit: 'H87',
      quantityReceived: 60,
      quantityOnHand: 60,
      quantityReserved: 5,
      quantityAvailable: 55,
      customsStatus: 'non_union_customs_warehousing',
      inboundMrn: '26NL0000000000001A',
      receivedOn: '2026-11-02',
      location: 'WH1-A-01',
      locationCount: 2,
      pallets: 2,
      value: '12000.00',
      currency: 'EUR',
      updatedAt: '2026-11-03T14:00:00Z',
    },
    units: [p1, p2],
    movements: [],
  };
}
