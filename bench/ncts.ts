/**
 * `npm run bench:ncts` (and a part of `npm run bench:api`): how fast a transit's IE015 (CC015C) is
 * built, and built and checked against the NCTS phase 6 schema, in one run on this machine (issue 26,
 * "Demo and scale"). The declaration is a complete transit of `--items` items (the contract's own shape,
 * parsed by its schema), the envelope a fixed one. Prints messages per second of each and their ratio;
 * writes bench/results/ncts-latest.json when run alone.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type Declaration, declarationSchema } from '@fvg/contracts';
import { ie015 } from '../apps/api/src/ncts/ie015.ts';
import { validateNcts } from '../apps/api/src/ncts/validate.ts';

const party = (name: string, country: string, eori: string | null) => ({
  partyId: null,
  name,
  street: 'Waalhaven Zuidzijde 19',
  postalCode: '3089 JH',
  city: 'Rotterdam',
  countryCode: country,
  eori,
});

/** A lodgeable transit of `items` items in two containers, with seals, authorisations and a location. */
export function benchTransit(items: number): Declaration {
  const item = (n: number) => ({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    position: n,
    commodityCode: '84713000',
    description: `Portable computers, lot ${n}`,
    countryOfOrigin: 'CN',
    preference: null,
    procedureCode: null,
    additionalProcedureCodes: [],
    valuationMethod: null,
    supplementaryUnits: null,
    packages: 10,
    packageKind: 'CT',
    marks: `FVG ${n}`,
    grossMassKg: '120.000',
    netMassKg: '100.000',
    invoiceValue: null,
    customsValue: '1050.00',
    statisticalValue: null,
    dutyRate: '0',
    vatRate: '21',
    vatCosts: null,
    containers: [n % 2 ? 'MSKU6011672' : 'CSQU3054383'],
    supportingDocuments: [{ type: 'N380', reference: `INV-2026-${n}` }],
    previousDocuments: [{ type: 'N830', reference: '25NL000000001234A0' }],
    estimate: null,
  });
  return declarationSchema.parse({
    id: '00000000-0000-4000-8000-000000000000',
    type: 'transit',
    category: 'T1',
    status: 'draft',
    lrn: 'LRN-2026-BENCH01',
    mrn: null,
    gateway: { label: 'bench', sandbox: true },
    dossier: null,
    shipment: null,
    customer: { id: '00000000-0000-4000-8000-000000000001', code: 'ACME', name: 'Acme' },
    declarant: party('FVG Forwarding B.V.', 'NL', 'NL859437215'),
    representative: null,
    representativeStatus: '1',
    consignor: party('Acme Trading B.V.', 'NL', 'NL123456789'),
    consignee: party('Zurich Handels AG', 'CH', null),
    holder: party('FVG Forwarding B.V.', 'NL', 'NL859437215'),
    officeOfLodgement: 'NL000396',
    officeOfExitEntry: null,
    officeOfDestination: 'CH001251',
    officesOfTransit: ['DE004058'],
    countryOfDispatch: 'NL',
    countryOfDestination: 'CH',
    transportModeBorder: '3',
    transportModeInland: '3',
    meansAtDeparture: 'NL-38-BXT',
    meansAtDepartureCountry: 'NL',
    meansAtBorder: 'NL-38-BXT',
    meansAtBorderCountry: 'NL',
    containerIndicator: true,
    incoterm: null,
    incotermPlace: null,
    natureOfTransaction: null,
    currency: null,
    invoiceTotal: null,
    exchangeRate: null,
    locationOfGoods: 'NLC521RTM0042',
    locationOfGoodsType: 'B',
    locationOfGoodsQualifier: 'Y',
    warehouseReference: null,
    authorisations: [{ type: 'C521', reference: 'NLC521RTM0042' }],
    additionalInformation: [],
    seals: [
      { identifier: 'FVG427100', container: 'MSKU6011672' },
      { identifier: 'FVG427101', container: 'CSQU3054383' },
    ],
    limitDate: '2026-12-15',
    guaranteeType: '1',
    additionTransportInsurance: null,
    additionCommissions: null,
    additionPacking: null,
    deductionTransportAfterEntry: null,
    deductionDuties: null,
    apportionment: null,
    methodOfPayment: null,
    guaranteeReference: '26NL0000000000001',
    guaranteeAmount: String(300 * items),
    notes: null,
    items: Array.from({ length: items }, (_, i) => item(i + 1)),
    totals: {
      packages: 10 * items,
      grossMassKg: (120 * items).toFixed(3),
      netMassKg: (100 * items).toFixed(3),
      invoiceValue: '0.00',
      customsValue: (1050 * items).toFixed(2),
      statisticalValue: '0.00',
      duty: null,
      vatBase: null,
      vat: null,
      dutyAndVat: null,
    },
    pendingRequest: null,
    rejection: [],
    lastMessage: null,
    lodgedAt: null,
    acceptedAt: null,
    releasedAt: null,
    exitedAt: null,
    arrivedAt: null,
    dischargedAt: null,
    version: 1,
    createdAt: '2026-11-29T10:00:00.000Z',
    createdBy: null,
    updatedAt: '2026-11-29T10:00:00.000Z',
    allowedActions: [],
  });
}

export interface NctsBench {
  items: number;
  /** Bytes of one message. */
  bytes: number;
  build: { messages: number; seconds: number; perSecond: number };
  buildAndValidate: { messages: number; seconds: number; perSecond: number };
  /** build.perSecond ÷ buildAndValidate.perSecond: what the schema check costs. */
  ratio: number;
}

const envelope = (n: number) => ({
  sender: 'NL859437215',
  recipient: 'NTA.NL',
  messageId: `FVG-BENCH-${n}`,
  preparedAt: new Date('2026-11-29T10:00:00Z'),
});

/** Builds for `buildSeconds`, then builds and validates for `validateSeconds`, one message at a time. */
export async function benchNcts(items = 10, buildSeconds = 3, validateSeconds = 6): Promise<NctsBench> {
  const d = benchTransit(items);
  const first = ie015(d, envelope(0));
  const check = await validateNcts(first);
  if (!check.valid) throw new Error(`the bench's IE015 is not valid: ${check.errors.join('; ')}`);

  let built = 0;
  let start = performance.now();
  while (performance.now() - start < buildSeconds * 1000) ie015(d, envelope(++built));
  const buildMs = performance.now() - start;

  let validated = 0;
  start = performance.now();
  while (performance.now() - start < validateSeconds * 1000) {
    const result = await validateNcts(ie015(d, envelope(++validated)));
    if (!result.valid) throw new Error('an IE015 failed its schema during the bench');
  }
  const validateMs = performance.now() - start;

  const rate = (n: number, ms: number) => Math.round((n / ms) * 1000 * 10) / 10;
  const build = { messages: built, seconds: buildMs / 1000, perSecond: rate(built, buildMs) };
  const buildAndValidate = {
    messages: validated,
    seconds: validateMs / 1000,
    perSecond: rate(validated, validateMs),
  };
  const out: NctsBench = {
    items,
    bytes: Buffer.byteLength(first),
    build,
    buildAndValidate,
    ratio: Math.round((build.perSecond / buildAndValidate.perSecond) * 10) / 10,
  };
  console.log(
    `\nIE015 of ${items} items (${out.bytes.toLocaleString('en-US')} bytes): built ${build.perSecond.toLocaleString('en-US')}/s; built and checked against the XSD ${buildAndValidate.perSecond.toLocaleString('en-US')}/s (${out.ratio}× slower)`,
  );
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { items: { type: 'string', default: '10' } } });
  const result = await benchNcts(Number(values.items));
  const root = path.resolve(import.meta.dirname, '..');
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    path.join(root, 'bench/results/ncts-latest.json'),
    `${JSON.stringify({ at: new Date().toISOString(), cores: os.cpus().length, ...result }, null, 2)}\n`,
  );
}
