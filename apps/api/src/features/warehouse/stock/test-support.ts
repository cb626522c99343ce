import { makeMrn, makeSscc } from '@fvg/contracts';
import type { Db } from '../../../db/database.ts';

/** A GS1 company prefix for tests (GS1 Netherlands' range, 7 digits). */
export const TEST_GS1_PREFIX = '8712345';

let ssccSerial = 900_000;
/** A valid SSCC no generated one collides with (a range of its own). */
export function testSscc(): string {
  return makeSscc({ extensionDigit: 9, companyPrefix: TEST_GS1_PREFIX, serial: ++ssccSerial });
}

let mrnSerial = 0;
/** A valid import MRN. */
export function testMrn(): string {
  return makeMrn({ year: 2026, country: 'NL', serial: String(++mrnSerial).padStart(12, '0'), letter: 'R' });
}

/** One receipt line without units. */
export function looseLine(over: Record<string, unknown> = {}) {
  return {
    sku: 'abc-1',
    description: 'Bluetooth speakers',
    commodityCode: '8518 22 00',
    countryOfOrigin: 'CN',
    unit: 'H87',
    quantity: 100,
    location: 'RTM1-A-01-01',
    grossMassKg: '120.5',
    netMassKg: '100',
    value: '2500.00',
    currency: 'EUR',
    ...over,
  };
}

/**
 * A line of 100 on two pallets: pallet 1 (60) holds two cartons of 30 items each… as quantities:
 * carton 1 (30) with items of 10/20, carton 2 (30); pallet 2 (40) holds items of 25 and 15.
 */
export function palletLine(over: Record<string, unknown> = {}, ssccs: (string | null)[] = [null, null]) {
  return looseLine({
    handlingUnits: [
      {
        kind: 'pallet',
        sscc: ssccs[0] ?? null,
        quantity: 60,
        children: [
          {
            kind: 'carton',
            reference: 'C1',
            quantity: 30,
            children: [
              { kind: 'item', quantity: 10 },
              { kind: 'item', quantity: 20 },
            ],
          },
          { kind: 'carton', reference: 'C2', quantity: 30 },
        ],
      },
      {
        kind: 'pallet',
        sscc: ssccs[1] ?? null,
        quantity: 40,
        location: 'RTM1-B-02-01',
        children: [
          { kind: 'item', quantity: 25 },
          { kind: 'item', quantity: 15 },
        ],
      },
    ],
    ...over,
  });
}

export function receiptBody(ownerId: string, lines: unknown[], over: Record<string, unknown> = {}) {
  return {
    ownerId,
    receivedOn: '2026-10-01',
    customsStatus: 'union',
    lines,
    ...over,
  };
}

/** The invariants of every stock record (ADR 0034); an empty list when all hold. */
export async function stockInvariantViolations(db: Db): Promise<string[]> {
  const out: string[] = [];
  const sums = await db
    .selectFrom('stock_records as s')
    .select((eb) => [
      's.id',
      's.quantity_on_hand',
      's.quantity_reserved',
      eb
        .selectFrom('stock_movements as m')
        .select((e) => e.fn.coalesce(e.fn.sum<number>('m.quantity'), e.lit(0)).as('n'))
        .whereRef('m.stock_record_id', '=', 's.id')
        .as('movements'),
      eb
        .selectFrom('handling_units as h')
        .select((e) => e.fn.sum<number>('h.quantity').as('n'))
        .whereRef('h.stock_record_id', '=', 's.id')
        .where('h.parent_id', 'is', null)
        .as('roots'),
      eb
        .selectFrom('handling_units as h')
        .select((e) => e.fn.sum<number>('h.quantity_reserved').as('n'))
        .whereRef('h.stock_record_id', '=', 's.id')
        .as('root_reserved'),
    ])
    .execute();
  for (const r of sums) {
    if (Number(r.movements) !== r.quantity_on_hand)
      out.push(`${r.id}: on hand ${r.quantity_on_hand} ≠ Σ movements ${r.movements}`);
    if (r.roots !== null && Number(r.roots) !== r.quantity_on_hand)
      out.push(`${r.id}: on hand ${r.quantity_on_hand} ≠ Σ root units ${r.roots}`);
    if (r.quantity_reserved < 0 || r.quantity_reserved > r.quantity_on_hand)
      out.push(`${r.id}: reserved ${r.quantity_reserved} outside 0..${r.quantity_on_hand}`);
    if (r.root_reserved !== null && Number(r.root_reserved) !== r.quantity_reserved)
      out.push(`${r.id}: reserved ${r.quantity_reserved} ≠ Σ root units' reserved ${r.root_reserved}`);
  }
  const parents = await db
    .selectFrom('handling_units as p')
    .innerJoin('handling_units as c', 'c.parent_id', 'p.id')
    .select((eb) => ['p.id', 'p.quantity', eb.fn.sum<number>('c.quantity').as('children')])
    .groupBy(['p.id', 'p.quantity'])
    .execute();
  for (const p of parents)
    if (Number(p.children) !== p.quantity)
      out.push(`unit ${p.id}: quantity ${p.quantity} ≠ Σ children ${p.children}`);
  return out;
}
