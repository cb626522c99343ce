import { sql } from 'kysely';
import type { App } from '../../../app.ts';
import type { SandboxConfig, SandboxStep } from '../../../config.ts';
import { enqueue } from '../../../jobs/jobs.ts';
import { apiCaller, type Json, type TestDatabase, waitUntil } from '../../../test/helpers.ts';

/** Every delay 0 (answers as soon as a worker takes the job) unless named; no control unless asked. */
export function sandbox(
  over: Partial<Omit<SandboxConfig, 'delays'>> & { delays?: Partial<Record<SandboxStep, number>> } = {},
): SandboxConfig {
  return {
    seed: 'tests',
    controlPercent: 0,
    notReleasedPercent: 0,
    ...over,
    delays: {
      accept: 0,
      control: 0,
      release: 0,
      exit: 0,
      arrival: 0,
      discharge: 0,
      answer: 0,
      ...over.delays,
    },
  };
}

/** An hour: a step that should wait until the test makes it due (`hurry`). */
export const LATER = 3600;

const party = (name: string, country: string, eori: string | null) => ({
  name,
  street: 'Main street 1',
  postalCode: '1000',
  city: 'City',
  countryCode: country,
  eori,
});

/** Complete content of a declaration of each type: passes the API's lodging checks and the sandbox's rules. */
export function content(type: 'import' | 'export' | 'transit', customerId: string): Json {
  const common = {
    type,
    customerId,
    declarant: party('FVG Customs BV', 'NL', 'NL123456789'),
    representative: null,
    representativeStatus: '1',
    transportModeBorder: '1',
    transportModeInland: '3',
    meansAtDeparture: 'MAERSK ESSEX',
    meansAtDepartureCountry: 'DK',
    meansAtBorder: 'MAERSK ESSEX',
    meansAtBorderCountry: 'DK',
    containerIndicator: true,
    locationOfGoods: 'NLRTM ECT Delta',
    locationOfGoodsType: 'A',
    locationOfGoodsQualifier: 'Z',
  };
  const item = {
    commodityCode: '84713000',
    description: 'Portable computers',
    packages: 10,
    packageKind: 'CT',
    grossMassKg: '120.000',
    netMassKg: '100.000',
    containers: ['MSKU6011672'],
  };
  if (type === 'import')
    return {
      ...common,
      consignor: party('Shenzhen Electronics Ltd', 'CN', null),
      consignee: party('ACME Trading BV', 'NL', 'NL987654321'),
      officeOfLodgement: 'NL000396',
      officeOfExitEntry: 'NL000396',
      countryOfDispatch: 'CN',
      countryOfDestination: 'NL',
      incoterm: 'CIF',
      incotermPlace: 'Rotterdam',
      natureOfTransaction: '11',
      currency: 'EUR',
      invoiceTotal: '1000.00',
      methodOfPayment: 'H',
      items: [
        {
          ...item,
          countryOfOrigin: 'CN',
          preference: '100',
          procedureCode: '4000',
          additionalProcedureCodes: ['000'],
          valuationMethod: '1',
          // CN 8471: number of items.
          supplementaryUnits: '10',
          invoiceValue: '1000.00',
          customsValue: '1050.00',
          statisticalValue: '1050.00',
          dutyRate: '0',
          vatRate: '21',
          vatCosts: '50.00',
          supportingDocuments: [{ type: 'N380', reference: 'INV-2026-001' }],
        },
      ],
    };
  if (type === 'export')
    return {
      ...common,
      consignor: party('ACME Trading BV', 'NL', 'NL987654321'),
      consignee: party('New York Imports Inc', 'US', null),
      officeOfLodgement: 'NL000396',
      officeOfExitEntry: 'NL000854',
      countryOfDispatch: 'NL',
      countryOfDestination: 'US',
      incoterm: 'FOB',
      incotermPlace: 'Rotterdam',
      natureOfTransaction: '11',
      currency: 'EUR',
      invoiceTotal: '2500.00',
      items: [
        {
          ...item,
          countryOfOrigin: 'NL',
          procedureCode: '1000',
          additionalProcedureCodes: ['000'],
          supplementaryUnits: '10',
          invoiceValue: '2500.00',
          statisticalValue: '2500.00',
          supportingDocuments: [{ type: 'N380', reference: 'INV-2026-002' }],
        },
      ],
    };
  return {
    ...common,
    category: 'T1',
    holder: party('FVG Customs BV', 'NL', 'NL123456789'),
    consignor: party('ACME Trading BV', 'NL', 'NL987654321'),
    consignee: party('Zurich Handels AG', 'CH', null),
    officeOfLodgement: 'NL000396',
    officeOfDestination: 'CH001234',
    officesOfTransit: ['DE004058'],
    countryOfDispatch: 'NL',
    countryOfDestination: 'CH',
    // An authorised consignor's place, named by its authorisation (NCTS carries no free text).
    locationOfGoods: 'NLC521RTM0042',
    locationOfGoodsType: 'B',
    locationOfGoodsQualifier: 'Y',
    authorisations: [{ type: 'C521', reference: 'NLC521RTM0042' }],
    seals: [{ identifier: 'NL-CUS-0045521', container: 'MSKU6011672' }],
    limitDate: '2026-12-15',
    guaranteeType: '1',
    guaranteeReference: '26NL0000000000001',
    guaranteeAmount: '5000.00',
    items: [
      {
        ...item,
        countryOfOrigin: 'CN',
        // At stake (what the guarantee covers): 81.00 duty + 647.01 VAT = 728.01 EUR.
        customsValue: '3000.00',
        dutyRate: '2.7',
        vatRate: '21',
        previousDocuments: [{ type: 'N830', reference: '25NL000000001234A0' }],
      },
    ],
  };
}

export interface Message {
  id: string;
  direction: 'sent' | 'received';
  kind: string;
  at: string;
  summary: string;
  mrn: string | null;
  rules: { code: string; text: string; field: string | null }[];
  sandbox: boolean;
  by: { id: string; name: string } | null;
  xml: 'IE015' | null;
}

/** Declarations through the API of whichever app is current, as staff. */
export function declarations(app: () => App, auth: () => { authorization: string }) {
  const call = apiCaller(app);
  const api = {
    call,
    async create(body: Json): Promise<Json> {
      const res = await call('POST', '/declarations', auth(), body);
      if (res.status !== 201 && res.status !== 200) throw new Error(`create: ${res.status} ${res.raw}`);
      return res.body;
    },
    async get(id: string): Promise<Json> {
      const res = await call('GET', `/declarations/${id}`, auth());
      if (res.status !== 200) throw new Error(`get: ${res.status} ${res.raw}`);
      return res.body;
    },
    async messages(id: string): Promise<Message[]> {
      const res = await call('GET', `/declarations/${id}/messages`, auth());
      if (res.status !== 200) throw new Error(`messages: ${res.status} ${res.raw}`);
      const body = JSON.parse(res.raw) as Message[] | { items: Message[] };
      return Array.isArray(body) ? body : body.items;
    },
    async act(id: string, action: 'lodge' | 'amend' | 'cancel', extra: Json = {}): Promise<Json> {
      const { version } = await api.get(id);
      const res = await call('POST', `/declarations/${id}/${action}`, auth(), { version, ...extra });
      if (res.status !== 200) throw new Error(`${action}: ${res.status} ${res.raw}`);
      return res.body;
    },
    async lodged(body: Json): Promise<string> {
      const d = await api.create(body);
      await api.act(d.id as string, 'lodge');
      return d.id as string;
    },
    /** Waits (polling the API) until the declaration has `status` and no pending request. */
    async until(id: string, status: string, what = status): Promise<Json> {
      let last: Json = {};
      await waitUntil(
        `${id} to be ${what} (last: ${String(last.status)})`,
        async () => {
          last = await api.get(id);
          return last.status === status && last.pendingRequest === null;
        },
        20_000,
      );
      return last;
    },
    /** Waits until the message log holds a received message of `kind`. */
    async heard(id: string, kind: string): Promise<Message[]> {
      let log: Message[] = [];
      await waitUntil(`${id} to hear ${kind}`, async () => {
        log = await api.messages(id);
        return log.some((m) => m.direction === 'received' && m.kind === kind);
      });
      return log;
    },
  };
  return api;
}

/** Makes a waiting step due now: the same job key, enqueued again (graphile-worker replaces its run time). */
export async function hurry(db: TestDatabase, declarationId: string, step: SandboxStep, messageId: string) {
  await enqueue(
    db.db,
    'customs.sandbox',
    { declarationId, step, messageId },
    { jobKey: `customs.sandbox:${declarationId}:${step}:${messageId}` },
  );
}

/** `customs.sandbox` jobs waiting or running. */
export async function sandboxJobs(db: TestDatabase): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from graphile_worker.jobs where task_identifier = 'customs.sandbox'`.execute(
    db.db,
  );
  return rows[0]?.n ?? 0;
}
