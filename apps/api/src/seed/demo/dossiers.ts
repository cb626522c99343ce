import {
  type ChargeInput,
  chargeLinesSchema,
  type DossierCreate,
  type DossierStatus,
  dossierCreateSchema,
  iso6346CheckDigit,
  type SalesChargeCode,
} from '@fvg/contracts';
import { dossiersRepository } from '../../features/dossiers/dossiers.repository.ts';
import { DOSSIER_FIELDS, toColumns } from '../../features/dossiers/dossiers.service.ts';
import { type Change, diff } from '../../records/audit.ts';
import { audit, type DemoContext, dayOf, notAfterNow, onDay, type Prng, valid } from './context.ts';

/** How many dossiers of each status: every status of the workflow, most of them open. */
export const DEMO_STATUS_PLAN: [DossierStatus, number][] = [
  ['requested', 4],
  ['booked', 9],
  ['in_transit', 9],
  ['arrived', 5],
  ['cleared', 4],
  ['delivered', 6],
  ['closed', 5],
  ['cancelled', 3],
];

interface Lane {
  type: DossierCreate['type'];
  mode: DossierCreate['mode'];
  origin: string;
  destination: string;
  incoterm: string;
  place: string;
  consignor: string | null;
  consignee: string | null;
  notify?: string;
  cargo: string;
  packageType: string;
  /** Days from departure to arrival. */
  transit: number;
}

/** Each customer's regular trades: real UN/LOCODEs, Incoterms that fit the mode. */
const LANES: Record<'ACME' | 'GLOBEX', Lane[]> = {
  ACME: [
    {
      type: 'import',
      mode: 'sea',
      origin: 'CNSHA',
      destination: 'NLRTM',
      incoterm: 'FOB',
      place: 'Shanghai',
      consignor: 'SZBRIGHT',
      consignee: 'ACME',
      cargo: 'LED lighting fixtures and drivers',
      packageType: 'CTN',
      transit: 32,
    },
    {
      type: 'import',
      mode: 'sea',
      origin: 'CNNGB',
      destination: 'NLRTM',
      incoterm: 'FOB',
      place: 'Ningbo',
      consignor: 'NINGBOFURN',
      consignee: 'ACME',
      cargo: 'Aluminium garden furniture, flat-packed',
      packageType: 'CTN',
      transit: 34,
    },
    {
      type: 'import',
      mode: 'air',
      origin: 'CNSZX',
      destination: 'NLAMS',
      incoterm: 'FCA',
      place: 'Shenzhen Bao’an airport',
      consignor: 'SZBRIGHT',
      consignee: 'ACME',
      cargo: 'Smartphone accessories (chargers, cables)',
      packageType: 'CTN',
      transit: 2,
    },
    {
      type: 'domestic',
      mode: 'road',
      origin: 'NLRTM',
      destination: 'NLUTC',
      incoterm: 'DAP',
      place: 'Utrecht',
      consignor: 'ACME',
      consignee: null,
      cargo: 'Bicycle parts for retail stores',
      packageType: 'PLT',
      transit: 1,
    },
    {
      type: 'import',
      mode: 'rail',
      origin: 'CNCKG',
      destination: 'DEDUI',
      incoterm: 'FCA',
      place: 'Chongqing Tuanjiecun',
      consignor: 'SZBRIGHT',
      consignee: 'ACME',
      cargo: 'E-bike frames and battery packs (non-DG)',
      packageType: 'PLT',
      transit: 18,
    },
    {
      type: 'crosstrade',
      mode: 'sea',
      origin: 'CNNGB',
      destination: 'GBFXT',
      incoterm: 'CIF',
      place: 'Felixstowe',
      consignor: 'NINGBOFURN',
      consignee: 'BRITPARTS',
      cargo: 'Garden furniture for a UK retailer',
      packageType: 'CTN',
      transit: 36,
    },
    {
      type: 'warehouse',
      mode: 'sea',
      origin: 'CNSHA',
      destination: 'NLRTM',
      incoterm: 'FOB',
      place: 'Shanghai',
      consignor: 'SZBRIGHT',
      consignee: 'ACME',
      cargo: 'Kitchen appliances for bonded storage',
      packageType: 'CTN',
      transit: 31,
    },
  ],
  GLOBEX: [
    {
      type: 'export',
      mode: 'sea',
      origin: 'DEHAM',
      destination: 'USNYC',
      incoterm: 'CIF',
      place: 'New York',
      consignor: 'GLOBEX',
      consignee: 'MIDWESTPUMP',
      notify: 'MIDWESTPUMP',
      cargo: 'Industrial centrifugal pumps',
      packageType: 'CRT',
      transit: 12,
    },
    {
      type: 'export',
      mode: 'sea',
      origin: 'DEHAM',
      destination: 'CNSHA',
      incoterm: 'CFR',
      place: 'Shanghai',
      consignor: 'GLOBEX',
      consignee: null,
      cargo: 'Printing machinery spare parts',
      packageType: 'CRT',
      transit: 33,
    },
    {
      type: 'export',
      mode: 'air',
      origin: 'DEFRA',
      destination: 'USCHI',
      incoterm: 'CPT',
      place: 'Chicago O’Hare',
      consignor: 'GLOBEX',
      consignee: 'MIDWESTPUMP',
      cargo: 'Pump control units',
      packageType: 'PKG',
      transit: 1,
    },
    {
      type: 'export',
      mode: 'road',
      origin: 'DEHAM',
      destination: 'GBMNC',
      incoterm: 'DAP',
      place: 'Manchester',
      consignor: 'GLOBEX',
      consignee: 'BRITPARTS',
      cargo: 'Automotive spare parts',
      packageType: 'PLT',
      transit: 3,
    },
    {
      type: 'transit',
      mode: 'road',
      origin: 'NLRTM',
      destination: 'CZPRG',
      incoterm: 'DAP',
      place: 'Praha',
      consignor: 'GLOBEX',
      consignee: null,
      cargo: 'Machine parts under T1 transit',
      packageType: 'PLT',
      transit: 2,
    },
    {
      type: 'export',
      mode: 'multimodal',
      origin: 'DEHAM',
      destination: 'INNSA',
      incoterm: 'FCA',
      place: 'Hamburg',
      consignor: 'GLOBEX',
      consignee: null,
      cargo: 'Air compressors',
      packageType: 'CRT',
      transit: 24,
    },
    {
      type: 'domestic',
      mode: 'road',
      origin: 'DEHAM',
      destination: 'DEMUC',
      incoterm: 'DAP',
      place: 'München',
      consignor: 'GLOBEX',
      consignee: null,
      cargo: 'Machine parts for a trade fair',
      packageType: 'PLT',
      transit: 1,
    },
  ],
};

/** Real vessel names with valid IMO numbers, and the carrier's voyages. */
const VESSELS = [
  { name: 'EMMA MAERSK', imo: '9321483' },
  { name: 'EVER GIVEN', imo: '9811000' },
  { name: 'MSC GULSUN', imo: '9839430' },
  { name: 'BLUE SEA AURORA', imo: imo('941562') },
  { name: 'BLUE SEA BOREAS', imo: imo('947708') },
  { name: 'NORDIC TRADER', imo: imo('935214') },
];

function imo(six: string): string {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(six[i]) * (7 - i);
  return `${six}${sum % 10}`;
}

/** Owner codes (BIC) that real boxes carry; the serial is the generator's, the check digit is ISO 6346's. */
const OWNERS = ['MSKU', 'TGHU', 'CAIU', 'TCNU', 'HLXU', 'SEGU', 'BMOU', 'FCIU'];

function containerNumber(rand: Prng, taken: Set<string>): string {
  for (;;) {
    const body = `${rand.pick(OWNERS)}${rand.digits(6)}`;
    const n = `${body}${iso6346CheckDigit(body)}`;
    if (!taken.has(n)) {
      taken.add(n);
      return n;
    }
  }
}

/** An air waybill: airline prefix, 7-digit serial and its check digit (serial mod 7). */
function airWaybill(rand: Prng): string {
  const serial = rand.digits(7);
  return `020-${serial}${Number(serial) % 7}`;
}

const money = (n: number) => n.toFixed(2);

/** Job costing as a forwarder books it: revenue to the customer, costs from the carriers. */
function chargesFor(
  lane: Lane,
  d: { containers: number; chargeableKg: number },
  rand: Prng,
  parties: Record<string, string>,
): ChargeInput[] {
  const usd = '0.921500';
  const lines: ChargeInput[] = [];
  const line = (
    kind: 'revenue' | 'cost',
    chargeCode: SalesChargeCode,
    description: string,
    amount: number,
    currency = 'EUR',
    exchangeRate = '1',
    partyId?: string,
  ) =>
    lines.push({
      kind,
      chargeCode,
      description,
      amount: money(amount),
      currency,
      exchangeRate,
      ...(partyId ? { partyId: parties[partyId] } : {}),
    });
  const boxes = Math.max(1, d.containers);
  if (lane.mode === 'sea' || lane.mode === 'multimodal' || lane.mode === 'rail') {
    const freight = rand.int(1650, 2750) * boxes;
    const code = 'FREIGHT';
    const what = lane.mode === 'rail' ? 'Rail freight' : 'Ocean freight';
    line('revenue', code, `${what} ${lane.origin}–${lane.destination}`, freight, 'USD', usd);
    line('revenue', 'THC', 'Terminal handling', 215 * boxes);
    // Priced per container: the units carry through to the invoice (issue 27 item 4).
    Object.assign(lines[lines.length - 1] as ChargeInput, {
      quantity: String(boxes),
      unit: 'XCN',
      unitPrice: '215',
    });
    line('revenue', 'DOCUMENTATION', 'Documentation fee', 45);
    line('cost', code, `${what} (carrier)`, Math.round(freight * 0.82), 'USD', usd, 'BLUESEA');
    line('cost', 'THC', 'Terminal handling (terminal invoice)', 195 * boxes);
    if (lane.mode === 'rail')
      line('cost', 'ORIGIN', 'Origin charges Chongqing', rand.int(900, 1500), 'CNY', '0.129400');
  } else if (lane.mode === 'air') {
    const freight = Math.round(d.chargeableKg * 3.15);
    line('revenue', 'FREIGHT', 'Air freight', freight, 'USD', usd);
    line('revenue', 'FUEL', 'Fuel surcharge', Math.round(d.chargeableKg * 0.85), 'USD', usd);
    line('revenue', 'SECURITY', 'Security screening', 35);
    line('cost', 'FREIGHT', 'Air freight (airline)', Math.round(freight * 0.78), 'USD', usd, 'BLUESEA');
  } else {
    const freight = rand.int(640, 1450);
    line('revenue', 'FREIGHT', `Road freight ${lane.origin}–${lane.destination}`, freight);
    line('cost', 'FREIGHT', 'Road freight (haulier)', Math.round(freight * 0.8), 'EUR', '1', 'VANDIJK');
    if (lane.destination.startsWith('GB')) {
      line('revenue', 'FREIGHT', 'Ferry crossing Rotterdam–Hull', 310, 'GBP', '1.153000');
      line('cost', 'FREIGHT', 'Ferry crossing (ferry line)', 265, 'GBP', '1.153000');
    }
  }
  if (lane.type === 'import' || lane.type === 'warehouse')
    line('revenue', 'CUSTOMS', 'Customs clearance import', 95);
  if (lane.type === 'transit') line('revenue', 'CUSTOMS', 'T1 transit declaration', 65);
  if (lane.type === 'import' && lane.mode !== 'road')
    line('revenue', 'FREIGHT', 'Delivery to consignee', rand.int(320, 480));
  return lines;
}

/** The days of a dossier in a status: departure and arrival relative to today (negative: past). */
/** Booked dossiers leave on these days from today: their pickups fill this week and next, whatever today is. */
const BOOKED_ETD = [1, 2, 3, 4, 5, 6, 8, 10, 12];

function datesFor(
  status: DossierStatus,
  transit: number,
  rand: Prng,
  k: number,
): { etd: number; eta: number } {
  const back = (eta: number) => ({ etd: eta - transit, eta });
  switch (status) {
    case 'requested':
      return ((etd) => ({ etd, eta: etd + transit }))(rand.int(7, 21));
    case 'booked':
      return ((etd) => ({ etd, eta: etd + transit }))(BOOKED_ETD[k % BOOKED_ETD.length] as number);
    case 'cancelled':
      return ((etd) => ({ etd, eta: etd + transit }))(rand.int(1, 12));
    case 'in_transit': {
      // A road or air trip lasts days, a voyage weeks: what is still under way arrives within its transit.
      const eta = rand.int(1, Math.max(1, Math.min(11, transit - 1)));
      return { etd: Math.min(eta - transit, -1), eta };
    }
    case 'arrived':
      return back(-rand.int(0, 4));
    case 'cleared':
      return back(-rand.int(2, 6));
    case 'delivered':
      return back(-rand.int(7, 20));
    default:
      return back(-rand.int(30, 70));
  }
}

/** The path a dossier took to its status, as the status buttons would have moved it. */
function pathTo(status: DossierStatus, lane: Lane, i: number): DossierStatus[] {
  const customs = lane.type === 'import' || lane.type === 'warehouse' || lane.type === 'transit';
  const full: DossierStatus[] = [
    'booked',
    'in_transit',
    'arrived',
    ...(customs ? ['cleared' as const] : []),
    'delivered',
    'closed',
  ];
  if (status === 'requested') return ['requested'];
  if (status === 'cancelled') return i % 3 === 0 ? ['requested', 'cancelled'] : ['booked', 'cancelled'];
  if (status === 'cleared') return ['booked', 'in_transit', 'arrived', 'cleared'];
  const upTo = full.slice(0, full.indexOf(status) + 1);
  return upTo;
}

export async function seedDossiers(ctx: DemoContext): Promise<void> {
  const { rand } = ctx;
  const repo = dossiersRepository(ctx.db);
  const year = ctx.now.getUTCFullYear();
  const taken = new Set<string>();
  let n = 0;
  for (const [status, count] of DEMO_STATUS_PLAN) {
    for (let k = 0; k < count; k++, n++) {
      const customer = n % 2 === 0 ? 'ACME' : 'GLOBEX';
      const lanes = LANES[customer];
      const lane = lanes[Math.floor(n / 2) % lanes.length] as Lane;
      const offsets = datesFor(status, lane.transit, rand, k);
      const etd = dayOf(ctx, offsets.etd);
      const eta = dayOf(ctx, offsets.eta);
      const sea = lane.mode === 'sea' || lane.mode === 'multimodal';
      const boxes = sea || lane.mode === 'rail' ? rand.int(1, 2) : 0;
      const containers = Array.from({ length: boxes }, () => ({
        number: containerNumber(rand, taken),
        sizeType: rand.pick(['22G1', '45G1', '45G1', '42G1']),
        seals: [`BS${rand.digits(7)}`],
      }));
      const packages = lane.packageType === 'CTN' ? rand.int(120, 900) : rand.int(2, 26);
      const grossKg = lane.mode === 'air' ? rand.int(180, 1400) : rand.int(2200, 19500);
      const volume = lane.mode === 'air' ? grossKg / 190 : grossKg / 320;
      const chargeableKg = Math.max(grossKg, Math.round(volume * 167));
      const vessel = sea ? (VESSELS[n % VESSELS.length] as (typeof VESSELS)[number]) : null;
      const voyage = vessel
        ? `${(n % 9) + 1}${String(rand.int(10, 52))}${lane.destination.startsWith('US') ? 'W' : 'E'}`
        : null;
      const reference = customer === 'ACME' ? `4500${rand.digits(6)}` : `GX-SO-${year}-${rand.digits(5)}`;
      const booked =
        status !== 'requested' && !(status === 'cancelled' && pathTo(status, lane, n)[0] === 'requested');
      const handler = n % 4 === 3 ? ctx.users.admin : ctx.users.staff;
      const input: DossierCreate = {
        type: lane.type,
        mode: lane.mode,
        customerId: ctx.parties[customer] as string,
        consignorId: lane.consignor ? ctx.parties[lane.consignor] : null,
        consigneeId: lane.consignee ? ctx.parties[lane.consignee] : null,
        notifyPartyId: lane.notify ? ctx.parties[lane.notify] : null,
        incoterm: lane.incoterm,
        incotermPlace: lane.place,
        originLocode: lane.origin,
        destinationLocode: lane.destination,
        etd,
        eta,
        customerReference: reference,
        bookingNumber: booked && lane.mode !== 'road' ? `BSL${rand.digits(7)}` : null,
        masterBl: booked
          ? sea || lane.mode === 'rail'
            ? `BSLU${rand.digits(8)}`
            : lane.mode === 'air'
              ? airWaybill(rand)
              : null
          : null,
        houseBl:
          booked && lane.mode !== 'road' ? `FVGH${year % 100}${String(n + 101).padStart(4, '0')}` : null,
        cmrNumber: booked && lane.mode === 'road' ? `NL${rand.digits(7)}` : null,
        cargoDescription: lane.cargo,
        packages,
        packageType: lane.packageType,
        grossWeightKg: String(grossKg),
        volumeM3: volume.toFixed(3),
        chargeableWeightKg: lane.mode === 'air' ? String(chargeableKg) : null,
        handlerId: booked ? handler : null,
        containers,
      };
      const fields = valid(dossierCreateSchema, input, `dossier ${n}`);
      const path = pathTo(status, lane, n);
      const createdAt = notAfterNow(
        ctx,
        onDay(dayOf(ctx, Math.min(offsets.etd - rand.int(6, 14), -1)), 8 + (n % 9), (n * 7) % 60),
      );
      const creator =
        path[0] === 'requested' ? (customer === 'ACME' ? ctx.users.acme : ctx.users.globex) : handler;

      // The history as the app would have written it: the create, the costing, the facts, each status move.
      const trail: { action: string; actor: string; changes: Change[]; at: Date }[] = [];
      const first = path[0] === 'requested' ? { ...fields, handlerId: null } : fields;
      trail.push({
        action: path[0] === 'requested' ? 'booking requested' : 'created',
        actor: creator,
        changes: diff({}, first as Record<string, unknown>, DOSSIER_FIELDS),
        at: createdAt,
      });
      let bookedAt = createdAt;
      if (path[0] === 'requested' && path[1] !== 'cancelled' && status !== 'requested') {
        bookedAt = new Date(createdAt.getTime() + 3 * 3_600_000);
        trail.push({
          action: 'updated',
          actor: handler,
          changes: [{ field: 'handlerId', from: null, to: handler }],
          at: bookedAt,
        });
      }
      const lines =
        status === 'requested' || (status === 'cancelled' && path[0] === 'requested')
          ? []
          : status === 'cancelled'
            ? [
                {
                  kind: 'revenue' as const,
                  chargeCode: 'CANCELLATION' as const,
                  description: 'Cancellation fee',
                  amount: '75.00',
                  currency: 'EUR',
                  exchangeRate: '1',
                },
              ]
            : chargesFor(lane, { containers: boxes, chargeableKg }, rand, ctx.parties);
      const charges = valid(chargeLinesSchema, { charges: lines }, `charges of dossier ${n}`).charges;
      const atd = ['in_transit', 'arrived', 'cleared', 'delivered', 'closed'].includes(status) ? etd : null;
      const ata = ['arrived', 'cleared', 'delivered', 'closed'].includes(status) ? eta : null;
      const moves: { to: DossierStatus; at: Date; before?: Change }[] = [];
      for (const to of path.slice(1)) {
        const when =
          to === 'booked'
            ? new Date(bookedAt.getTime() + 3_600_000)
            : to === 'in_transit'
              ? onDay(etd, 18)
              : to === 'arrived'
                ? onDay(eta, 9, 30)
                : to === 'cleared'
                  ? onDay(eta, 15)
                  : to === 'delivered'
                    ? onDay(dayOf(ctx, offsets.eta + 2), 16)
                    : to === 'closed'
                      ? onDay(dayOf(ctx, offsets.eta + 12), 11)
                      : new Date(createdAt.getTime() + 2 * 86_400_000);
        moves.push({
          to,
          at: notAfterNow(ctx, when),
          ...(to === 'in_transit' ? { before: { field: 'atd', from: null, to: atd } } : {}),
          ...(to === 'arrived' ? { before: { field: 'ata', from: null, to: ata } } : {}),
        });
      }
      let from = path[0] as DossierStatus;
      for (const m of moves) {
        if (m.before) trail.push({ action: 'updated', actor: handler, changes: [m.before], at: m.at });
        trail.push({
          action: 'status changed',
          actor: handler,
          changes: [{ field: 'status', from, to: m.to }],
          at: m.at,
        });
        from = m.to;
      }
      if (charges.length) {
        const line = (c: { kind: string; chargeCode: string; amount: string; currency: string }) =>
          `${c.kind} ${c.chargeCode} ${c.amount} ${c.currency}`;
        trail.splice(path[0] === 'requested' ? 2 : 1, 0, {
          action: 'charges changed',
          actor: handler,
          changes: [{ field: 'charges', from: [], to: charges.map(line) }],
          at: new Date(bookedAt.getTime() + 30 * 60_000),
        });
      }
      trail.sort((a, b) => a.at.getTime() - b.at.getTime());
      const last = trail.at(-1)?.at ?? createdAt;

      const number = await repo.nextNumber(year);
      const row = await repo.insert({
        ...toColumns({ ...fields, atd, ata }),
        number,
        status,
        version: trail.length,
        created_by: creator,
        updated_by: trail.at(-1)?.actor ?? creator,
        created_at: createdAt,
        updated_at: last,
      });
      if (charges.length) {
        const totals = await repo.replaceCharges(row.id, charges);
        await ctx.db
          .updateTable('dossiers')
          .set({ cost_total: totals.cost, revenue_total: totals.revenue })
          .where('id', '=', row.id)
          .execute();
        for (const t of trail)
          if (t.action === 'charges changed') {
            t.changes.push({ field: 'costTotal', from: '0.00', to: totals.cost });
            t.changes.push({ field: 'revenueTotal', from: '0.00', to: totals.revenue });
          }
      }
      for (const t of trail)
        await audit(ctx, {
          kind: 'dossier',
          id: row.id,
          action: t.action,
          actorId: t.actor,
          changes: t.changes,
          at: t.at,
        });
      ctx.dossiers.push({
        id: row.id,
        number,
        status,
        type: lane.type,
        mode: lane.mode,
        customer,
        customerId: ctx.parties[customer] as string,
        origin: lane.origin,
        destination: lane.destination,
        etd,
        eta,
        createdAt,
        customerReference: reference,
        bookingNumber: fields.bookingNumber ?? null,
        masterBl: fields.masterBl ?? null,
        containers: containers.map((c) => ({ number: c.number, sizeType: c.sizeType })),
        cargo: lane.cargo,
        vessel: vessel && voyage ? { ...vessel, voyage } : null,
      });
    }
  }
}
