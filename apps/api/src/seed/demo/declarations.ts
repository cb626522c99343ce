import {
  cbamCategoryOf,
  customsValueBuildUp,
  type DeclarationCreate,
  type DeclarationCreateParsed,
  type DeclarationMessageKind,
  type DeclarationParty,
  type DeclarationStatus,
  type DeclarationType,
  type DocumentType,
  declarationCreateSchema,
  declarationTotals,
  makeMrn,
  mrnProblem,
  multiplyDecimal,
  sumDecimal,
  supplementaryUnitOf,
  transitAmountAtStake,
} from '@fvg/contracts';
import { takeSeriesNumber } from '../../features/company/company.service.ts';
import { customsMonthOf } from '../../features/company/customs-rates.ts';
import {
  headerValues,
  loadDeclaration,
  storedItems,
} from '../../features/declarations/declarations.repository.ts';
import { labelled, summaries } from '../../features/declarations/sandbox/messages.ts';
import { SANDBOX_MRN_LETTER } from '../../features/declarations/sandbox/mrn.ts';
import type { SandboxRule } from '../../features/declarations/sandbox/sandbox-rules.ts';
import { envelopeOf, ie015 } from '../../ncts/ie015.ts';
import type { Change } from '../../records/audit.ts';
import { DEMO_COMPANY_FIELDS, demoCustomsRate } from './company.ts';
import {
  audit,
  type DemoContext,
  type DemoDossier,
  dayOf,
  daysBetween,
  notAfterNow,
  valid,
} from './context.ts';
import { type DemoPaper, storePapers } from './documents.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** One goods item as the clerk typed it (the contract's item input; estimates are computed). */
interface Goods {
  commodityCode: string;
  description: string;
  countryOfOrigin: string;
  packages: number;
  packageKind: 'CT' | 'PX' | 'CR' | 'PK' | 'CS';
  grossMassKg: string;
  netMassKg: string;
  /** In the declaration's currency. */
  invoiceValue: string;
  dutyRate?: string;
  /** DE 6/2, for a CN code that asks for a supplementary unit: how many per package (1 when not said). */
  perPackage?: number;
}

/**
 * What each demo lane ships, by a word of its cargo: Combined Nomenclature / TARIC codes of the goods
 * named, with their third-country duty rates (import only), masses and values that fit a container,
 * a ULD or a trailer.
 */
const GOODS: { match: RegExp; items: Goods[] }[] = [
  {
    match: /LED lighting/i,
    items: [
      {
        ...g('8539520000', 'LED lamps, E27 fitting, 9 W', 'CN', 420, 'CT', '5460', '4830', '18900.00', '2.7'),
        perPackage: 24,
      },
      g(
        '8504409590',
        'LED drivers (static converters), 40 W',
        'CN',
        180,
        'CT',
        '2160',
        '1910',
        '9350.00',
        '0',
      ),
      g(
        '9405420039',
        'LED luminaires for ceilings, aluminium',
        'CN',
        96,
        'CT',
        '1630',
        '1420',
        '14550.00',
        '4.7',
      ),
    ],
  },
  {
    match: /garden furniture/i,
    items: [
      g(
        '9401790000',
        'Garden chairs with aluminium frames, flat-packed',
        'CN',
        640,
        'CT',
        '7680',
        '6990',
        '21760.00',
        '0',
      ),
      g('9403200080', 'Garden tables, aluminium', 'CN', 160, 'CT', '4320', '3950', '12480.00', '0'),
      // Aluminium profiles are goods under CBAM (Regulation (EU) 2023/956, Annex I): the import cites
      // Acme's CBAM account number.
      g(
        '7604291000',
        'Aluminium profiles, spare legs for the garden tables',
        'CN',
        40,
        'CT',
        '980',
        '940',
        '3150.00',
        '7.5',
      ),
    ],
  },
  {
    match: /Smartphone accessories/i,
    items: [
      g(
        '8504403090',
        'USB-C chargers for mobile phones, 20 W',
        'CN',
        60,
        'CT',
        '410',
        '355',
        '12600.00',
        '0',
      ),
      g(
        '8544429090',
        'USB-C charging cables, 1 m, with connectors',
        'CN',
        40,
        'CT',
        '286',
        '240',
        '4180.00',
        '2.6',
      ),
    ],
  },
  {
    match: /E-bike/i,
    items: [
      g(
        '8714910000',
        'Bicycle frames, aluminium, for e-bikes',
        'CN',
        24,
        'PX',
        '3120',
        '2780',
        '38400.00',
        '4.7',
      ),
      g(
        '8507600090',
        'Lithium-ion battery packs for e-bikes, 36 V',
        'CN',
        12,
        'PX',
        '2240',
        '1980',
        '52800.00',
        '2.7',
      ),
      g('8501310000', 'Hub motors for e-bikes, 250 W', 'CN', 8, 'PX', '1180', '1050', '16200.00', '2.7'),
      g('8714940000', 'Disc brakes and parts for bicycles', 'CN', 4, 'PX', '460', '410', '5300.00', '4.7'),
    ],
  },
  {
    match: /centrifugal pumps/i,
    items: [
      g(
        '8413708100',
        'Single-stage centrifugal pumps, cast iron, 55 kW',
        'DE',
        12,
        'CR',
        '7400',
        '6800',
        '148800.00',
      ),
      g(
        '8413910000',
        'Spare impellers and seals for centrifugal pumps',
        'DE',
        4,
        'CR',
        '640',
        '590',
        '12400.00',
      ),
    ],
  },
  {
    match: /Printing machinery/i,
    items: [
      g(
        '8443990000',
        'Parts of offset printing machines (rollers, grippers)',
        'DE',
        18,
        'CR',
        '5260',
        '4870',
        '86300.00',
      ),
    ],
  },
  {
    match: /Pump control/i,
    items: [
      g('9032890000', 'Electronic pump control units', 'DE', 14, 'PK', '392', '336', '64400.00'),
      g('8537109890', 'Control panels for pump stations', 'DE', 2, 'CS', '260', '224', '18600.00'),
    ],
  },
  {
    match: /Automotive/i,
    items: [
      g(
        '8708999790',
        'Parts of motor vehicles (brackets, mountings)',
        'DE',
        10,
        'PX',
        '4120',
        '3790',
        '27350.00',
      ),
      g('8708301099', 'Brake discs for passenger cars', 'DE', 6, 'PX', '3360', '3120', '19800.00'),
      g('8708809990', 'Shock absorbers for passenger cars', 'DE', 4, 'PX', '1460', '1320', '15200.00'),
    ],
  },
  {
    match: /compressors/i,
    items: [
      g('8414802200', 'Screw air compressors, 7.5 bar', 'DE', 6, 'CR', '8650', '7900', '93600.00'),
      g('8414909000', 'Parts of air compressors', 'DE', 3, 'CR', '480', '430', '7150.00'),
    ],
  },
  {
    match: /T1 transit|Machine parts/i,
    items: [
      g('8466940000', 'Parts of metal-forming machine tools', 'US', 8, 'PX', '5820', '5400', '61200.00'),
      g('8481809990', 'Industrial valves, stainless steel', 'US', 3, 'PX', '1320', '1190', '14800.00'),
    ],
  },
];

function g(
  commodityCode: string,
  description: string,
  countryOfOrigin: string,
  packages: number,
  packageKind: Goods['packageKind'],
  grossMassKg: string,
  netMassKg: string,
  invoiceValue: string,
  dutyRate?: string,
): Goods {
  return {
    commodityCode,
    description,
    countryOfOrigin,
    packages,
    packageKind,
    grossMassKg,
    netMassKg,
    invoiceValue,
    ...(dutyRate ? { dutyRate } : {}),
  };
}

/** Customs offices the lanes use (COL references, country prefix + 6). */
const OFFICE = {
  rotterdam: 'NL000396',
  schiphol: 'NL000854',
  duisburg: 'DE002652',
  hamburg: 'DE004851',
  frankfurtAirport: 'DE003456',
  praha: 'CZ590201',
} as const;

/** The life of one demo declaration: where it got to, and when it was lodged. */
interface Plan {
  type: DeclarationType;
  status: DeclarationStatus;
  dossier: DemoDossier;
  /** Days before today it was lodged (drafts: drafted). */
  daysAgo: number;
  /** Released only after a control (import, export). */
  controlled?: boolean;
  /** Lodged before the goods were presented: the authority rejects it (SBX-R501), as only it can know. */
  notPresented?: boolean;
  /** Transit: the export MRN its goods left under (N830). */
  exportMrn?: string;
  /** Import: H2, the entry of the goods into the customs warehouse (procedure 7100, duties suspended). */
  warehouseEntry?: boolean;
}

/** The customs warehouse the demo's H2 entry names (the locations' first segment, see warehouse.ts). */
export const DEMO_WAREHOUSE = 'RTM1';

/** The statuses each type's demo declarations are in, most advanced on the oldest dossier. */
const IMPORT_STATES: { status: DeclarationStatus; controlled?: boolean; notPresented?: boolean }[] = [
  { status: 'released', controlled: true },
  { status: 'released' },
  { status: 'rejected', notPresented: true },
  // Controlled and refused release: what the clerk does next (re-export, abandonment, a new
  // declaration) is the screen's to say, and the dashboard counts it as awaiting action.
  { status: 'not_released', controlled: true },
  { status: 'under_control' },
  { status: 'accepted' },
  { status: 'draft' },
];
const EXPORT_STATES: { status: DeclarationStatus; controlled?: boolean }[] = [
  { status: 'exited' },
  { status: 'exited', controlled: true },
  { status: 'released' },
  // Globex's own "awaiting action" on the dashboard: its customers see no drafts.
  { status: 'under_control' },
  { status: 'accepted' },
  { status: 'draft' },
];
const TRANSIT_STATES: DeclarationStatus[] = ['discharged', 'arrived'];

/** Days between lodging and today per state, so each answer has come by now (rejected: a day ago). */
const DAYS_AGO: Partial<Record<DeclarationStatus, number>> = {
  discharged: 9,
  exited: 12,
  arrived: 2,
  released: 6,
  rejected: 1,
  not_released: 3,
  under_control: 1,
  accepted: 0,
  draft: 0,
};

const party = (
  fields: { name: string; street?: string | null; postalCode?: string | null; city?: string | null },
  countryCode: string | null,
  eori: string | null,
  partyId: string | null,
): DeclarationParty => ({
  partyId,
  name: fields.name,
  street: fields.street ?? null,
  postalCode: fields.postalCode ?? null,
  city: fields.city ?? null,
  countryCode,
  eori,
});

/**
 * Customs declarations of the demo company, linked to its dossiers: imports for Acme's import files,
 * exports for Globex's, a transit on Globex's T1 lane, in every state of the lifecycle the sandbox
 * reaches (draft, accepted, under control, released, rejected with its rule, exited, arrived,
 * discharged), each with its items, its message log (lodged and the authority's answers, dated back
 * from today, summaries as the sandbox writes them), its history and a paper or two. Written straight
 * in SQL for speed; the content passes the API's create schema, the estimates and totals are the
 * rules' `itemEstimate`/`declarationTotals`, MRNs the rules' `makeMrn` with a serial range of the demo's
 * own (so MRNs the sandbox allocates later never collide), LRNs the series' (so the next new one follows).
 * The chains do not go on by themselves: no sandbox job is queued for them.
 */
export async function seedDeclarations(ctx: DemoContext) {
  // The national part of the demo's MRNs: `DEMO` and a counter, a range of its own, so an MRN the
  // sandbox allocates later (`SBX` and its sequence) never collides with one of these.
  let serial = 0;
  const nextSerial = () => `DEMO${String(++serial).padStart(8, '0')}`;
  const active = (type: string) =>
    ctx.dossiers
      .filter((d) => d.type === type && !['requested', 'cancelled'].includes(d.status))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const plans: Plan[] = [];
  const spread = <S extends { status: DeclarationStatus }>(type: DeclarationType, states: S[]) => {
    const ds = active(type);
    if (ds.length === 0) return;
    states.forEach((s, i) => {
      plans.push({
        ...s,
        type,
        dossier: ds[i % ds.length] as DemoDossier,
        daysAgo: (DAYS_AGO[s.status] ?? 0) + (i % 3),
      });
    });
  };
  spread('import', IMPORT_STATES);
  spread('export', EXPORT_STATES);
  spread(
    'transit',
    TRANSIT_STATES.map((status) => ({ status })),
  );
  // The goods of Acme's oldest arrived import went into the customs warehouse instead (warehouse.ts
  // receives them under this entry's MRN).
  // One that arrived and has no declaration of its own yet, if there is such a one.
  const arrived = active('import').filter(
    (d) => d.customer === 'ACME' && ['arrived', 'cleared', 'delivered', 'closed'].includes(d.status),
  );
  const entryDossier = arrived.find((d) => !plans.some((p) => p.dossier.id === d.id)) ?? arrived[0];
  if (entryDossier)
    plans.push({
      type: 'import',
      status: 'released',
      dossier: entryDossier,
      // Lodged the day the goods arrived (at least a week ago: the warehouse has shipped some since).
      daysAgo: Math.max(7, daysBetween(entryDossier.eta, dayOf(ctx, 0))),
      warehouseEntry: true,
    });

  // Oldest first: LRNs in the order the drafts were made, MRNs in the order of acceptance, and the
  // transit can cite an export that was accepted before it.
  const made = plans
    .map((plan) => ({ plan, createdAt: notAfterNow(ctx, at(ctx, plan.daysAgo + 1, 15)) }))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const exportMrns: string[] = [];
  const rows: Awaited<ReturnType<typeof insertOne>>[] = [];
  for (const m of made) {
    if (m.plan.type === 'transit') m.plan.exportMrn = exportMrns[0];
    const lrn = (await takeSeriesNumber(ctx.db, 'declaration', m.createdAt.getUTCFullYear())).number;
    const row = await insertOne(ctx, m.plan, lrn, m.createdAt, nextSerial);
    if (m.plan.type === 'export' && row.mrn) exportMrns.push(row.mrn);
    if (m.plan.warehouseEntry && row.mrn)
      ctx.warehouseEntry = { id: row.id, lrn: row.lrn, mrn: row.mrn, dossierId: m.plan.dossier.id };
    rows.push(row);
  }

  const papers: DemoPaper[] = rows.flatMap((r) =>
    papersOf(r).map((p, k) => ({
      ...p,
      record: { type: 'declaration' as const, id: r.id },
      dossierId: r.plan.dossier.id,
      fileStem: r.lrn,
      text: `${p.title} - ${r.lrn} - ${r.plan.dossier.number}`,
      uploadedAt: notAfterNow(ctx, new Date(r.createdAt.getTime() + (k + 1) * 20 * MINUTE)),
      actor: ctx.users.staff,
    })),
  );
  const documents = await storePapers(ctx, papers);
  const messages = rows.reduce((n, r) => n + r.messages, 0);
  return { declarations: rows.length, messages, documents: documents.documents };
}

/** When a plan's declaration went to customs (null for a draft). */
function lodgedAtOf(ctx: DemoContext, plan: Plan): Date | null {
  return plan.status === 'draft' ? null : notAfterNow(ctx, at(ctx, plan.daysAgo, 9, 10));
}

/** An instant `daysAgo` days before today at hh:mm UTC. */
function at(ctx: DemoContext, daysAgo: number, hour: number, minute = 0): Date {
  return new Date(ctx.today.getTime() - daysAgo * DAY + hour * HOUR + minute * MINUTE);
}

/** The papers a declaration carries: the invoice it cites, and the authority's proof once there. */
function papersOf(r: { plan: Plan; status: DeclarationStatus }) {
  const out: { type: DocumentType; title: string; visible: boolean }[] = [];
  if (r.plan.type !== 'transit')
    out.push({ type: 'commercial_invoice', title: 'Commercial invoice', visible: true });
  if (r.plan.type === 'import' && r.status === 'released')
    out.push({ type: 'release_note', title: 'Release note', visible: true });
  if (r.plan.type === 'export' && ['released', 'exited'].includes(r.status))
    out.push({ type: 'export_accompanying_document', title: 'Export accompanying document', visible: true });
  if (r.plan.type === 'transit')
    out.push({ type: 'transit_document', title: 'Transit accompanying document', visible: true });
  return out;
}

const round2 = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

/** DE 6/2: the quantity in the CN code's supplementary unit, when it has one (null otherwise). */
function unitsOf(x: Goods, commodityCode = x.commodityCode): string | null {
  return supplementaryUnitOf(commodityCode) ? String(x.packages * (x.perPackage ?? 1)) : null;
}

/** Acme's account in the CBAM registry, as an authorised CBAM declarant (TARIC document Y128). */
const ACME_CBAM_ACCOUNT = 'CBAM-NL-2026-ACM00000000017';

/** The forwarder's authorisations the demo's declarations cite (DE 2/3). */
const AUTHORISATION = {
  /** Authorised consignor at the Waalhaven cross-dock: transits start there. */
  consignor: 'NLC521RTM0042',
  /** Use of seals of a special type. */
  seals: 'NLC523RTM0042',
  /** The customs warehouse RTM1 (private, type C517). */
  warehouse: 'NLC517RTM1000017',
} as const;

/** The content a clerk would have entered for this plan, as the create schema takes it. */
function contentOf(ctx: DemoContext, plan: Plan): DeclarationCreate {
  const d = plan.dossier;
  const goods = (GOODS.find((x) => x.match.test(d.cargo)) ?? (GOODS.at(-1) as (typeof GOODS)[number])).items;
  const company = party(
    { ...DEMO_COMPANY_FIELDS, name: DEMO_COMPANY_FIELDS.legalName },
    DEMO_COMPANY_FIELDS.countryCode,
    DEMO_COMPANY_FIELDS.eori,
    null,
  );
  const acme = party(
    { name: 'Acme Trading B.V.', street: 'Waalhaven Oostzijde 1', postalCode: '3087 BM', city: 'Rotterdam' },
    'NL',
    'NL123456789',
    ctx.parties.ACME ?? null,
  );
  const globex = party(
    { name: 'Globex GmbH', street: 'Am Sandtorkai 5', postalCode: '20457', city: 'Hamburg' },
    'DE',
    'DE1234567890123',
    ctx.parties.GLOBEX ?? null,
  );
  const mode = ({ sea: '1', rail: '2', road: '3', air: '4', multimodal: '1' } as const)[
    d.mode as 'sea' | 'rail' | 'road' | 'air' | 'multimodal'
  ];
  const containers = d.containers.map((c) => c.number);
  const means =
    d.vessel?.name ?? (d.mode === 'air' ? 'CA1043' : d.mode === 'rail' ? 'DBC 45812' : 'NL-38-BXT');
  const supporting = [{ type: 'N380' as const, reference: `INV-${d.customerReference}` }];
  const common = {
    type: plan.type,
    dossierId: d.id,
    customerId: d.customerId,
    transportModeBorder: mode,
    transportModeInland: plan.type === 'import' ? '3' : mode,
    meansAtDeparture: means,
    meansAtBorder: means,
    containerIndicator: containers.length > 0,
    notes: plan.status === 'draft' ? 'Waiting for the supplier’s final packing list before lodging.' : null,
  } as const;

  if (plan.type === 'import') {
    // USD invoices at the company's customs rate of the month of lodging (UCC art. 53; a draft: this
    // month's); customs value = invoice value in EUR plus the freight share to the border.
    const rate = demoCustomsRate('USD', customsMonthOf(lodgedAtOf(ctx, plan) ?? ctx.now));
    const airport = d.mode === 'air';
    const inland = d.destination === 'DEDUI';
    const entry = plan.warehouseEntry === true;
    // The customs value built from the invoice (UCC art. 70–72): each price at the rate, plus its share
    // by value of the sea or air freight and insurance to the border (4.5 % of the goods' value).
    const freight = multiplyDecimal(
      sumDecimal(goods.map((x) => multiplyDecimal(x.invoiceValue, rate, 2))),
      '0.045',
      2,
    );
    const builtUp = customsValueBuildUp(goods, rate, { additionTransportInsurance: freight }, 'value');
    if (!builtUp) throw new Error(`demo company: no customs value build-up for ${d.number}`);
    const items = goods.map((x, i) => {
      const customsValue = (builtUp[i] as { customsValue: string }).customsValue;
      return {
        commodityCode: x.commodityCode,
        description: x.description,
        countryOfOrigin: x.countryOfOrigin,
        preference: '100',
        // Customs warehousing suspends duty and VAT: nothing is estimated until the goods leave it.
        procedureCode: entry ? '7100' : '4000',
        additionalProcedureCodes: ['000'],
        // The transaction value (DE 4/16 1): the invoice price plus the freight to the border.
        valuationMethod: '1' as const,
        supplementaryUnits: unitsOf(x),
        packages: x.packages,
        packageKind: x.packageKind,
        marks: `${d.customerReference}/${i + 1}`,
        grossMassKg: x.grossMassKg,
        netMassKg: x.netMassKg,
        invoiceValue: x.invoiceValue,
        customsValue,
        statisticalValue: customsValue,
        ...(entry
          ? {}
          : {
              dutyRate: x.dutyRate ?? '0',
              vatRate: inland ? '19' : '21',
              vatCosts: round2(Number(customsValue) * 0.008),
            }),
        containers: i === 0 ? containers : [],
        supportingDocuments: cbamCategoryOf(x.commodityCode)
          ? [...supporting, { type: 'Y128' as const, reference: ACME_CBAM_ACCOUNT }]
          : supporting,
        previousDocuments: [
          { type: 'N337' as const, reference: `${d.masterBl ?? d.bookingNumber ?? d.number}` },
        ],
      };
    });
    const sum = items.reduce((s, x) => s + Number(x.invoiceValue), 0);
    return {
      ...common,
      ...(entry
        ? {
            category: 'H2' as const,
            warehouseReference: DEMO_WAREHOUSE,
            authorisations: [{ type: 'C517' as const, reference: AUTHORISATION.warehouse }],
            notes: 'Into the customs warehouse RTM1: Acme sells from stock, duties paid as the goods leave.',
          }
        : // Acme's duties and VAT go by electronic credit transfer (DE 4/8 H).
          { methodOfPayment: 'H' as const }),
      additionTransportInsurance: freight,
      apportionment: 'value',
      declarant: acme,
      representative: company,
      representativeStatus: '2',
      consignee: acme,
      consignor: party(
        {
          name: d.origin.startsWith('CNNGB')
            ? 'Ningbo Garden Furniture Manufacturing Co.'
            : 'Shenzhen Bright Electronics Co., Ltd.',
        },
        'CN',
        null,
        null,
      ),
      officeOfLodgement: airport ? OFFICE.schiphol : inland ? OFFICE.duisburg : OFFICE.rotterdam,
      officeOfExitEntry: airport ? OFFICE.schiphol : inland ? OFFICE.duisburg : OFFICE.rotterdam,
      countryOfDispatch: 'CN',
      countryOfDestination: inland ? 'DE' : 'NL',
      meansAtDepartureCountry: null,
      // FOB is a sea term (Incoterms 2020): other modes are sold FCA at the same place.
      incoterm: mode === '1' ? 'FOB' : 'FCA',
      incotermPlace: d.origin === 'CNNGB' ? 'Ningbo' : 'Shanghai',
      natureOfTransaction: '11',
      currency: 'USD',
      invoiceTotal: round2(sum),
      exchangeRate: rate,
      // DE 5/23: the warehouse by its authorisation; the terminals, temporary storage facilities
      // customs approved, by their address.
      ...(entry
        ? {
            locationOfGoods: AUTHORISATION.warehouse,
            locationOfGoodsType: 'C',
            locationOfGoodsQualifier: 'Y',
          }
        : {
            locationOfGoods: airport
              ? 'NLAMS Schiphol cargo, KLM warehouse'
              : inland
                ? 'DEDUI logport, Duisburg Intermodal Terminal'
                : 'NLRTM ECT Delta terminal, Maasvlakte',
            locationOfGoodsType: 'C',
            locationOfGoodsQualifier: 'Z',
          }),
      items,
    };
  }

  if (plan.type === 'export') {
    const airport = d.mode === 'air';
    const road = d.mode === 'road';
    const destination = d.destination.slice(0, 2);
    const items = goods.map((x, i) => ({
      commodityCode: x.commodityCode,
      description: x.description,
      countryOfOrigin: 'DE',
      procedureCode: '1000',
      additionalProcedureCodes: ['000'],
      supplementaryUnits: unitsOf(x),
      packages: x.packages,
      packageKind: x.packageKind,
      marks: `GLOBEX ${d.customerReference}/${i + 1}`,
      grossMassKg: x.grossMassKg,
      netMassKg: x.netMassKg,
      invoiceValue: x.invoiceValue,
      customsValue: x.invoiceValue,
      statisticalValue: x.invoiceValue,
      containers: i === 0 ? containers : [],
      supportingDocuments: supporting,
    }));
    return {
      ...common,
      declarant: globex,
      representative: company,
      representativeStatus: '2',
      consignor: globex,
      consignee: party(
        {
          name:
            destination === 'US'
              ? 'Midwest Pump Distributors Inc.'
              : destination === 'GB'
                ? 'Brit Auto Parts Ltd'
                : 'Consignee on file',
        },
        destination,
        null,
        null,
      ),
      officeOfLodgement: OFFICE.hamburg,
      officeOfExitEntry: airport ? OFFICE.frankfurtAirport : road ? OFFICE.rotterdam : OFFICE.hamburg,
      countryOfDispatch: 'DE',
      countryOfDestination: destination,
      // CIF is a sea term (Incoterms 2020): other modes are sold CIP to the same place.
      incoterm: mode === '1' ? 'CIF' : 'CIP',
      incotermPlace: d.destination,
      natureOfTransaction: '11',
      currency: 'EUR',
      invoiceTotal: round2(items.reduce((s, x) => s + Number(x.invoiceValue), 0)),
      locationOfGoods: airport ? 'DEFRA Frankfurt cargo city south' : 'DEHAM Container Terminal Burchardkai',
      locationOfGoodsType: 'C',
      locationOfGoodsQualifier: 'Z',
      items,
    };
  }

  // Transit: the goods exported (N830) travel under T1 from Rotterdam to Praha.
  const items = goods.map((x, i) => ({
    commodityCode: x.commodityCode.slice(0, 8),
    description: x.description,
    packages: x.packages,
    packageKind: x.packageKind,
    marks: `T1 ${d.customerReference}/${i + 1}`,
    grossMassKg: x.grossMassKg,
    netMassKg: x.netMassKg,
    // What the guarantee covers is computed from these: the goods' value and the highest duty and
    // VAT rates of the country of departure (IA art. 148).
    customsValue: round2(Number(x.invoiceValue) * 1.03),
    dutyRate: x.dutyRate ?? '0',
    vatRate: '21',
    containers: i === 0 ? containers : [],
    previousDocuments: plan.exportMrn ? [{ type: 'N830' as const, reference: plan.exportMrn }] : [],
  }));
  // The amount to be covered: the duties and taxes at stake, rounded up to the next 100 EUR.
  const atStake = Number(transitAmountAtStake(items) ?? '0');
  return {
    ...common,
    category: 'T1',
    declarant: company,
    representativeStatus: '1',
    holder: company,
    consignor: globex,
    consignee: party({ name: 'Praha Strojírny s.r.o.', city: 'Praha' }, 'CZ', null, null),
    officeOfLodgement: OFFICE.rotterdam,
    officeOfDestination: OFFICE.praha,
    countryOfDispatch: 'NL',
    countryOfDestination: 'CZ',
    meansAtDepartureCountry: 'NL',
    meansAtBorderCountry: 'NL',
    // FVG loads at its cross-dock as authorised consignor, under its own seals; the goods are due in
    // Praha within 8 days of lodging (the limit date).
    locationOfGoods: AUTHORISATION.consignor,
    locationOfGoodsType: 'B',
    locationOfGoodsQualifier: 'Y',
    authorisations: [
      { type: 'C521', reference: AUTHORISATION.consignor },
      { type: 'C523', reference: AUTHORISATION.seals },
    ],
    seals: containers.length
      ? containers.map((container, i) => ({
          identifier: `FVG${String(427100 + plan.daysAgo * 10 + i)}`,
          container,
        }))
      : [{ identifier: `FVG${String(427100 + plan.daysAgo * 10)}`, container: null }],
    limitDate: at(ctx, plan.daysAgo - 8, 12)
      .toISOString()
      .slice(0, 10),
    guaranteeType: '1',
    guaranteeReference: `26NL00000${String(plan.daysAgo).padStart(2, '0')}000427`,
    guaranteeAmount: (Math.ceil(atStake / 100) * 100).toFixed(2),
    items,
  };
}

/** The messages of a lodged declaration up to its status, each a number of minutes after lodging. */
function chainOf(
  plan: Pick<Plan, 'status' | 'controlled'>,
): { kind: DeclarationMessageKind; step: string; after: number; to: DeclarationStatus }[] {
  const s = plan.status;
  if (s === 'draft') return [];
  if (s === 'rejected') return [{ kind: 'rejected', step: 'accept', after: 3, to: 'rejected' }];
  const out: { kind: DeclarationMessageKind; step: string; after: number; to: DeclarationStatus }[] = [
    { kind: 'accepted', step: 'accept', after: 3, to: 'accepted' },
  ];
  if (s === 'accepted') return out;
  const controlled = s === 'under_control' || plan.controlled === true;
  if (controlled) out.push({ kind: 'under_control', step: 'control', after: 20, to: 'under_control' });
  if (s === 'under_control') return out;
  if (s === 'not_released') {
    out.push({ kind: 'not_released', step: 'release', after: 26 * 60, to: 'not_released' });
    return out;
  }
  out.push({
    kind: 'released',
    step: controlled ? 'release' : 'control',
    after: controlled ? 26 * 60 : 25,
    to: 'released',
  });
  if (s === 'exited') out.push({ kind: 'exit_confirmed', step: 'exit', after: 4 * 24 * 60, to: 'exited' });
  if (s === 'arrived' || s === 'discharged')
    out.push({ kind: 'arrived', step: 'arrival', after: 30 * 60, to: 'arrived' });
  if (s === 'discharged')
    out.push({ kind: 'discharged', step: 'discharge', after: 33 * 60, to: 'discharged' });
  return out;
}

const STAMP: Partial<Record<DeclarationStatus, string>> = {
  accepted: 'accepted_at',
  released: 'released_at',
  exited: 'exited_at',
  arrived: 'arrived_at',
  discharged: 'discharged_at',
};
const AUDIT_ACTION: Partial<Record<DeclarationMessageKind, string>> = {
  accepted: 'accepted',
  rejected: 'rejected',
  under_control: 'selected for control',
  released: 'released',
  not_released: 'not released',
  exit_confirmed: 'exit confirmed',
  arrived: 'arrived',
  discharged: 'discharged',
};

/** The header fields of a create body (what headerValues writes): without the create-only keys. */
function withoutContentKeys(input: DeclarationCreateParsed) {
  const {
    type: _t,
    category: _c,
    dossierId: _d,
    customerId: _cu,
    copyOf: _co,
    shipmentId: _s,
    lrn: _l,
    items: _i,
    ...header
  } = input;
  return header;
}

async function insertOne(
  ctx: DemoContext,
  plan: Plan,
  lrn: string,
  createdAt: Date,
  nextSerial: () => string,
) {
  const input = valid(declarationCreateSchema, contentOf(ctx, plan), `declaration ${lrn}`);
  const items = input.items ?? [];
  // The header's totals as the API keeps them (declarationTotals over the items).
  const totals = declarationTotals(
    plan.type,
    items.map((item) => ({
      packages: item.packages ?? null,
      grossMassKg: item.grossMassKg ?? null,
      netMassKg: item.netMassKg ?? null,
      invoiceValue: item.invoiceValue ?? null,
      customsValue: item.customsValue ?? null,
      statisticalValue: item.statisticalValue ?? null,
      dutyRate: item.dutyRate ?? null,
      vatRate: item.vatRate ?? null,
      vatCosts: item.vatCosts ?? null,
    })),
  );

  const lodgedAt = lodgedAtOf(ctx, plan);
  const chain = lodgedAt ? chainOf(plan) : [];
  const answers = chain.map((c) => ({
    ...c,
    at: notAfterNow(ctx, new Date((lodgedAt as Date).getTime() + c.after * MINUTE)),
  }));
  let mrn: string | null = null;
  if (answers.some((a) => a.kind === 'accepted')) {
    mrn = makeMrn({
      year: (lodgedAt as Date).getUTCFullYear() % 100,
      country: (input.officeOfLodgement as string).slice(0, 2),
      serial: nextSerial(),
      letter: SANDBOX_MRN_LETTER[plan.type],
    });
    const problem = mrnProblem(mrn, plan.type);
    if (problem) throw new Error(`demo company: MRN ${mrn}: ${problem}`);
  }
  // The content passes every rule that can be decided before lodging (the demo test runs it through
  // lodgingProblems); the rejection is for what only the authority knows (ADR 0047).
  const rules: SandboxRule[] =
    plan.status === 'rejected'
      ? [
          {
            code: 'SBX-R501',
            text: `No presentation of the goods at ${input.locationOfGoods ?? 'the location of goods'} is on record: present them to customs, then lodge again`,
            field: 'locationOfGoods',
          },
        ]
      : [];

  const last = answers.at(-1);
  const lastAt = last?.at ?? lodgedAt ?? createdAt;
  const stamps: Record<string, Date> = {};
  for (const a of answers) {
    const column = STAMP[a.to];
    if (column) stamps[column] = a.at;
  }
  const { id } = await ctx.db
    .insertInto('declarations')
    .values({
      type: plan.type,
      category: input.category ?? (plan.type === 'import' ? 'H1' : plan.type === 'export' ? 'B1' : 'T1'),
      status: plan.status,
      lrn,
      mrn,
      dossier_id: plan.dossier.id,
      customer_id: plan.dossier.customerId,
      // The header as the API writes it (declarations.repository), so a new field reaches the demo too.
      ...(headerValues(withoutContentKeys(input)) as object),
      packages: totals.packages,
      gross_mass_kg: totals.grossMassKg,
      customs_value: totals.customsValue,
      duty: totals.duty,
      vat: totals.vat,
      duty_and_vat: totals.dutyAndVat,
      rejection: JSON.stringify(rules),
      last_message_kind: last?.kind ?? (lodgedAt ? 'lodge' : null),
      last_message_at: lodgedAt ? lastAt : null,
      lodged_at: lodgedAt,
      accepted_at: stamps.accepted_at ?? null,
      released_at: stamps.released_at ?? null,
      exited_at: stamps.exited_at ?? null,
      arrived_at: stamps.arrived_at ?? null,
      discharged_at: stamps.discharged_at ?? null,
      // Created, lodged, then one write per answer.
      version: 1 + (lodgedAt ? 1 : 0) + answers.length,
      created_at: createdAt,
      created_by: ctx.users.staff,
      updated_at: lastAt,
      updated_by: ctx.users.staff,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  if (items.length > 0)
    await ctx.db
      .insertInto('declaration_items')
      .values(storedItems(id, plan.type, items))
      .execute();

  await audit(ctx, {
    kind: 'declaration',
    id,
    action: 'created',
    actorId: ctx.users.staff,
    changes: [
      { field: 'type', from: null, to: plan.type },
      { field: 'lrn', from: null, to: lrn },
      { field: 'dossier', from: null, to: plan.dossier.number },
      { field: 'items', from: null, to: items.length },
    ],
    at: createdAt,
  });
  // A lodged transit went as its IE015 (ADR 0066): stored with the lodgement, as the sandbox stores it.
  const sent = lodgedAt && plan.type === 'transit' ? await loadDeclaration(ctx.db, id) : undefined;
  const messages = lodgedAt
    ? await writeLog(ctx, {
        id,
        type: plan.type,
        lrn,
        items: items.length,
        lodgedAt,
        answers,
        mrn,
        rules,
        officeOfDestination: input.officeOfDestination ?? null,
        ie015: sent ? ie015(sent, envelopeOf(sent, `DEMO${lrn}`, lodgedAt)) : null,
      })
    : 0;
  return { id, lrn, mrn, plan, status: plan.status, createdAt, messages };
}

/** The lodgement and the authority's answers up to the declaration's status, with their history. */
async function writeLog(
  ctx: DemoContext,
  d: {
    id: string;
    type: DeclarationType;
    lrn: string;
    items: number;
    lodgedAt: Date;
    answers: { kind: DeclarationMessageKind; step: string; to: DeclarationStatus; at: Date }[];
    mrn: string | null;
    rules: SandboxRule[];
    officeOfDestination: string | null;
    ie015?: string | null;
  },
): Promise<number> {
  let messages = 0;
  const { id: lodgeId } = await ctx.db
    .insertInto('declaration_messages')
    .values({
      declaration_id: d.id,
      direction: 'sent',
      kind: 'lodge',
      at: d.lodgedAt,
      summary: labelled(summaries.lodge(d.type, d.lrn)),
      mrn: null,
      payload: JSON.stringify({
        lrn: d.lrn,
        type: d.type,
        items: d.items,
        ...(d.ie015 ? { ie015: d.ie015 } : {}),
      }),
      sandbox: true,
      created_by: ctx.users.staff,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  messages++;
  await audit(ctx, {
    kind: 'declaration',
    id: d.id,
    action: 'lodged',
    actorId: ctx.users.staff,
    changes: [{ field: 'status', from: 'draft', to: 'lodged' }],
    at: d.lodgedAt,
  });
  let from: DeclarationStatus = 'lodged';
  for (const a of d.answers) {
    const summary =
      a.kind === 'accepted'
        ? summaries.accepted(d.mrn as string)
        : a.kind === 'rejected'
          ? summaries.rejected(d.rules)
          : a.kind === 'arrived'
            ? summaries.arrived(d.officeOfDestination)
            : summaries[a.kind as 'under_control' | 'released' | 'exit_confirmed' | 'discharged']();
    await ctx.db
      .insertInto('declaration_messages')
      .values({
        declaration_id: d.id,
        direction: 'received',
        kind: a.kind,
        at: a.at,
        summary: labelled(summary),
        mrn: a.kind === 'rejected' ? null : d.mrn,
        rules: JSON.stringify(a.kind === 'rejected' ? d.rules : []),
        payload: JSON.stringify({ inReplyTo: lodgeId, step: a.step }),
        sandbox: true,
        created_by: null,
      })
      .execute();
    messages++;
    const changes: Change[] = [{ field: 'status', from, to: a.to }];
    if (a.kind === 'accepted') changes.push({ field: 'mrn', from: null, to: d.mrn });
    await audit(ctx, {
      kind: 'declaration',
      id: d.id,
      action: AUDIT_ACTION[a.kind] ?? a.kind,
      actorId: null,
      changes,
      at: a.at,
    });
    from = a.to;
  }
  return messages;
}

/**
 * A draft made through the app (the warehouse's outbound declaration) lodged `lodgedAt` and answered
 * up to `status` as the sandbox would have: the same message log and history as the demo's own
 * declarations, an MRN from `serial` (the caller's own range), the status stamps and version.
 */
export async function answerDemoDraft(
  ctx: DemoContext,
  draft: { id: string; status: 'released' | 'exited'; lodgedAt: Date; serial: string },
): Promise<{ mrn: string; answeredAt: Date }> {
  const row = await ctx.db
    .selectFrom('declarations')
    .select(['type', 'lrn', 'office_of_lodgement', 'office_of_destination', 'version'])
    .where('id', '=', draft.id)
    .executeTakeFirstOrThrow();
  const items = await ctx.db
    .selectFrom('declaration_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('declaration_id', '=', draft.id)
    .executeTakeFirstOrThrow();
  const type = row.type as DeclarationType;
  const answers = chainOf({ status: draft.status }).map((c) => ({
    ...c,
    at: notAfterNow(ctx, new Date(draft.lodgedAt.getTime() + c.after * MINUTE)),
  }));
  const mrn = makeMrn({
    year: draft.lodgedAt.getUTCFullYear() % 100,
    country: (row.office_of_lodgement ?? 'NL').slice(0, 2),
    serial: draft.serial,
    letter: SANDBOX_MRN_LETTER[type],
  });
  const problem = mrnProblem(mrn, type);
  if (problem) throw new Error(`demo company: MRN ${mrn}: ${problem}`);
  const stamps: Record<string, Date> = {};
  for (const a of answers) {
    const column = STAMP[a.to];
    if (column) stamps[column] = a.at;
  }
  const last = answers.at(-1) as (typeof answers)[number];
  await ctx.db
    .updateTable('declarations')
    .set({
      status: draft.status,
      mrn,
      lodged_at: draft.lodgedAt,
      accepted_at: stamps.accepted_at ?? null,
      released_at: stamps.released_at ?? null,
      exited_at: stamps.exited_at ?? null,
      last_message_kind: last.kind,
      last_message_at: last.at,
      version: row.version + 1 + answers.length,
      updated_at: last.at,
      updated_by: ctx.users.staff,
    })
    .where('id', '=', draft.id)
    .execute();
  await writeLog(ctx, {
    id: draft.id,
    type,
    lrn: row.lrn,
    items: Number(items.n),
    lodgedAt: draft.lodgedAt,
    answers,
    mrn,
    rules: [],
    officeOfDestination: row.office_of_destination,
  });
  return { mrn, answeredAt: last.at };
}
