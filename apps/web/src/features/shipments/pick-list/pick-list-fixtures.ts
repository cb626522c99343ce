import { makeSscc, type Shipment, type ShipmentAllocation, type ShipmentLine } from '@fvg/contracts';

export const SHIPMENT_ID = '7d0f4a8e-2b1c-4c3d-9e8f-0a1b2c3d4e5f';
export const SSCC_A = makeSscc({ extensionDigit: 0, companyPrefix: '8712345', serial: 11 });
export const SSCC_B = makeSscc({ extensionDigit: 0, companyPrefix: '8712345', serial: 12 });

function allocation(
  over: Partial<ShipmentAllocation> & Pick<ShipmentAllocation, 'id' | 'location' | 'quantity'>,
): ShipmentAllocation {
  return {
    stockRecordId: 'st-1',
    receiptNumber: 'SR-2026-000004',
    receivedOn: '2026-11-02',
    customsStatus: 'non_union_customs_warehousing',
    inboundMrn: '26NL0000000000001A',
    handlingUnit: null,
    state: 'reserved',
    ...over,
  };
}

function line(
  over: Partial<ShipmentLine> & Pick<ShipmentLine, 'id' | 'position' | 'sku' | 'quantity'>,
): ShipmentLine {
  return {
    description: `Description of ${over.sku}`,
    unit: 'H87',
    stockRecordId: null,
    allocations: [],
    ...over,
  };
}

/**
 * A released shipment whose picks lie in three aisles, listed out of walking order on purpose:
 * line 1 takes pallet A in WH1-B-10 and loose goods in WH1-A-2; line 2 takes pallet B in WH1-A-10.
 */
export function aReleasedShipment(over: Partial<Shipment> = {}): Shipment {
  return {
    id: SHIPMENT_ID,
    number: 'S-2026-000012',
    status: 'released',
    owner: { id: 'p-acme', code: 'ACME', name: 'Acme Trading B.V.' },
    consignee: null,
    consigneeName: 'Globex GmbH',
    deliveryAddress: 'Hafenstraße 1\n20457 Hamburg\nDE',
    plannedDate: '2026-11-30',
    outboundProcedure: '4071',
    customerReference: 'PO-7781',
    notes: null,
    declaration: {
      id: 'd-1',
      lrn: 'LRN-2026-000031',
      mrn: '26NL0000000000031B',
      type: 'import',
      status: 'lodged',
      createdAt: '2026-11-20T09:00:00.000Z',
    },
    declarations: [
      {
        id: 'd-1',
        lrn: 'LRN-2026-000031',
        mrn: '26NL0000000000031B',
        type: 'import',
        status: 'lodged',
        createdAt: '2026-11-20T09:00:00.000Z',
      },
    ],
    lines: [
      line({
        id: 'l-1',
        position: 1,
        sku: 'LAP-14',
        quantity: 45,
        allocations: [
          allocation({
            id: 'a-1',
            location: 'WH1-B-10',
            quantity: 40,
            handlingUnit: { id: 'hu-a', kind: 'pallet', sscc: SSCC_A, reference: null },
          }),
          allocation({
            id: 'a-2',
            location: 'WH1-A-2',
            quantity: 5,
            stockRecordId: 'st-2',
            receiptNumber: 'SR-2026-000005',
          }),
        ],
      }),
      line({
        id: 'l-2',
        position: 2,
        sku: 'MOUSE-1',
        quantity: 3,
        unit: 'CT',
        allocations: [
          allocation({
            id: 'a-3',
            location: 'WH1-A-10',
            quantity: 3,
            stockRecordId: 'st-3',
            handlingUnit: { id: 'hu-b', kind: 'pallet', sscc: SSCC_B, reference: null },
          }),
          allocation({ id: 'a-4', location: 'WH1-C-1', quantity: 7, state: 'freed' }),
        ],
      }),
    ],
    quantity: 48,
    nonUnion: true,
    shipBlocker: null,
    releasedAt: '2026-11-24T09:00:00Z',
    pickingAt: null,
    packedAt: null,
    shippedAt: null,
    cancelledAt: null,
    cancelReason: null,
    version: 2,
    createdAt: '2026-11-24T08:00:00Z',
    createdBy: { id: 'u-admin', name: 'Ada Admin' },
    updatedAt: '2026-11-24T09:00:00Z',
    allowedActions: [],
    ...over,
  } as Shipment;
}

export function aDraftShipment(): Shipment {
  const released = aReleasedShipment();
  return aReleasedShipment({
    status: 'draft',
    declaration: null,
    declarations: [],
    releasedAt: null,
    lines: released.lines.map((l) => ({ ...l, allocations: [] })),
  });
}
