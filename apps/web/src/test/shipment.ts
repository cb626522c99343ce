import type { Shipment, ShipmentAllocation, ShipmentLine } from '@fvg/contracts';
import { ACME_ID } from './dossier.ts';

export const SHIPMENT_ID = '5d1e8f0a-7b2c-4c3d-9e4f-a1b2c3d4e5f6';
export const RECORD_OLD = '11111111-1111-4111-8111-111111111111';
export const RECORD_NEW = '22222222-2222-4222-8222-222222222222';

export function anAllocation(overrides: Partial<ShipmentAllocation> = {}): ShipmentAllocation {
  return {
    id: 'a0000000-0000-4000-8000-000000000001',
    stockRecordId: RECORD_OLD,
    receiptNumber: 'R-2026-000001',
    receivedOn: '2026-03-02',
    customsStatus: 'union',
    inboundMrn: null,
    handlingUnit: {
      id: 'h0000000-0000-4000-8000-000000000001',
      kind: 'pallet',
      sscc: '095287654321012346',
      reference: null,
    },
    location: 'RTM1-A-01-01',
    quantity: 40,
    state: 'reserved',
    ...overrides,
  };
}

export function aLine(overrides: Partial<ShipmentLine> = {}): ShipmentLine {
  return {
    id: 'l0000000-0000-4000-8000-000000000001',
    position: 1,
    sku: 'ABC-1',
    description: 'Widget, blue',
    unit: 'H87',
    stockRecordId: null,
    quantity: 100,
    allocations: [],
    ...overrides,
  };
}

/**
 * A draft shipment of Acme with one line of 100 pieces of ABC-1; each test names only what it is
 * about (status, allocations, allowed actions…), so a new Shipment field is added here once.
 */
export function aShipment(overrides: Partial<Shipment> = {}): Shipment {
  return {
    id: SHIPMENT_ID,
    number: 'S-2026-000012',
    status: 'draft',
    owner: { id: ACME_ID, code: 'ACME', name: 'Acme Trading' },
    consignee: null,
    consigneeName: 'Berlin Retail GmbH',
    deliveryAddress: 'Alexanderplatz 1\n10178 Berlin',
    plannedDate: '2026-11-30',
    outboundProcedure: null,
    customerReference: 'PO-778',
    notes: null,
    declaration: null,
    declarations: [],
    lines: [aLine()],
    quantity: 100,
    nonUnion: false,
    shipBlocker: null,
    releasedAt: null,
    pickingAt: null,
    packedAt: null,
    shippedAt: null,
    cancelledAt: null,
    cancelReason: null,
    version: 3,
    createdAt: '2026-11-20T09:00:00.000Z',
    createdBy: { id: 'u1', name: 'Sam Staff' },
    updatedAt: '2026-11-20T09:00:00.000Z',
    allowedActions: ['edit', 'delete', 'release', 'cancel'],
    ...overrides,
  } as Shipment;
}
