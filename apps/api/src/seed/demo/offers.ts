import { type OfferLineInput, type OfferStatus, salesOfferCreateSchema } from '@fvg/contracts';
import { salesOffersRepository } from '../../features/sales-offers/sales-offers.repository.ts';
import {
  acceptOfferIn,
  insertOfferIn,
  setOfferStatusIn,
} from '../../features/sales-offers/sales-offers.service.ts';
import { at, audit, type DemoContext, dayOf, notAfterNow, valid } from './context.ts';

interface DemoOffer {
  customer: 'ACME' | 'GLOBEX';
  status: OfferStatus;
  /** Days before today it was drafted. */
  createdDaysAgo: number;
  /** Valid-until, days from today (negative: in the past). */
  validFor: number;
  lane: {
    origin: string;
    destination: string;
    mode: 'sea' | 'air' | 'road';
    type: 'export' | 'import';
    incoterm: string;
    place: string;
  };
  cargo: string;
  packages: number;
  packageType: string;
  weightKg: string;
  lines: OfferLineInput[];
}

const CONTACTS = {
  ACME: { contactName: 'Alice Andersen', contactEmail: 'alice.andersen@acme.example' },
  GLOBEX: { contactName: 'Gustav Berg', contactEmail: 'gustav.berg@globex.example' },
} as const;

const line = (
  chargeCode: OfferLineInput['chargeCode'],
  description: string,
  quantity: string,
  unit: OfferLineInput['unit'],
  unitPrice: string,
  vat: 'E' | 'S' = 'E',
  currency = 'EUR',
): OfferLineInput => ({
  chargeCode,
  description,
  quantity,
  unit,
  unitPrice,
  currency,
  ...(currency === 'USD' ? { exchangeRate: '0.925000' } : {}),
  vatCode: vat,
  vatRate: vat === 'S' ? '21' : '0',
});

const SEA_EXPORT = {
  origin: 'NLRTM',
  destination: 'CNSHA',
  mode: 'sea',
  type: 'export',
  incoterm: 'FOB',
  place: 'Rotterdam',
} as const;
const SEA_IMPORT = {
  origin: 'USNYC',
  destination: 'NLRTM',
  mode: 'sea',
  type: 'import',
  incoterm: 'CIF',
  place: 'Rotterdam',
} as const;
const AIR_EXPORT = {
  origin: 'NLAMS',
  destination: 'SGSIN',
  mode: 'air',
  type: 'export',
  incoterm: 'FCA',
  place: 'Amsterdam Schiphol',
} as const;
const ROAD_EXPORT = {
  origin: 'NLRTM',
  destination: 'DEHAM',
  mode: 'road',
  type: 'export',
  incoterm: 'DAP',
  place: 'Hamburg',
} as const;

const seaLines = (containers: string, freight: string) => [
  line('FREIGHT', 'Ocean freight Rotterdam – Shanghai, 40ft HC', containers, 'XCN', freight, 'E', 'USD'),
  line('THC', 'Terminal handling Rotterdam', containers, 'XCN', '245.00'),
  line('CUSTOMS', 'Export declaration', '1', 'LS', '95.00'),
  line('DOCUMENTATION', 'Bill of lading fee', '1', 'LS', '45.00'),
];
const importLines = (containers: string) => [
  line('FREIGHT', 'Ocean freight New York – Rotterdam, 20ft', containers, 'XCN', '1650.00', 'E', 'USD'),
  line('CUSTOMS', 'Import clearance', '1', 'LS', '135.00'),
  line('HANDLING', 'Delivery order and handling', '1', 'LS', '85.00'),
];
const airLines = (kg: string) => [
  line('FREIGHT', 'Air freight Amsterdam – Singapore (per kg chargeable)', kg, 'KGM', '2.85'),
  line('HANDLING', 'Airport handling', '1', 'LS', '120.00'),
  line('INSURANCE', 'Cargo insurance 0.3 % of value', '1', 'LS', '180.00'),
];
const roadLines = (pallets: string) => [
  line('FREIGHT', 'Road freight Rotterdam – Hamburg, groupage', pallets, 'C62', '78.50', 'S'),
  line('STORAGE', 'Cross-dock storage', '2', 'DAY', '12.75', 'S'),
];

/**
 * A year's worth of quotations: both customers, every status, sea/air/road lanes and mixed currencies.
 * Two were accepted and became dossiers through the API's own accept path.
 */
const OFFERS: DemoOffer[] = [
  {
    customer: 'ACME',
    status: 'draft',
    createdDaysAgo: 1,
    validFor: 30,
    lane: SEA_EXPORT,
    cargo: 'Machine parts',
    packages: 24,
    packageType: 'crates',
    weightKg: '18400',
    lines: seaLines('2', '1875.00'),
  },
  {
    customer: 'GLOBEX',
    status: 'draft',
    createdDaysAgo: 0,
    validFor: 21,
    lane: ROAD_EXPORT,
    cargo: 'Printed matter',
    packages: 6,
    packageType: 'pallets',
    weightKg: '2350',
    lines: roadLines('6'),
  },
  {
    customer: 'ACME',
    status: 'sent',
    createdDaysAgo: 5,
    validFor: 9,
    lane: AIR_EXPORT,
    cargo: 'Medical devices',
    packages: 8,
    packageType: 'cartons',
    weightKg: '640',
    lines: airLines('720'),
  },
  {
    customer: 'GLOBEX',
    status: 'sent',
    createdDaysAgo: 3,
    validFor: 2,
    lane: SEA_IMPORT,
    cargo: 'Household appliances',
    packages: 310,
    packageType: 'cartons',
    weightKg: '11800',
    lines: importLines('1'),
  },
  {
    customer: 'GLOBEX',
    status: 'sent',
    createdDaysAgo: 8,
    validFor: 14,
    lane: SEA_EXPORT,
    cargo: 'Plastic granulate',
    packages: 40,
    packageType: 'bags',
    weightKg: '24000',
    lines: seaLines('1', '1920.00'),
  },
  {
    customer: 'ACME',
    status: 'accepted',
    createdDaysAgo: 12,
    validFor: 10,
    lane: SEA_EXPORT,
    cargo: 'Spare parts for packaging lines',
    packages: 18,
    packageType: 'crates',
    weightKg: '15200',
    lines: seaLines('1', '1850.00'),
  },
  {
    customer: 'GLOBEX',
    status: 'accepted',
    createdDaysAgo: 9,
    validFor: 12,
    lane: AIR_EXPORT,
    cargo: 'Electronic components',
    packages: 12,
    packageType: 'cartons',
    weightKg: '410',
    lines: airLines('450'),
  },
  {
    customer: 'ACME',
    status: 'rejected',
    createdDaysAgo: 25,
    validFor: 5,
    lane: ROAD_EXPORT,
    cargo: 'Office furniture',
    packages: 10,
    packageType: 'pallets',
    weightKg: '3100',
    lines: roadLines('10'),
  },
  {
    customer: 'GLOBEX',
    status: 'rejected',
    createdDaysAgo: 30,
    validFor: -10,
    lane: SEA_IMPORT,
    cargo: 'Textiles',
    packages: 520,
    packageType: 'cartons',
    weightKg: '9700',
    lines: importLines('1'),
  },
  {
    customer: 'ACME',
    status: 'expired',
    createdDaysAgo: 40,
    validFor: -12,
    lane: SEA_IMPORT,
    cargo: 'Garden tools',
    packages: 210,
    packageType: 'cartons',
    weightKg: '8300',
    lines: importLines('2'),
  },
  {
    customer: 'GLOBEX',
    status: 'expired',
    createdDaysAgo: 20,
    validFor: -3,
    lane: ROAD_EXPORT,
    cargo: 'Wine',
    packages: 4,
    packageType: 'pallets',
    weightKg: '2900',
    lines: roadLines('4'),
  },
  {
    customer: 'ACME',
    status: 'cancelled',
    createdDaysAgo: 15,
    validFor: 15,
    lane: AIR_EXPORT,
    cargo: 'Samples',
    packages: 2,
    packageType: 'cartons',
    weightKg: '35',
    lines: airLines('45'),
  },
];

export async function seedOffers(ctx: DemoContext) {
  const repo = salesOffersRepository(ctx.db);
  const staff = { id: ctx.users.staff, role: 'staff' };
  let accepted = 0;
  for (const [i, o] of OFFERS.entries()) {
    const createdAt = notAfterNow(ctx, at(ctx, -o.createdDaysAgo, 9 + (i % 7), (i * 13) % 60));
    // Offers that ended in the past were valid when made: created with a future date, moved back after.
    const input = valid(
      salesOfferCreateSchema,
      {
        customerId: ctx.parties[o.customer] as string,
        ...CONTACTS[o.customer],
        validUntil: dayOf(ctx, Math.max(o.validFor, 1)),
        originLocode: o.lane.origin,
        destinationLocode: o.lane.destination,
        mode: o.lane.mode,
        incoterm: o.lane.incoterm,
        incotermPlace: o.lane.place,
        dossierType: o.lane.type,
        cargoDescription: o.cargo,
        packages: o.packages,
        packageType: o.packageType,
        grossWeightKg: o.weightKg,
        notes:
          i % 3 === 0
            ? 'Rate from the carrier valid for the quoted week; margin checked by the desk lead.'
            : null,
        lines: o.lines,
      },
      `offer ${i + 1}`,
    );
    const { id } = await insertOfferIn(ctx.db, staff.id, input, createdAt);
    const row = async () =>
      (await repo.find({ all: true }, id, true)) as NonNullable<Awaited<ReturnType<typeof repo.find>>>;
    if (o.status === 'draft') continue;
    const sentAt = notAfterNow(ctx, new Date(createdAt.getTime() + 2 * 3_600_000));
    const first = await row();
    await setOfferStatusIn(
      ctx.db,
      staff.id,
      first,
      first.version,
      o.status === 'cancelled' ? 'cancelled' : 'sent',
      {},
      [],
      sentAt,
    );
    if (o.status !== 'cancelled')
      await ctx.db.updateTable('sales_offers').set({ sent_at: sentAt }).where('id', '=', id).execute();
    const decidedAt = notAfterNow(ctx, new Date(sentAt.getTime() + 26 * 3_600_000));
    if (o.status === 'accepted') {
      const current = await row();
      const customer = { id: o.customer === 'ACME' ? ctx.users.acme : ctx.users.globex, role: 'customer' };
      await acceptOfferIn(ctx.db, customer, current, current.version, decidedAt);
      accepted++;
    } else if (o.status === 'rejected') {
      const current = await row();
      const customer = o.customer === 'ACME' ? ctx.users.acme : ctx.users.globex;
      await setOfferStatusIn(
        ctx.db,
        customer,
        current,
        current.version,
        'rejected',
        { decided_at: decidedAt, decided_by: customer },
        [],
        decidedAt,
      );
    } else if (o.status === 'expired') {
      // As the scheduled job does it: no actor, the day after valid-until.
      await ctx.db
        .updateTable('sales_offers')
        .set((eb) => ({ status: 'expired', version: eb('version', '+', 1) }))
        .where('id', '=', id)
        .execute();
      await audit(ctx, {
        kind: 'offer',
        id,
        action: 'expired',
        actorId: null,
        changes: [{ field: 'status', from: 'sent', to: 'expired' }],
        at: at(ctx, o.validFor + 1, 0, 5),
      });
    }
    if (o.validFor < 1)
      await ctx.db
        .updateTable('sales_offers')
        .set({ valid_until: dayOf(ctx, o.validFor) })
        .where('id', '=', id)
        .execute();
    // The last thing that happened to it, not the moment the seed ran.
    const last =
      o.status === 'expired'
        ? at(ctx, o.validFor + 1, 0, 5)
        : o.status === 'accepted' || o.status === 'rejected'
          ? decidedAt
          : sentAt;
    await ctx.db
      .updateTable('sales_offers')
      .set({ updated_at: notAfterNow(ctx, last) })
      .where('id', '=', id)
      .execute();
  }
  return { offers: OFFERS.length, accepted };
}
