import type { HandlingUnit, StockRecord, StockRecordListItem } from '@fvg/contracts';

export const ACME = { id: '0c6f3a52-4f8e-4d4b-9a55-3f7b1f1e2a10', code: 'ACME', name: 'ACME Trading' };

export function aStockItem(over: Partial<StockRecordListItem> = {}): StockRecordListItem {
  return {
    id: '5a0e8d4c-1b2f-4c3d-8e9f-0a1b2c3d4e5f',
    receipt: { id: '6b1f9e5d-2c3a-4d4e-9f0a-1b2c3d4e5f60', number: 'R-2026-000007' },
    owner: ACME,
    sku: 'ABC-1',
    description: 'Bluetooth speakers',
    commodityCode: '85182200',
    unit: 'H87',
    quantityReceived: 1200,
    quantityOnHand: 1200,
    quantityReserved: 200,
    quantityAvailable: 1000,
    customsStatus: 'non_union_customs_warehousing',
    inboundMrn: '26NL000396000042R1',
    receivedOn: '2026-11-02',
    location: 'RTM1-A-01',
    locationCount: 3,
    pallets: 2,
    value: '12500.00',
    currency: 'EUR',
    updatedAt: '2026-11-02T10:00:00.000Z',
    ...over,
  };
}

const unit = (over: Partial<HandlingUnit> & Pick<HandlingUnit, 'id'>): HandlingUnit => ({
  parentId: null,
  kind: 'pallet',
  sscc: null,
  reference: null,
  quantity: 0,
  quantityReserved: 0,
  location: 'RTM1-A-01',
  position: 0,
  ...over,
});

export const PALLET_1 = 'a1a1a1a1-0000-4000-8000-000000000001';
export const CARTON_1 = 'a1a1a1a1-0000-4000-8000-000000000002';
export const CARTON_2 = 'a1a1a1a1-0000-4000-8000-000000000003';
export const PALLET_2 = 'a1a1a1a1-0000-4000-8000-000000000004';

/** 100 pieces: pallet 1 with two cartons of 30, pallet 2 with 40 loose. */
export function aStockRecord(over: Partial<StockRecord> = {}): StockRecord {
  return {
    ...aStockItem({
      quantityReceived: 100,
      quantityOnHand: 100,
      quantityReserved: 0,
      quantityAvailable: 100,
    }),
    countryOfOrigin: 'CN',
    packages: 2,
    grossMassKg: '420.000',
    netMassKg: '380.000',
    entryDeclaration: null,
    notes: null,
    handlingUnits: [
      unit({ id: PALLET_1, sscc: '387123450000000012', quantity: 60, position: 0 }),
      unit({ id: CARTON_1, parentId: PALLET_1, kind: 'carton', quantity: 30, position: 0 }),
      unit({ id: CARTON_2, parentId: PALLET_1, kind: 'carton', quantity: 30, position: 1 }),
      unit({ id: PALLET_2, sscc: '387123450000000029', quantity: 40, position: 1, location: 'RTM1-B-02' }),
    ],
    version: 3,
    createdAt: '2026-11-02T10:00:00.000Z',
    createdBy: { id: 'u1', name: 'Ada Admin' },
    allowedActions: ['transfer', 'adjust'],
    ...over,
  };
}
