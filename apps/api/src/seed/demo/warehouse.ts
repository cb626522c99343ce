import {
  declarationUpdateSchema,
  type HandlingUnitInput,
  lodgingProblems,
  makeMrn,
  multiplyDecimal,
  type ShipmentCreate,
  type StockReceiptCreate,
  type StockReceiptLineInput,
  shipmentCreateSchema,
  stockMovementCreateSchema,
  stockReceiptCreateSchema,
  sumDecimal,
} from '@fvg/contracts';
import { sql } from 'kysely';
import { customsMonthOf, customsRateOf } from '../../features/company/customs-rates.ts';
import { loadDeclaration, lodgingContextOf } from '../../features/declarations/declarations.repository.ts';
import { declarationsService, noCustomsGateway } from '../../features/declarations/declarations.service.ts';
import { SANDBOX_MRN_LETTER } from '../../features/declarations/sandbox/mrn.ts';
import type { SessionUser } from '../../features/users/users.repository.ts';
import { shipmentsService } from '../../features/warehouse/shipments/shipments.service.ts';
import { stockService } from '../../features/warehouse/stock/stock.service.ts';
import { createRecordEvents, type RecordEvents } from '../../records/events.ts';
import { type DemoContext, dayOf, valid } from './context.ts';
import { answerDemoDraft, DEMO_WAREHOUSE } from './declarations.ts';

/** The demo company's GS1 company prefix (a plausible Dutch one: GS1 Nederland issues 87…). */
export const DEMO_GS1_PREFIX = '8712345';

const DAY = 86_400_000;

/** A location in the demo warehouse: zone, aisle, bin (walking order is this order). */
const loc = (zone: string, aisle: number, bin: number) =>
  `${DEMO_WAREHOUSE}-${zone}-${String(aisle).padStart(2, '0')}-${String(bin).padStart(2, '0')}`;

/** Pallets of cartons: `cartons` per pallet holding `perCarton` each, pallet k in the next bin. */
function palletsOfCartons(
  pallets: number,
  cartons: number,
  perCarton: number,
  at: (k: number) => string,
  ref: string,
): HandlingUnitInput[] {
  return Array.from({ length: pallets }, (_, k) => ({
    kind: 'pallet' as const,
    quantity: cartons * perCarton,
    location: at(k),
    children: Array.from({ length: cartons }, (_, c) => ({
      kind: 'carton' as const,
      reference: `${ref}-${k + 1}.${c + 1}`,
      quantity: perCarton,
    })),
  }));
}

/** A pallet of single items (serial-numbered goods), each an item unit of 1. */
function palletOfItems(items: number, location: string, ref: string): HandlingUnitInput {
  return {
    kind: 'pallet',
    quantity: items,
    location,
    children: Array.from({ length: items }, (_, i) => ({
      kind: 'item' as const,
      reference: `${ref}-${String(i + 1).padStart(3, '0')}`,
      quantity: 1,
    })),
  };
}

const sum = (units: HandlingUnitInput[]) => units.reduce((s, u) => s + u.quantity, 0);

/**
 * The customs warehouse of the demo company (RTM1, Waalhaven), made through the warehouse services as
 * the admin would (staff has no warehouse access in the demo), so every invariant the API keeps holds:
 * the company's GS1 prefix (pallets get SSCCs from it); for Acme (the customer with warehouse access)
 * a receipt of non-Union goods under its H2 entry declaration (the MRN comes from it), one of Union
 * goods and one in temporary storage, with pallets, cartons and items in several locations; a receipt
 * for Globex; a transfer and an adjustment; shipments in every status — draft (one ordered by Acme's
 * own user), released, picking, packed, shipped, cancelled — and one of non-Union goods that left
 * under its release for free circulation (4071), released by the sandbox before it was shipped.
 */
export async function seedWarehouse(ctx: DemoContext) {
  await sql`update company_settings set gs1_company_prefix = coalesce(gs1_company_prefix, ${DEMO_GS1_PREFIX})`.execute(
    ctx.db,
  );
  const user = async (id: string) =>
    (await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()) as unknown as SessionUser;
  const admin = await user(ctx.users.admin);
  const acmeUser = await user(ctx.users.acme);
  const events = createRecordEvents();
  const stock = stockService(ctx.db, { events });
  const acme = ctx.parties.ACME as string;
  const globex = ctx.parties.GLOBEX as string;

  // ---- Receipts (oldest first: their numbers follow the received dates) ----
  const entry = ctx.warehouseEntry;
  const entryItems = entry
    ? await ctx.db
        .selectFrom('declaration_items')
        .select([
          'position',
          'commodity_code',
          'description',
          'country_of_origin',
          'gross_mass_kg',
          'net_mass_kg',
          'invoice_value',
        ])
        .where('declaration_id', '=', entry.id)
        .orderBy('position')
        .execute()
    : [];
  const entryDay = entry
    ? (
        await ctx.db
          .selectFrom('declarations')
          .select('released_at')
          .where('id', '=', entry.id)
          .executeTakeFirstOrThrow()
      ).released_at
    : null;
  const currency = entry
    ? ((
        await ctx.db
          .selectFrom('declarations')
          .select('currency')
          .where('id', '=', entry.id)
          .executeTakeFirstOrThrow()
      ).currency ?? 'USD')
    : 'USD';

  const receipts: { key: string; input: StockReceiptCreate }[] = [];
  // 1. Non-Union goods into customs warehousing under Acme's H2 entry: a line per declared item,
  //    zone A; the first item's goods are serial-numbered (a pallet of single items).
  if (entry && entryDay) {
    const lines: StockReceiptLineInput[] = entryItems.map((it, i) => {
      const units =
        i === 0
          ? [
              ...palletsOfCartons(2, 4, 12, (k) => loc('A', 1, k + 1), `CTN-A${i + 1}`),
              palletOfItems(6, loc('A', 1, 3), `SN-A${i + 1}`),
            ]
          : palletsOfCartons(i === 1 ? 2 : 1, 3, 10, (k) => loc('A', 2 + i, k + 1), `CTN-A${i + 1}`);
      return {
        sku: `ACM-${(it.commodity_code ?? '0000').slice(0, 4)}-${String(i + 1).padStart(2, '0')}`,
        description: it.description ?? 'Goods',
        commodityCode: it.commodity_code,
        countryOfOrigin: it.country_of_origin,
        unit: 'H87',
        quantity: sum(units),
        location: units[0]?.location ?? loc('A', 1, 1),
        packages: units.length,
        grossMassKg: it.gross_mass_kg,
        netMassKg: it.net_mass_kg,
        value: it.invoice_value,
        currency: it.invoice_value ? currency : null,
        handlingUnits: units,
      };
    });
    if (lines.length)
      receipts.push({
        key: 'entry',
        input: {
          ownerId: acme,
          receivedOn: entryDay.toISOString().slice(0, 10),
          customsStatus: 'non_union_customs_warehousing',
          entryDeclarationId: entry.id,
          notes: 'Unloaded from the container into zone A; seals intact.',
          lines,
        },
      });
  }
  // 2. Union goods Acme keeps in stock for its Benelux customers, zone B.
  const cables = palletsOfCartons(3, 4, 50, (k) => loc('B', 1, k + 1), 'CTN-B1');
  const chargers = palletsOfCartons(2, 5, 24, (k) => loc('B', 2, k + 1), 'CTN-B2');
  receipts.push({
    key: 'union',
    input: {
      ownerId: acme,
      receivedOn: dayOf(ctx, -25),
      customsStatus: 'union',
      lines: [
        {
          sku: 'ACM-CBL-USBC-1M',
          description: 'USB-C charging cables, 1 m',
          commodityCode: '8544429090',
          countryOfOrigin: 'NL',
          quantity: sum(cables),
          location: loc('B', 1, 1),
          packages: 12,
          grossMassKg: '96',
          netMassKg: '84',
          value: '1260.00',
          currency: 'EUR',
          handlingUnits: cables,
        },
        {
          sku: 'ACM-CHG-20W',
          description: 'USB-C chargers, 20 W',
          commodityCode: '8504403090',
          countryOfOrigin: 'DE',
          quantity: sum(chargers),
          location: loc('B', 2, 1),
          packages: 10,
          grossMassKg: '41',
          netMassKg: '35.5',
          value: '1464.00',
          currency: 'EUR',
          handlingUnits: chargers,
        },
      ],
    },
  });
  // 3. A later delivery of the same cables (FIFO takes the older one first), loose on a shelf.
  receipts.push({
    key: 'union-later',
    input: {
      ownerId: acme,
      receivedOn: dayOf(ctx, -9),
      customsStatus: 'union',
      lines: [
        {
          sku: 'ACM-CBL-USBC-1M',
          description: 'USB-C charging cables, 1 m',
          commodityCode: '8544429090',
          countryOfOrigin: 'NL',
          quantity: 150,
          location: loc('B', 1, 4),
          value: '315.00',
          currency: 'EUR',
        },
      ],
    },
  });
  // 4. Goods in temporary storage awaiting their customs destination (the arrival's MRN), zone C.
  const displays = [palletOfItems(8, loc('C', 4, 3), 'SN-C1')];
  receipts.push({
    key: 'temporary',
    input: {
      ownerId: acme,
      receivedOn: dayOf(ctx, -2),
      customsStatus: 'temporary_storage',
      inboundMrn: makeMrn({
        year: new Date(ctx.today.getTime() - 2 * DAY).getUTCFullYear() % 100,
        country: 'NL',
        serial: 'DEMW00000001',
        letter: SANDBOX_MRN_LETTER.import,
      }),
      notes: 'Presented at the warehouse; the customs destination follows with the next declaration.',
      lines: [
        {
          sku: 'ACM-DSP-27',
          description: 'LCD monitors, 27 inch',
          commodityCode: '8528521000',
          countryOfOrigin: 'CN',
          quantity: sum(displays),
          location: loc('C', 4, 3),
          packages: 8,
          grossMassKg: '72',
          netMassKg: '60',
          value: '1480.00',
          currency: 'USD',
          handlingUnits: displays,
        },
      ],
    },
  });
  // 5. Another party's stock (Globex): staff see it, Acme never does.
  const pumps = palletsOfCartons(1, 2, 3, () => loc('C', 1, 1), 'CTN-G1');
  receipts.push({
    key: 'globex',
    input: {
      ownerId: globex,
      receivedOn: dayOf(ctx, -12),
      customsStatus: 'union',
      lines: [
        {
          sku: 'GBX-IMP-55',
          description: 'Spare impellers for centrifugal pumps',
          commodityCode: '8413910000',
          countryOfOrigin: 'DE',
          quantity: sum(pumps),
          location: loc('C', 1, 1),
          packages: 2,
          grossMassKg: '64',
          netMassKg: '58',
          value: '4650.00',
          currency: 'EUR',
          handlingUnits: pumps,
        },
      ],
    },
  });
  receipts.sort((a, b) => a.input.receivedOn.localeCompare(b.input.receivedOn));
  const made: Record<string, Awaited<ReturnType<typeof stock.createReceipt>>> = {};
  for (const r of receipts)
    made[r.key] = await stock.createReceipt(
      admin,
      valid(stockReceiptCreateSchema, r.input, `receipt ${r.key}`),
    );

  // ---- Movements: a pallet moved to another bin, a carton found damaged ----
  const record = (key: string, line = 0) => made[key]?.lines[line];
  const cableRecord = record('union');
  if (cableRecord) {
    const full = await stock.get(admin, cableRecord.id);
    const pallet = full.handlingUnits.find((u) => u.kind === 'pallet' && u.position > 1);
    if (pallet)
      await stock.postMovement(
        admin,
        cableRecord.id,
        valid(
          stockMovementCreateSchema,
          { kind: 'transfer', version: full.version, toLocation: loc('B', 3, 1), handlingUnitId: pallet.id },
          'transfer',
        ),
      );
    const again = await stock.get(admin, cableRecord.id);
    const carton = again.handlingUnits.find((u) => u.kind === 'carton');
    if (carton)
      await stock.postMovement(
        admin,
        cableRecord.id,
        valid(
          stockMovementCreateSchema,
          {
            kind: 'adjustment',
            version: again.version,
            quantity: -2,
            reason: 'Two cables with crushed connectors found at the count; written off',
            handlingUnitId: carton.id,
          },
          'adjustment',
        ),
      );
  }

  const shipped = await seedShipments(ctx, {
    admin,
    acmeUser,
    events,
    entrySku: (record('entry', 1) ?? record('entry', 0))?.sku ?? null,
  });
  return {
    receipts: receipts.length,
    stockRecords: Object.values(made).reduce((n, r) => n + r.lines.length, 0),
    ...shipped,
  };
}

/**
 * Acme's shipments through the shipments service: one in each status (the Union cables and chargers,
 * FIFO across their two receipts), a draft Acme's own user ordered, and — when the H2 entry's goods are
 * in stock — non-Union goods released, declared for release for free circulation (4071, the draft the
 * service makes from the allocations, then lodged and released as the sandbox answers) and shipped.
 */
async function seedShipments(
  ctx: DemoContext,
  {
    admin,
    acmeUser,
    events,
    entrySku,
  }: { admin: SessionUser; acmeUser: SessionUser; events: RecordEvents; entrySku: string | null },
) {
  const shipments = shipmentsService(ctx.db, { events });
  const acme = ctx.parties.ACME as string;
  const line = (sku: string, quantity: number) => ({ sku, quantity });
  const create = (by: SessionUser, input: ShipmentCreate) =>
    shipments.create(by, valid(shipmentCreateSchema, input, `shipment ${input.customerReference}`));
  const go = async (
    id: string,
    to: 'released' | 'picking' | 'packed' | 'shipped' | 'cancelled',
    reason?: string,
  ) => {
    const s = await shipments.get(admin, id);
    return shipments.transition(admin, id, { to, version: s.version, ...(reason ? { reason } : {}) });
  };
  const out: { status: string; id: string; number: string }[] = [];
  const plan: {
    to: ('released' | 'picking' | 'packed' | 'shipped' | 'cancelled')[];
    lines: { sku: string; quantity: number }[];
    consignee: string;
    planned: number;
    ref: string;
  }[] = [
    {
      to: ['released', 'picking', 'packed', 'shipped'],
      lines: [line('ACM-CBL-USBC-1M', 120)],
      consignee: 'Mediamarkt DC Venlo',
      planned: -6,
      ref: 'PO-88120',
    },
    {
      to: ['released', 'cancelled'],
      lines: [line('ACM-CHG-20W', 24)],
      consignee: 'Coolblue Tilburg',
      planned: -4,
      ref: 'PO-88131',
    },
    {
      to: ['released', 'picking', 'packed'],
      lines: [line('ACM-CHG-20W', 48), line('ACM-CBL-USBC-1M', 60)],
      consignee: 'Bol.com fulfilment Waalwijk',
      planned: 0,
      ref: 'PO-88140',
    },
    {
      to: ['released', 'picking'],
      lines: [line('ACM-CBL-USBC-1M', 200)],
      consignee: 'Alternate Benelux, Venlo',
      planned: 1,
      ref: 'PO-88152',
    },
    {
      to: ['released'],
      lines: [line('ACM-CHG-20W', 30)],
      consignee: 'Coolblue Tilburg',
      planned: 2,
      ref: 'PO-88157',
    },
    {
      to: [],
      lines: [line('ACM-CBL-USBC-1M', 40)],
      consignee: 'Mediamarkt DC Venlo',
      planned: 5,
      ref: 'PO-88163',
    },
  ];
  for (const p of plan) {
    let s = await create(admin, {
      ownerId: acme,
      consigneeName: p.consignee,
      deliveryAddress: `${p.consignee}, Netherlands`,
      plannedDate: dayOf(ctx, p.planned),
      customerReference: p.ref,
      lines: p.lines,
    });
    for (const to of p.to)
      s = await go(s.id, to, to === 'cancelled' ? 'The customer moved the order to next month' : undefined);
    // Being picked: the first of its allocations is already confirmed picked, the rest still to fetch.
    const first = s.lines[0]?.allocations[0];
    if (s.status === 'picking' && first)
      s = await shipments.picks(admin, s.id, { allocationIds: [first.id], picked: true, version: s.version });
    out.push({ status: s.status, id: s.id, number: s.number });
  }
  // Ordered by Acme itself from its own stock: a draft staff will release.
  const ordered = await create(acmeUser, {
    consigneeName: 'Acme retail store Utrecht',
    deliveryAddress: 'Oudegracht 112, 3511 AZ Utrecht, Netherlands',
    plannedDate: dayOf(ctx, 3),
    customerReference: 'ACME-REPL-0412',
    lines: [line('ACM-CHG-20W', 12)],
  });
  out.push({ status: ordered.status, id: ordered.id, number: ordered.number });

  // Non-Union goods that left under a release for free circulation (4071): released (reserving
  // the entry's stock), the outbound declaration made from it, answered by the sandbox, then shipped.
  let declared: { id: string; number: string; mrn: string } | null = null;
  if (entrySku) {
    let s = await create(admin, {
      ownerId: acme,
      consigneeName: 'Acme Trading B.V., Rotterdam',
      deliveryAddress: 'Waalhaven Oostzijde 1, 3087 BM Rotterdam',
      plannedDate: dayOf(ctx, -1),
      outboundProcedure: '4071',
      customerReference: 'ACME-DUTYPAID-07',
      lines: [line(entrySku, 10)],
    });
    s = await go(s.id, 'released');
    s = await shipments.declare(admin, s.id, { version: s.version });
    const declarationId = s.declaration?.id as string;
    // The clerk completes the draft from the H2 entry before lodging, through the declarations
    // service; it must pass the one pre-lodging rule function, as a lodgement through the API would.
    await completeOutboundDraft(ctx, admin, events, declarationId);
    // Dated like the rest of the demo's past: drafted (made and completed) two hours before it was
    // lodged, lodged the day before; every stamp after its creation.
    const lodgedAt = new Date(ctx.now.getTime() - 26 * 3600_000);
    const drafted = new Date(lodgedAt.getTime() - 2 * 3600_000);
    await ctx.db
      .updateTable('declarations')
      .set({ created_at: drafted, updated_at: drafted })
      .where('id', '=', declarationId)
      .execute();
    await sql`
      update audit_log a set at = ${drafted}::timestamptz + make_interval(mins => o.n::int)
      from (select id, row_number() over (order by at, id) as n from audit_log
            where record_kind = 'declaration' and record_id = ${declarationId}) o
      where a.id = o.id`.execute(ctx.db);
    const { mrn } = await answerDemoDraft(ctx, {
      id: declarationId,
      status: 'released',
      lodgedAt,
      serial: 'DEMW00000002',
    });
    for (const to of ['picking', 'packed', 'shipped'] as const) s = await go(s.id, to);
    out.push({ status: s.status, id: s.id, number: s.number });
    declared = { id: s.id, number: s.number, mrn };
  }
  return { shipments: out.length, outboundDeclaration: declared?.mrn ?? null };
}

/**
 * The outbound declaration (4071) a shipment made, completed from its H2 entry as a clerk would before
 * lodging: parties, office, countries, exchange rate, the invoice total as the sum of the items' prices,
 * packages, and each item's customs value (its price at the entry's rate plus freight and insurance,
 * as the demo's other imports), duty and VAT rates. Fails the seed if the one pre-lodging rule function
 * still finds anything.
 */
async function completeOutboundDraft(
  ctx: DemoContext,
  admin: SessionUser,
  events: RecordEvents,
  id: string,
): Promise<void> {
  const entryId = ctx.warehouseEntry?.id;
  const entry = entryId ? await loadDeclaration(ctx.db, entryId) : undefined;
  const draft = await loadDeclaration(ctx.db, id);
  if (!entry || !draft)
    throw new Error('demo company: the outbound declaration has no H2 entry to complete it from');
  const currency = draft.currency ?? entry.currency ?? 'EUR';
  // Released today: converted at this month's customs rate, not the entry's (UCC art. 53).
  const rate = currency === 'EUR' ? '1' : await customsRateOf(ctx.db, currency, customsMonthOf(ctx.now));
  if (!rate) throw new Error(`demo company: no customs rate for ${currency} this month`);
  const items = draft.items.map(({ id: _id, position: _p, estimate: _e, ...item }, i) => {
    if (!item.invoiceValue) throw new Error(`demo company: outbound item ${i + 1} has no price`);
    const customsValue = multiplyDecimal(multiplyDecimal(item.invoiceValue, rate, 6), '1.045', 2);
    const from = entry.items.find((x) => x.commodityCode === item.commodityCode);
    return {
      ...item,
      packageKind: 'PK' as const,
      packages: 1,
      customsValue,
      statisticalValue: customsValue,
      dutyRate: from?.dutyRate ?? '0',
      vatRate: '21',
      supportingDocuments: item.supportingDocuments as { type: 'N380'; reference: string }[],
      previousDocuments: item.previousDocuments as { type: 'MRN'; reference: string }[],
    };
  });
  const party = (p: typeof entry.declarant) =>
    p
      ? {
          partyId: p.partyId,
          name: p.name,
          street: p.street,
          postalCode: p.postalCode,
          city: p.city,
          countryCode: p.countryCode,
          eori: p.eori,
        }
      : null;
  const declarations = declarationsService(ctx.db, { events, gateway: noCustomsGateway });
  const done = await declarations.update(
    admin,
    id,
    valid(
      declarationUpdateSchema,
      {
        version: draft.version,
        declarant: party(entry.declarant),
        representative: party(entry.representative),
        representativeStatus: entry.representativeStatus,
        consignor: party(entry.consignor),
        consignee: party(entry.consignee),
        officeOfLodgement: entry.officeOfLodgement,
        countryOfDispatch: entry.countryOfDispatch,
        countryOfDestination: 'NL',
        currency,
        exchangeRate: currency === 'EUR' ? null : rate,
        invoiceTotal: sumDecimal(items.map((i) => i.invoiceValue as string)),
        // Duties and VAT due as the goods leave the warehouse, by electronic credit transfer (DE 4/8 H).
        methodOfPayment: 'H',
        locationOfGoods: entry.locationOfGoods,
        locationOfGoodsType: entry.locationOfGoodsType,
        locationOfGoodsQualifier: entry.locationOfGoodsQualifier,
        items,
      },
      'outbound declaration',
    ),
  );
  const problems = lodgingProblems(done, await lodgingContextOf(ctx.db, done));
  if (problems.length)
    throw new Error(
      `demo company: outbound declaration ${done.lrn}: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
    );
}
