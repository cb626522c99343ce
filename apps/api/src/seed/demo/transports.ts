import { type TransportCreate, type TransportStatus, transportCreateSchema } from '@fvg/contracts';
import { transportsRepository } from '../../features/transports/transports.repository.ts';
import { TRANSPORT_FIELDS, toColumns } from '../../features/transports/transports.service.ts';
import {
  audit,
  auditCreated,
  type DemoContext,
  type DemoDossier,
  daysBetween,
  onDay,
  valid,
} from './context.ts';

/** Where the trucks go: terminals, airports and the customers' own sites. */
const TERMINALS: Record<string, string> = {
  NLRTM: 'ECT Delta Terminal, Europaweg 875, 3199 LD Maasvlakte Rotterdam',
  DEHAM: 'Eurogate Container Terminal, Kurt-Eckelmann-Straße 1, 21129 Hamburg',
  NLAMS: 'Schiphol Cargo, Anchoragelaan 16, 1118 LD Schiphol',
  DEFRA: 'Frankfurt Cargo City Süd, Gebäude 532, 60549 Frankfurt am Main',
  DEDUI: 'duisport Logport I, Bliersheimer Straße 80, 47229 Duisburg',
};
const SITES: Record<string, string> = {
  ACME: 'Acme Trading B.V., Waalhaven Oostzijde 1, 3087 BM Rotterdam',
  GLOBEX: 'Globex GmbH, Am Sandtorkai 5, 20457 Hamburg',
  NLUTC: 'Acme retail DC, Ravenswade 54, 3439 LD Nieuwegein',
  GBMNC: 'Brit Auto Parts Ltd, Unit 4, Trafford Park, Manchester M17 1PA',
  CZPRG: 'Prague customs office, Sdružení 1, 140 00 Praha 4',
  DEMUC: 'Messe München, Halle B2, Am Messesee, 81829 München',
};
const DRIVERS = [
  'Piet de Vries',
  'Anna Kowalski',
  'Jan Bakker',
  'Eva Schmidt',
  'Lukas Novák',
  'Marta Jansen',
  'Tomasz Nowak',
  'Sanne Visser',
];

interface Leg {
  dossier: DemoDossier;
  day: string;
  pickupLocode: string;
  pickupAddress: string;
  deliveryLocode: string;
  deliveryAddress: string;
  /** Hours of the day: pickup window, then the delivery window. */
  hours: [number, number, number, number];
  /** Days from pickup to delivery (a road main leg takes its transit time). */
  days: number;
  carrier: string | null;
  plate: string | null;
  cancelled: boolean;
  /** The boxes it carries when not all of the dossier's. */
  containers?: string[];
  notes?: string;
  /** What the customer reads on the leg (notes are internal). */
  customerRemark?: string;
}

/** The road leg a dossier needs, if any: pre-carriage before departure, on-carriage after arrival, or the trip itself. */
function legOf(ctx: DemoContext, d: DemoDossier, i: number): Leg | undefined {
  if (d.status === 'requested') return undefined;
  const shift = (day: string, n: number) =>
    new Date(Date.parse(day) + n * 86_400_000).toISOString().slice(0, 10);
  const base = {
    dossier: d,
    carrier: i % 3 === 0 ? 'NORDCAR' : 'VANDIJK',
    plate: null,
    cancelled: d.status === 'cancelled',
  };
  const site = (code: string) => SITES[code] ?? `${code} consignee site`;
  const terminal = (code: string) => TERMINALS[code] ?? `${code} terminal`;
  if (d.mode === 'road') {
    return {
      ...base,
      day: d.etd,
      pickupLocode: d.origin,
      pickupAddress: site(d.customer),
      deliveryLocode: d.destination,
      deliveryAddress: site(d.destination),
      hours: [6, 8, 13, 17],
      days: Math.max(0, daysBetween(d.etd, d.eta)),
    };
  }
  const onCarriage = d.status !== 'booked' && d.status !== 'cancelled' && !!TERMINALS[d.destination];
  if (!onCarriage) {
    // Pre-carriage: from the shipper's site to the departure terminal the day before departure.
    if (!TERMINALS[d.origin]) return undefined;
    return {
      ...base,
      day: shift(d.etd, -1),
      pickupLocode: d.origin,
      pickupAddress: site(d.customer),
      deliveryLocode: d.origin,
      deliveryAddress: terminal(d.origin),
      hours: [7 + (i % 4), 9 + (i % 4), 12 + (i % 4), 15 + (i % 4)],
      days: 0,
    };
  }
  // On-carriage: from the arrival terminal to the consignee, once the goods are free to go.
  const after =
    d.status === 'in_transit'
      ? shift(d.eta, 1)
      : d.status === 'arrived' || d.status === 'cleared'
        ? shift(ctx.today.toISOString().slice(0, 10), 1 + (i % 3))
        : shift(d.eta, 2);
  return {
    ...base,
    day: after,
    pickupLocode: d.destination,
    pickupAddress: terminal(d.destination),
    deliveryLocode: d.customer === 'ACME' ? 'NLRTM' : 'DEHAM',
    deliveryAddress: site(d.customer === 'ACME' ? 'ACME' : 'GLOBEX'),
    hours: [8 + (i % 3), 10 + (i % 3), 13 + (i % 3), 16 + (i % 3)],
    days: 0,
  };
}

/**
 * One leg today for each customer, whatever the weekday the demo starts on: the dashboard's
 * "transports today" is never empty: the loose cartons an arrived dossier's inspection released go
 * from the terminal's freight station to the customer's site in the middle of the (UTC) day, ahead of
 * the boxes' own leg.
 */
function todaysShuttles(ctx: DemoContext): Leg[] {
  const day = ctx.today.toISOString().slice(0, 10);
  return (['ACME', 'GLOBEX'] as const).flatMap((customer, k) => {
    const d =
      ctx.dossiers.find(
        (x) => x.customer === customer && x.status === 'arrived' && TERMINALS[x.destination],
      ) ??
      ctx.dossiers.find(
        (x) => x.customer === customer && ['arrived', 'cleared', 'in_transit'].includes(x.status),
      );
    if (!d) throw new Error(`demo company: no dossier of ${customer} for a leg today`);
    return [
      {
        dossier: d,
        carrier: k === 0 ? 'VANDIJK' : 'NORDCAR',
        plate: null,
        cancelled: false,
        day,
        pickupLocode: d.destination,
        pickupAddress: TERMINALS[d.destination] ?? `${d.destination} terminal`,
        deliveryLocode: customer === 'ACME' ? 'NLRTM' : 'DEHAM',
        deliveryAddress: SITES[customer] as string,
        hours: [10 + k, 12 + k, 14 + k, 16 + k] as Leg['hours'],
        days: 0,
        containers: [],
        customerRemark: 'Cartons released after the customs inspection, ahead of the containers.',
      },
    ];
  });
}

/**
 * Road legs for the dossiers: most this week and next, with their carrier, truck and driver; four
 * without a carrier yet, and one truck booked on two legs at once (what the planning board flags).
 */
export async function seedTransports(
  ctx: DemoContext,
): Promise<{ unassigned: number; overlap: [string, string] }> {
  const repo = transportsRepository(ctx.db);
  const legs = ctx.dossiers.map((d, i) => legOf(ctx, d, i)).filter((l): l is Leg => !!l);
  // Appended after the dossiers' own legs, so the planning board's unassigned and overlapping legs
  // (chosen among the future ones below) and the other trucks' plates stay what they were.
  legs.push(...todaysShuttles(ctx));
  legs.forEach((l, i) => {
    // Every truck its own plate (Dutch sidecode 8: 99-XXX-9), so the only overlap is the one made below.
    l.plate = `${String(10 + i).padStart(2, '0')}-${['BX', 'VK', 'TR', 'LN'][i % 4]}${String.fromCharCode(65 + (i % 26))}-${(i % 9) + 1}`;
  });
  const horizon = ctx.now.getTime() + 36 * 3_600_000;
  const future = legs.filter((l) => !l.cancelled && onDay(l.day, l.hours[0]).getTime() > horizon);
  // Four legs still without a carrier (and so without truck or driver).
  const unassigned = future.filter((_, i) => i % 2 === 1).slice(0, 4);
  for (const l of unassigned) {
    l.carrier = null;
    l.plate = null;
  }
  // One truck on two legs at the same time: a pre-carriage moved forward onto another leg's day.
  const assigned = future.filter((l) => l.carrier && l.dossier.status === 'booked');
  const [a, b] = [assigned[0], assigned.at(-1)];
  if (!a || !b || a === b) throw new Error('demo company: no two future legs to overlap');
  b.day = a.day;
  b.days = 0;
  b.hours = [a.hours[0] + 1, a.hours[1] + 1, a.hours[2] + 1, a.hours[3] + 1];
  b.carrier = a.carrier;
  b.plate = a.plate;

  const ids: string[] = [];
  for (const [i, l] of legs.entries()) {
    const [pf, pt, df, dt] = l.hours;
    const pickupFrom = onDay(l.day, pf);
    const pickupTo = onDay(l.day, pt);
    const deliveryDay = new Date(Date.parse(l.day) + l.days * 86_400_000).toISOString().slice(0, 10);
    const deliveryFrom = onDay(deliveryDay, df);
    const deliveryTo = onDay(deliveryDay, dt);
    const now = ctx.now.getTime();
    const status: TransportStatus = l.cancelled
      ? 'cancelled'
      : deliveryTo.getTime() < now
        ? 'delivered'
        : pickupFrom.getTime() < now
          ? 'in_transit'
          : l.carrier && pickupFrom.getTime() < horizon
            ? 'dispatched'
            : 'planned';
    const actualPickup =
      status === 'delivered' || status === 'in_transit' ? new Date(pickupFrom.getTime() + 40 * 60_000) : null;
    const actualDelivery = status === 'delivered' ? new Date(deliveryFrom.getTime() + 95 * 60_000) : null;
    const input: TransportCreate = {
      dossierId: l.dossier.id,
      mode: 'road',
      carrierId: l.carrier ? ctx.parties[l.carrier] : null,
      truckPlate: l.plate,
      trailerPlate: l.plate ? `O${['R', 'S', 'T', 'V'][i % 4]}-${10 + i}-${['BX', 'NK'][i % 2]}` : null,
      pickupLocode: l.pickupLocode,
      pickupAddress: l.pickupAddress,
      pickupFrom: pickupFrom.toISOString(),
      pickupTo: pickupTo.toISOString(),
      deliveryLocode: l.deliveryLocode,
      deliveryAddress: l.deliveryAddress,
      deliveryFrom: deliveryFrom.toISOString(),
      deliveryTo: deliveryTo.toISOString(),
      actualPickupAt: actualPickup?.toISOString() ?? null,
      actualDeliveryAt: actualDelivery?.toISOString() ?? null,
      driverName: l.plate ? (DRIVERS[i % DRIVERS.length] as string) : null,
      driverPhone: l.plate ? `+31 6 ${String(20000000 + i * 7919).slice(0, 8)}` : null,
      containers: l.containers ?? l.dossier.containers.map((c) => c.number),
      notes: l.notes ?? (l.carrier ? null : 'Carrier to be booked: ask Van Dijk and Nord Cargo for a rate.'),
      customerRemark: l.customerRemark ?? null,
    };
    const { dossierId: _d, ...fields } = valid(
      transportCreateSchema,
      input,
      `transport of ${l.dossier.number}`,
    );
    const createdAt = new Date(Math.min(l.dossier.createdAt.getTime() + 2 * 3_600_000, now));
    const path: TransportStatus[] =
      status === 'cancelled'
        ? ['cancelled']
        : status === 'planned'
          ? []
          : status === 'dispatched'
            ? ['dispatched']
            : status === 'in_transit'
              ? ['dispatched', 'picked_up', 'in_transit']
              : ['dispatched', 'picked_up', 'delivered'];
    const moveAt = (s: TransportStatus) =>
      s === 'dispatched'
        ? new Date(pickupFrom.getTime() - 20 * 3_600_000)
        : s === 'picked_up'
          ? (actualPickup as Date)
          : s === 'in_transit'
            ? new Date((actualPickup as Date).getTime() + 10 * 60_000)
            : s === 'delivered'
              ? (actualDelivery as Date)
              : new Date(createdAt.getTime() + 86_400_000);
    const sequence = await repo.nextSequence(l.dossier.id);
    const last = path.length ? moveAt(path.at(-1) as TransportStatus) : createdAt;
    const row = await repo.insert({
      ...toColumns(fields),
      dossier_id: l.dossier.id,
      sequence,
      status,
      version: 1 + path.length,
      created_by: ctx.users.staff,
      updated_by: ctx.users.staff,
      created_at: createdAt,
      updated_at: new Date(Math.min(last.getTime(), now)),
    });
    ids.push(row.id);
    const initial = { ...fields, actualPickupAt: null, actualDeliveryAt: null };
    await auditCreated(ctx, { kind: 'transport', id: row.id, at: createdAt }, initial, TRANSPORT_FIELDS);
    let from: TransportStatus = 'planned';
    for (const to of path) {
      await audit(ctx, {
        kind: 'transport',
        id: row.id,
        action: 'status changed',
        actorId: ctx.users.staff,
        changes: [
          { field: 'status', from, to },
          ...(to === 'picked_up' ? [{ field: 'actualPickupAt', from: null, to: fields.actualPickupAt }] : []),
          ...(to === 'delivered'
            ? [{ field: 'actualDeliveryAt', from: null, to: fields.actualDeliveryAt }]
            : []),
        ],
        at: moveAt(to),
      });
      from = to;
    }
  }
  const index = (l: Leg) => ids[legs.indexOf(l)] as string;
  return { unassigned: unassigned.length, overlap: [index(a), index(b)] };
}
