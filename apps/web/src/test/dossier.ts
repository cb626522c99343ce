import type { Dossier } from '@fvg/contracts';

export const ACME_ID = '0b6f3c1e-3a52-4a8e-9d7e-2f1f6c1b9a01';

/**
 * A booked sea import for Acme with nothing else filled in; each test names only what it is about
 * (the charges, the cargo, the status…), so a new Dossier field is added here once.
 */
export function aDossier(overrides: Partial<Dossier> = {}): Dossier {
  return {
    id: '5d0c1a52-7c1e-4a0e-8f0e-1b2c3d4e5f60',
    number: 'D-2026-000042',
    status: 'booked',
    type: 'import',
    mode: 'sea',
    customer: { id: ACME_ID, code: 'ACME', name: 'Acme Trading' },
    originLocode: 'CNSHA',
    destinationLocode: 'NLRTM',
    etd: null,
    eta: null,
    customerReference: null,
    masterBl: null,
    containerCount: 0,
    profit: '0.00',
    handler: null,
    updatedAt: '2026-04-01T10:00:00.000Z',
    consignor: null,
    consignee: null,
    notifyParty: null,
    incoterm: null,
    incotermPlace: null,
    atd: null,
    ata: null,
    bookingNumber: null,
    houseBl: null,
    cmrNumber: null,
    cargoDescription: null,
    packages: null,
    packageType: null,
    grossWeightKg: null,
    volumeM3: null,
    chargeableWeightKg: null,
    containers: [],
    charges: [],
    costTotal: '0.00',
    revenueTotal: '0.00',
    version: 1,
    createdAt: '2026-04-01T09:00:00.000Z',
    createdBy: null,
    offer: null,
    allowedTransitions: ['in_transit', 'cancelled'],
    ...overrides,
  };
}
