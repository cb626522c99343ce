/*
 * The registry of every operation of the OpenAPI document, for the generated tests
 * (access-matrix.test.ts, malformed-input.test.ts): how to build a VALID request against a seeded
 * world, and the status each kind of caller gets.
 *
 * Adding an endpoint: add one entry to OPERATIONS under its `METHOD /api/path/{param}` key (exactly
 * as the OpenAPI document spells it). `build` returns a request that succeeds for staff or admin;
 * it addresses the records of `ctx.owner` (party A, or party B when a customer of A probes B's ids),
 * and makes a fresh record whenever the call consumes one (delete, transition, a single-use token)
 * so that every role gets the same well-formed chance. `expect` says, once, what each caller gets:
 *   anonymous      no credentials
 *   customerOwn    the customer of party A on party A's records (or the list, filtered to A)
 *   customerOther  the customer of party A sending party B's ids (404 like a missing record)
 *   staff, admin   internal users
 *   deactivated    a user who signed in, then was deactivated (the token must stop working)
 * The tests fail for an operation without an entry, and for an entry without an operation.
 * `hiddenSort`/`hiddenFilters` list what a customer cannot see and so must not sort or filter by.
 */
import { iso6346CheckDigit, makeMrn } from '@fvg/contracts';
import { sql } from 'kysely';
import type { App } from '../app.ts';
import { authRepository } from '../features/auth/auth.repository.ts';
import { newOpaqueToken } from '../features/auth/tokens.ts';
import { gateIn } from '../features/container-events/test-support.ts';
import { completeImport, recordingGateway, usdCustomsRates } from '../features/declarations/test-support.ts';
import { minimalPdf } from '../features/documents/minimal-pdf.ts';
import { todayIn } from '../features/sales-invoices/sales-invoices.service.ts';
import { completeCompany, draftBody } from '../features/sales-invoices/test-support.ts';
import { usersService } from '../features/users/users.service.ts';
import { seedDemo } from '../seed/sign-ins.ts';
import {
  bearer,
  createTestApp,
  createTestDatabase,
  DEMO_PASSWORDS,
  demoTokens,
  type FormFile,
  type Json,
  multipartForm,
  type TestDatabase,
} from './helpers.ts';

export type Role = 'anonymous' | 'customerOwn' | 'customerOther' | 'staff' | 'admin' | 'deactivated';
export const ROLES: readonly Role[] = [
  'anonymous',
  'customerOwn',
  'customerOther',
  'staff',
  'admin',
  'deactivated',
];
export type Owner = 'A' | 'B';
type Auth = { authorization: string };

/** A request before it is sent: path parameters, query, and one kind of body. */
export interface OpRequest {
  path?: Record<string, string>;
  query?: Record<string, string>;
  /** A JSON body. */
  body?: unknown;
  /** A multipart/form-data body (fields first, then the files). */
  form?: { fields: Record<string, string>; files: FormFile[] };
  /** Any other body, e.g. text/csv. */
  raw?: { contentType: string; payload: string };
  headers?: Record<string, string>;
}

export interface BuildContext {
  world: World;
  /** Whose records the request addresses. */
  owner: Owner;
  role: Role;
}

export interface OperationEntry {
  build(ctx: BuildContext): OpRequest | Promise<OpRequest>;
  expect: Record<Role, number>;
  /** Sort keys a customer cannot see (the list must refuse them with 400 on `sort`). */
  hiddenSort?: string[];
  /** Query filters on fields a customer cannot see, each a value to try (400 on that field). */
  hiddenFilters?: Record<string, string>;
}

/** The records of one customer party, made through the API (and services) in `createWorld`. */
export interface PartyRecords {
  partyId: string;
  partyCode: string;
  customer: Auth;
  customerId: string;
  dossierId: string;
  dossierNumber: string;
  containerNumber: string;
  transportId: string;
  documentId: string;
  /** A document of the dossier with visibleToCustomer false: its customer must never see it. */
  hiddenDocumentId: string;
  hiddenDocumentName: string;
  /** A container event linked to the dossier (through its container). */
  eventId: string;
  chatMessageId: string;
}

export interface World {
  db: TestDatabase;
  app: App;
  staff: Auth;
  admin: Auth;
  deactivated: Auth;
  deactivatedUserId: string;
  carrierId: string;
  integrationKey: string;
  integrationKeyId: string;
  /** A user admins may change in the matrix (not one whose token the tests use). */
  patchableUserId: string;
  loginUser: { email: string; password: string };
  resetUserId: string;
  A: PartyRecords;
  B: PartyRecords;
  /**
   * Strings of job costing that only staff may see: the cost and revenue amounts of every party's
   * charges and the profit they make. No customer response may contain them.
   */
  internalFigures: string[];
  /** Sends a request built by a registry entry. */
  send(method: string, template: string, req: OpRequest, auth: Auth | undefined): Promise<Sent>;
  authFor(role: Role): Auth | undefined;
  /** A new dossier of `owner` in status booked (staff), for calls that consume one. */
  freshDossier(owner: Owner): Promise<{ id: string; number: string; version: number }>;
  /** A new booking request (status requested) made by the customer of `owner`. */
  freshBooking(owner: Owner): Promise<{ id: string; version: number }>;
  freshTransport(owner: Owner): Promise<{ id: string; version: number }>;
  freshDocument(owner: Owner): Promise<string>;
  /** A new container event for `container` (unlinked when no dossier names it). */
  freshEvent(container: string): Promise<string>;
  version(table: 'dossiers' | 'transports' | 'documents' | 'parties', id: string): Promise<number>;
  close(): Promise<void>;
}

export interface Sent {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  raw: Buffer;
  text: string;
  /** The parsed body when it is JSON. */
  json: unknown;
}

/** A valid ISO 6346 container number with the given owner code and serial. */
export function containerNumber(owner: string, serial: number): string {
  const body = `${owner}U${String(serial).padStart(6, '0')}`;
  return `${body}${iso6346CheckDigit(body)}`;
}

/** Fills `{param}` of an OpenAPI path template; each value is percent-encoded as given. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    return encodeURIComponent(v);
  });
}

export function queryString(query: Record<string, string> = {}): string {
  const qs = new URLSearchParams(query).toString();
  return qs ? `?${qs}` : '';
}

let serial = 100;

/** `make` once per world and owner (the first call makes it; later ones share the same promise). */
function oncePerOwner<C extends Pick<BuildContext, 'world' | 'owner'>, T>(make: (ctx: C) => Promise<T>) {
  const made = new WeakMap<World, Partial<Record<Owner, Promise<T>>>>();
  return (ctx: C): Promise<T> => {
    const perWorld = made.get(ctx.world) ?? {};
    made.set(ctx.world, perWorld);
    perWorld[ctx.owner] ??= make(ctx);
    return perWorld[ctx.owner] as Promise<T>;
  };
}
const nextSerial = () => ++serial;
const PROFILE_PASSWORD = 'Harbor-Velvet-57-Lynx';

/** One database and app, the demo parties and users, and records of every area for parties A and B. */
export async function createWorld(): Promise<World> {
  const db = await createTestDatabase();
  await seedDemo(db.db);
  // Lodging reaches a gateway that only records: the access matrix is about who may ask, not the answer.
  const app = await createTestApp(db, {}, { customsGateway: recordingGateway().gateway });

  async function send(method: string, template: string, req: OpRequest, auth: Auth | undefined) {
    const headers: Record<string, string> = { ...(auth ?? {}), ...(req.headers ?? {}) };
    let payload: string | Buffer | undefined;
    if (req.form) {
      const f = multipartForm(req.form.fields, req.form.files);
      headers['content-type'] = f.contentType;
      payload = f.payload;
    } else if (req.raw) {
      headers['content-type'] = req.raw.contentType;
      payload = req.raw.payload;
    } else if (req.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      payload = JSON.stringify(req.body);
    }
    const res = await app.inject({
      method: method as 'GET',
      url: `${fillPath(template, req.path)}${queryString(req.query)}`,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    const isJson = /json/.test(String(res.headers['content-type'] ?? ''));
    let json: unknown;
    if (isJson && res.body) {
      try {
        json = JSON.parse(res.body);
      } catch {
        json = undefined;
      }
    }
    return { status: res.statusCode, headers: res.headers, raw: res.rawPayload, text: res.body, json };
  }
  async function ok(method: string, url: string, auth: Auth, req: OpRequest = {}): Promise<Json> {
    const r = await send(method, url, req, auth);
    if (r.status >= 300) throw new Error(`world: ${method} ${url} answered ${r.status} ${r.text}`);
    return (r.json ?? {}) as Json;
  }

  const { admin, staff, acme, globex } = await demoTokens(app);
  const parties = await db.db.selectFrom('parties').select(['id', 'code']).execute();
  const partyId = (code: string) => parties.find((p) => p.code === code)?.id as string;
  const userId = async (email: string) =>
    (await db.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  const users = usersService(db.db);
  // Strong enough for any password policy (no common words, nothing of the email or product name).
  const password = 'Velvet-Harbor-39-Otter';
  const mk = async (email: string, role: 'customer' | 'staff', party?: string) =>
    (
      await users.create({
        email,
        password,
        name: email.split('@')[0] as string,
        role,
        party,
        cwAccess: false,
      })
    ).id;
  const deactivatedUserId = await mk('gone@acme.example', 'customer', 'ACME');
  const deactivated = await bearer(app, 'gone@acme.example', password);
  const patchableUserId = await mk('patchable@fvg.test', 'staff');
  await mk('login@fvg.test', 'staff');
  const resetUserId = await mk('reset@fvg.test', 'staff');

  const keyCreated = await ok('POST', '/api/integration-keys', admin, {
    body: { name: 'matrix carrier feed' },
  });
  const integrationKey = keyCreated.key as string;

  const carrierId = partyId('NORDCAR');
  const internalFigures: string[] = [];

  async function dossierFor(owner: Owner, container: string | null) {
    const d = await ok('POST', '/api/dossiers', staff, {
      body: {
        type: 'import',
        mode: 'sea',
        customerId: partyId(owner === 'A' ? 'ACME' : 'GLOBEX'),
        originLocode: 'CNSHA',
        destinationLocode: 'NLRTM',
        etd: '2026-02-20',
        eta: '2026-03-25',
        customerReference: `PO-${owner}-${nextSerial()}`,
        containers: container ? [{ number: container, sizeType: '45G1' }] : [],
      },
    });
    return { id: d.id as string, number: d.number as string, version: d.version as number };
  }
  async function upload(dossierId: string, visible: boolean, name: string): Promise<string> {
    const r = await ok('POST', '/api/documents', staff, {
      form: {
        fields: {
          recordType: 'dossier',
          recordId: dossierId,
          documentType: 'bill_of_lading',
          visibleToCustomer: String(visible),
        },
        files: [{ filename: name, content: minimalPdf(`${name} ${nextSerial()}`) }],
      },
    });
    return ((r.items as Json[])[0] as Json).id as string;
  }
  async function ingest(event: Json): Promise<string> {
    // As a carrier's feed sends them: with the integration key, no user.
    const r = await send(
      'POST',
      '/api/container-events',
      { body: event, headers: { 'x-api-key': integrationKey } },
      undefined,
    );
    const created = ((r.json as { results?: Json[] } | undefined)?.results?.[0] ?? {}) as Json;
    if (r.status !== 201 || typeof created.id !== 'string')
      throw new Error(`world: ingest answered ${r.status} ${r.text}`);
    return created.id;
  }
  const freshEvent = (container: string) => ingest(gateIn(container));

  async function partyRecords(owner: Owner, code: string, customer: Auth, email: string, cents: number) {
    const container = containerNumber(owner === 'A' ? 'AAA' : 'BBB', nextSerial());
    const d = await dossierFor(owner, container);
    // Distinct amounts per party, so a leak names whose figures leaked.
    const cost = `${4711 + cents}.13`;
    const revenue = `${9876 + cents}.54`;
    const profit = (Number(revenue) - Number(cost)).toFixed(2);
    internalFigures.push(cost, revenue, profit);
    await ok('PUT', `/api/dossiers/${d.id}/charges`, staff, {
      body: {
        version: d.version,
        charges: [
          {
            kind: 'cost',
            chargeCode: 'FREIGHT',
            description: 'Ocean freight (carrier)',
            amount: cost,
            currency: 'EUR',
          },
          {
            kind: 'revenue',
            chargeCode: 'FREIGHT',
            description: 'Ocean freight',
            amount: revenue,
            currency: 'EUR',
          },
        ],
      },
    });
    const t = await ok('POST', '/api/transports', staff, {
      body: {
        mode: 'road',
        dossierId: d.id,
        carrierId,
        containers: [container],
        truckPlate: `${owner}-TR-01`,
      },
    });
    const documentId = await upload(d.id, true, `bl-${owner}.pdf`);
    const hiddenDocumentName = `internal-costing-${owner}-${nextSerial()}.pdf`;
    const hiddenDocumentId = await upload(d.id, false, hiddenDocumentName);
    const eventId = await freshEvent(container);
    const session = await app.services.auth.authenticate(customer.authorization.slice('Bearer '.length));
    const message = await app.services.chat.send(session, d.id, `Where is ${container}?`);
    return {
      partyId: partyId(code),
      partyCode: code,
      customer,
      customerId: await userId(email),
      dossierId: d.id,
      dossierNumber: d.number,
      containerNumber: container,
      transportId: t.id as string,
      documentId,
      hiddenDocumentId,
      hiddenDocumentName,
      eventId,
      chatMessageId: message.id,
    } satisfies PartyRecords;
  }
  const A = await partyRecords('A', 'ACME', acme, DEMO_PASSWORDS.acme[0], 0);
  const B = await partyRecords('B', 'GLOBEX', globex, DEMO_PASSWORDS.globex[0], 1000);

  // Deactivated after signing in: the token worked, and must stop working everywhere.
  await ok('GET', '/api/me', deactivated);
  await ok('PATCH', `/api/users/${deactivatedUserId}`, admin, { body: { active: false } });

  const world: World = {
    db,
    app,
    staff,
    admin,
    deactivated,
    deactivatedUserId,
    carrierId,
    integrationKey,
    integrationKeyId: keyCreated.id as string,
    patchableUserId,
    loginUser: { email: 'login@fvg.test', password },
    resetUserId,
    A,
    B,
    internalFigures,
    send,
    authFor(role) {
      switch (role) {
        case 'anonymous':
          return undefined;
        case 'customerOwn':
        case 'customerOther':
          return A.customer;
        case 'staff':
          return staff;
        case 'admin':
          return admin;
        case 'deactivated':
          return deactivated;
      }
    },
    freshDossier: (owner) => dossierFor(owner, null),
    async freshBooking(owner) {
      const d = await ok('POST', '/api/dossiers/bookings', world[owner].customer, {
        body: {
          type: 'import',
          mode: 'air',
          originLocode: 'CNSHA',
          destinationLocode: 'NLAMS',
          cargoDescription: 'Spare parts',
        },
      });
      return { id: d.id as string, version: d.version as number };
    },
    async freshTransport(owner) {
      const t = await ok('POST', '/api/transports', staff, {
        body: { mode: 'road', dossierId: world[owner].dossierId, carrierId },
      });
      return { id: t.id as string, version: t.version as number };
    },
    freshDocument: (owner) => upload(world[owner].dossierId, true, `pod-${owner}-${nextSerial()}.pdf`),
    freshEvent,
    async version(table, id) {
      const r = await sql<{
        version: number;
      }>`select version from ${sql.table(table)} where id = ${id}`.execute(db.db);
      return Number(r.rows[0]?.version);
    },
    async close() {
      await app.close();
      await db.drop();
    },
  };
  return world;
}

/** A single-use password reset token for the world's reset user, stored as the service stores it. */
async function resetToken(w: World): Promise<string> {
  // pwd/link issues its token in the background, and a new token voids the older ones: let those
  // tasks finish first, or one of them could void the token made here.
  await w.app.services.auth.settle();
  const { token, hash } = newOpaqueToken();
  await authRepository(w.db.db).insertResetToken(w.resetUserId, hash, 30);
  return token;
}

const AUTH_ONLY = { anonymous: 401, deactivated: 401 } as const;
/** Staff and admins may; customers get 403 whatever the ids. */
const staffOnly = (ok: number): Record<Role, number> => ({
  ...AUTH_ONLY,
  customerOwn: 403,
  customerOther: 403,
  staff: ok,
  admin: ok,
});
const adminOnly = (ok: number): Record<Role, number> => ({ ...staffOnly(ok), staff: 403 });
/**
 * A change to a record that only staff may make: its own customer is refused (403), another party's
 * customer finds nothing to change (404, as if it did not exist).
 */
const staffOnlyRecord = (ok: number): Record<Role, number> => ({ ...staffOnly(ok), customerOther: 404 });
/** A record of a party: its customer reads it, another party's customer finds nothing. */
const readable = (ok = 200): Record<Role, number> => ({
  ...AUTH_ONLY,
  customerOwn: ok,
  customerOther: 404,
  staff: ok,
  admin: ok,
});
/** A list: everybody signed in gets one, a customer's filtered to their own party. */
const list: Record<Role, number> = readable(200);
const listOther = { ...list, customerOther: 200 };

const id = (ctx: BuildContext) => ctx.world[ctx.owner];

type Built = OpRequest | Promise<OpRequest>;
type RecordKey = 'partyId' | 'dossierId' | 'transportId' | 'documentId' | 'eventId' | 'chatMessageId';
/** A call on one record: its id in the path (`get` makes or finds it, given `args`, e.g. the state wanted). */
const onRecord =
  <A extends unknown[]>(get: (ctx: BuildContext, ...args: A) => Promise<{ id: string }>, ...args: A) =>
  async (ctx: BuildContext): Promise<OpRequest> => ({ path: { id: (await get(ctx, ...args)).id } });
/** A versioned change of a record `fresh` makes in `state`: its id in the path, its version and `body` sent. */
const versioned =
  <S>(
    fresh: (ctx: BuildContext, state: S) => Promise<{ id: string; version: number }>,
    state: S,
    body: Json = {},
  ) =>
  async (ctx: BuildContext): Promise<OpRequest> => {
    const r = await fresh(ctx, state);
    return { path: { id: r.id }, body: { version: r.version, ...body } };
  };
/** A call on one of the owner's standing records (its id in `PartyRecords` under `key`). */
const ownRecord =
  (key: RecordKey) =>
  (ctx: BuildContext): Built => ({ path: { id: id(ctx)[key] } });
/** An edit of one of the owner's standing records: its id, `body` and the record's current version. */
const ownEdit =
  (table: 'dossiers' | 'transports' | 'documents' | 'parties', key: RecordKey, body: Json) =>
  async (ctx: BuildContext): Promise<OpRequest> => ({
    path: { id: id(ctx)[key] },
    body: { ...body, version: await ctx.world.version(table, id(ctx)[key]) },
  });
/** The list of the owner's records, filtered to that party by `field`, sorted, one small page. */
const ownersList =
  (field: 'customerId' | 'ownerId', sort: string) =>
  (ctx: BuildContext): Built => ({ query: { [field]: id(ctx).partyId, sort, pageSize: '5' } });
/** The CSV export of the owner's records, filtered to that party by `field`. */
const ownersExport =
  (field: 'customerId' | 'ownerId') =>
  (ctx: BuildContext): Built => ({ query: { format: 'csv', [field]: id(ctx).partyId } });

/**
 * A fresh notification of the caller (staff, admin, or the customer of `owner`): a chat message from
 * the other side of `owner`'s dossier raises it. A customer of A probing B gets B's customer's id.
 */
async function freshNotification({ world, owner, role }: BuildContext): Promise<string> {
  const session = (auth: Auth) =>
    world.app.services.auth.authenticate(auth.authorization.slice('Bearer '.length));
  const forCustomer = role !== 'staff' && role !== 'admin';
  const recipientId = forCustomer ? world[owner].customerId : (await session(world.authFor(role) as Auth)).id;
  const author = await session(forCustomer ? world.staff : world[owner].customer);
  await world.app.services.chat.send(author, world[owner].dossierId, `Matrix note ${nextSerial()}`);
  const row = await world.db.db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', recipientId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A new sales offer of `owner`'s party (staff), a draft or sent. Its notes are internal: they join the
 * figures no customer response may contain.
 */
async function freshOffer(
  { world, owner }: Pick<BuildContext, 'world' | 'owner'>,
  status: 'draft' | 'sent',
): Promise<{ id: string; version: number }> {
  const notes = `Offer margin note ${owner}: 17.4 % after the carrier discount`;
  if (!world.internalFigures.includes(notes)) world.internalFigures.push(notes);
  const validUntil = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const made = await world.send(
    'POST',
    '/api/sales-offers',
    {
      body: {
        customerId: world[owner].partyId,
        contactEmail: `buyer-${owner.toLowerCase()}@example.com`,
        validUntil,
        mode: 'sea',
        originLocode: 'NLRTM',
        destinationLocode: 'USNYC',
        notes,
        lines: [
          {
            chargeCode: 'FREIGHT',
            description: 'Ocean freight',
            quantity: '1',
            unit: 'XCN',
            unitPrice: '1800',
            currency: 'EUR',
            vatCode: 'E',
            vatRate: '0',
          },
        ],
      },
    },
    world.staff,
  );
  const offer = made.json as Json;
  if (made.status !== 201) throw new Error(`world: offer answered ${made.status} ${made.text}`);
  if (status === 'draft') return { id: offer.id as string, version: offer.version as number };
  const s = await world.send(
    'POST',
    '/api/sales-offers/{id}/transitions',
    { path: { id: offer.id as string }, body: { to: 'sent', version: offer.version } },
    world.staff,
  );
  if (s.status !== 200) throw new Error(`world: sending the offer answered ${s.status} ${s.text}`);
  return { id: offer.id as string, version: (s.json as Json).version as number };
}

/**
 * Sales invoices of `owner`, made as staff through the API: a draft (invisible to customers), or an
 * issued one (from lines whose amounts are no job-costing figure). The company is completed first, as
 * issuing needs its VAT number and address.
 */
async function freshInvoice(ctx: BuildContext, issue: boolean): Promise<{ id: string; version: number }> {
  const { world, owner } = ctx;
  await completeCompany(world.db.db);
  const d = await world.send(
    'POST',
    '/api/sales-invoices',
    { body: draftBody(world[owner].partyId) },
    world.staff,
  );
  const draft = d.json as Json;
  if (d.status !== 201) throw new Error(`world: invoice draft answered ${d.status} ${d.text}`);
  if (!issue) return { id: draft.id as string, version: draft.version as number };
  const i = await world.send(
    'POST',
    '/api/sales-invoices/{id}/issue',
    { path: { id: draft.id as string }, body: { version: draft.version } },
    world.staff,
  );
  if (i.status !== 200) throw new Error(`world: invoice issue answered ${i.status} ${i.text}`);
  return { id: draft.id as string, version: (i.json as Json).version as number };
}
/** One issued invoice per owner and world, for the calls that only read it. */
const issuedInvoice = oncePerOwner((ctx: BuildContext) => freshInvoice(ctx, true));
let mrnSerial = 0;
/**
 * A customs declaration of `owner` (staff, through the API): a draft, lodged, or accepted (the
 * authority's answer played in SQL, as the recording gateway gives none). Its notes are internal.
 */
async function freshDeclaration(
  { world, owner }: Pick<BuildContext, 'world' | 'owner'>,
  status: 'draft' | 'lodged' | 'accepted',
): Promise<{ id: string; version: number }> {
  const notes = `Declaration broker note ${owner}: fee 45 EUR`;
  if (!world.internalFigures.includes(notes)) world.internalFigures.push(notes);
  await usdCustomsRates(world.db.db);
  const made = await world.send(
    'POST',
    '/api/declarations',
    { body: completeImport(world[owner].partyId, { notes }) },
    world.staff,
  );
  const d = made.json as Json;
  if (made.status !== 201) throw new Error(`world: declaration answered ${made.status} ${made.text}`);
  if (status === 'draft') return { id: d.id as string, version: d.version as number };
  const l = await world.send(
    'POST',
    '/api/declarations/{id}/lodge',
    { path: { id: d.id as string }, body: { version: d.version } },
    world.staff,
  );
  if (l.status !== 200) throw new Error(`world: lodging answered ${l.status} ${l.text}`);
  if (status === 'lodged') return { id: d.id as string, version: (l.json as Json).version as number };
  const serial = String(++mrnSerial).padStart(12, '0');
  const row = await world.db.db
    .updateTable('declarations')
    .set((eb) => ({
      status: 'accepted',
      mrn: makeMrn({ year: 2026, country: 'NL', serial, letter: 'R' }),
      accepted_at: new Date(),
      version: eb('version', '+', 1),
    }))
    .where('id', '=', d.id as string)
    .returning('version')
    .executeTakeFirstOrThrow();
  return { id: d.id as string, version: row.version };
}
/** One lodged declaration per owner and world, for the calls that only read it. */
const lodgedDeclaration = oncePerOwner((ctx) => freshDeclaration(ctx, 'lodged'));
/**
 * That declaration with a sent message that carries its NCTS XML, as the sandbox stores a transit's
 * IE015 (the world's gateway only records calls, so the row is written as the sandbox writes it).
 */
const declarationXmlMessage = oncePerOwner(async (ctx) => {
  const d = await lodgedDeclaration(ctx);
  const row = await ctx.world.db.db
    .insertInto('declaration_messages')
    .values({
      declaration_id: d.id,
      direction: 'sent',
      kind: 'lodge',
      summary: 'Sandbox authority — not a real customs lodgement: transit declaration lodged',
      mrn: null,
      rules: '[]',
      payload: JSON.stringify({ ie015: '<ncts:CC015C xmlns:ncts="http://ncts.dgtaxud.ec"/>' }),
      sandbox: true,
      created_by: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: d.id, messageId: row.id };
});

/**
 * A goods receipt of `owner` (admin: staff has no cw_access), one line without handling units
 * (no GS1 prefix needed) and internal notes a customer must never read.
 */
async function freshReceipt({ world, owner }: Pick<BuildContext, 'world' | 'owner'>): Promise<{
  id: string;
  stockId: string;
  stockVersion: number;
}> {
  const notes = `Warehouse note ${owner}: storage 4.75 EUR per pallet-week`;
  if (!world.internalFigures.includes(notes)) world.internalFigures.push(notes);
  const made = await world.send(
    'POST',
    '/api/stock-receipts',
    {
      body: {
        ownerId: world[owner].partyId,
        receivedOn: '2026-10-01',
        customsStatus: 'union',
        notes,
        lines: [
          {
            sku: `SKU-${owner}-1`,
            description: 'Bluetooth speakers',
            quantity: 40,
            location: 'RTM1-A-01-01',
          },
        ],
      },
    },
    world.admin,
  );
  if (made.status !== 201) throw new Error(`world: receipt answered ${made.status} ${made.text}`);
  const r = made.json as { id: string; lines: { id: string }[] };
  const stockId = r.lines[0]?.id as string;
  const stock = await world.send('GET', '/api/stock/{id}', { path: { id: stockId } }, world.admin);
  return { id: r.id, stockId, stockVersion: (stock.json as Json).version as number };
}
/** One receipt per owner and world, for the calls that only read it. */
const aReceipt = oncePerOwner(freshReceipt);
/**
 * The customs warehouse (model.md "Demo users and cw_access"): staff@fvg.local has no cw_access
 * (403 everywhere), the admin has it, and so does party A's customer; B's ids answer A's customer 404.
 */
const warehouseRead: Record<Role, number> = { ...readable(200), staff: 403 };
const warehouseWrite = (ok: number): Record<Role, number> => ({ ...staffOnly(ok), staff: 403 });
const warehouseRecordWrite = (ok: number): Record<Role, number> => ({
  ...staffOnlyRecord(ok),
  staff: 403,
});

/** A draft is staff's alone: a customer finds none, theirs or not. */
const staffDraft = (ok: number): Record<Role, number> => ({
  ...staffOnly(ok),
  customerOwn: 404,
  customerOther: 404,
});

// ---- customs warehouse: shipments (ship-api) -------------------------------------------------------

/** A customer's own drafts: theirs to change (the warehouse's access otherwise, warehouseRead). */
const warehouseOwnWrite = (ok: number): Record<Role, number> => ({ ...readable(ok), staff: 403 });
let shipmentMrnSerial = 500_000;
/** Plenty of Union (MATRIX-U) and non-Union (MATRIX-N) stock of `owner`, received once per world. */
const ownerStock = oncePerOwner(async ({ world, owner }): Promise<void> => {
  for (const [sku, customsStatus] of [
    ['MATRIX-U', 'union'],
    ['MATRIX-N', 'non_union_customs_warehousing'],
  ] as const) {
    const r = await world.send(
      'POST',
      '/api/stock-receipts',
      {
        body: {
          ownerId: world[owner].partyId,
          receivedOn: '2026-10-01',
          customsStatus,
          // Another declarant's entry: marked external (ADR 0046).
          inboundMrnExternal: customsStatus !== 'union',
          inboundMrn:
            customsStatus === 'union'
              ? null
              : makeMrn({
                  year: 2026,
                  country: 'NL',
                  serial: String(++shipmentMrnSerial).padStart(12, '0'),
                  letter: 'R',
                }),
          lines: [
            {
              sku,
              description: 'Matrix goods',
              commodityCode: '85182200',
              countryOfOrigin: 'CN',
              quantity: 1_000_000,
              location: 'RTM1-A-01-01',
              grossMassKg: '1000',
            },
          ],
        },
      },
      world.admin,
    );
    if (r.status !== 201) throw new Error(`world: stock receipt answered ${r.status} ${r.text}`);
  }
});
/** A new shipment of `owner` (admin): a draft, or released with non-Union goods under 4071. */
async function freshShipment(
  ctx: Pick<BuildContext, 'world' | 'owner'>,
  status: 'draft' | 'released',
): Promise<{ id: string; version: number }> {
  await ownerStock(ctx);
  const { world, owner } = ctx;
  const notes = `Shipment handling note ${owner}: margin 12 EUR`;
  if (!world.internalFigures.includes(notes)) world.internalFigures.push(notes);
  const made = await world.send(
    'POST',
    '/api/shipments',
    {
      body: {
        ownerId: world[owner].partyId,
        outboundProcedure: '4071',
        notes,
        lines: [{ sku: status === 'draft' ? 'MATRIX-U' : 'MATRIX-N', quantity: 1 }],
      },
    },
    world.admin,
  );
  if (made.status !== 201) throw new Error(`world: shipment answered ${made.status} ${made.text}`);
  const d = made.json as Json;
  if (status === 'draft') return { id: d.id as string, version: d.version as number };
  const r = await world.send(
    'POST',
    '/api/shipments/{id}/transitions',
    { path: { id: d.id as string }, body: { to: 'released', version: d.version } },
    world.admin,
  );
  if (r.status !== 200) throw new Error(`world: release answered ${r.status} ${r.text}`);
  return { id: d.id as string, version: (r.json as Json).version as number };
}
/** One shipment per owner and world, for the calls that only read it. */
const readShipment = oncePerOwner((ctx) => freshShipment(ctx, 'draft'));

export const OPERATIONS: Record<string, OperationEntry> = {
  'GET /api/health': {
    build: () => ({}),
    expect: {
      anonymous: 200,
      customerOwn: 200,
      customerOther: 200,
      staff: 200,
      admin: 200,
      deactivated: 200,
    },
  },
  // The probes answer anyone (a load balancer sends no credentials) and say nothing about records.
  // /api/metrics is not here: it is left out of the OpenAPI document, behind its own token (ADR 0055).
  'GET /api/health/live': {
    build: () => ({}),
    expect: {
      anonymous: 200,
      customerOwn: 200,
      customerOther: 200,
      staff: 200,
      admin: 200,
      deactivated: 200,
    },
  },
  'GET /api/health/ready': {
    build: () => ({}),
    expect: {
      anonymous: 200,
      customerOwn: 200,
      customerOther: 200,
      staff: 200,
      admin: 200,
      deactivated: 200,
    },
  },
  'POST /api/auth/access_token': {
    build: ({ world }) => ({ body: { ...world.loginUser } }),
    // Signing in needs no token: whatever the caller sends, the credentials decide.
    expect: {
      anonymous: 200,
      customerOwn: 200,
      customerOther: 200,
      staff: 200,
      admin: 200,
      deactivated: 200,
    },
  },
  'GET /api/me': {
    build: () => ({}),
    expect: { ...AUTH_ONLY, customerOwn: 200, customerOther: 200, staff: 200, admin: 200 },
  },
  'POST /api/auth/sign-out': {
    // Ends the token it is sent with: each role signs out a fresh copy of its token, never the one the
    // other operations use (the deactivated user's token stays refused as it is).
    build: async ({ world, role }) => {
      const auth = world.authFor(role);
      if (!auth || role === 'deactivated') return {};
      const signer = world.app.services.auth.signer;
      const claims = await signer.verify(auth.authorization.slice('Bearer '.length));
      if (!claims) throw new Error(`world: the ${role} token does not verify`);
      const { iat: _iat, exp: _exp, ...rest } = claims;
      return { headers: { authorization: `Bearer ${await signer.sign(rest)}` } };
    },
    expect: { ...AUTH_ONLY, customerOwn: 204, customerOther: 204, staff: 204, admin: 204 },
  },
  'POST /api/auth/pwd/link': {
    build: () => ({ body: { email: 'reset@fvg.test' } }),
    expect: {
      anonymous: 200,
      customerOwn: 200,
      customerOther: 200,
      staff: 200,
      admin: 200,
      deactivated: 200,
    },
  },
  'POST /api/auth/pwd/reset': {
    build: async ({ world }) => ({
      body: { token: await resetToken(world), password: `Quartz-Lantern-${nextSerial()}-Fjord` },
    }),
    expect: {
      anonymous: 200,
      customerOwn: 200,
      customerOther: 200,
      staff: 200,
      admin: 200,
      deactivated: 200,
    },
  },

  // profile: everyone signed in changes their own
  'PATCH /api/profile': {
    build: () => ({
      body: {
        preferences: {
          currency: 'EUR',
          decimalSeparator: ',',
          thousandsSeparator: '.',
          dateFormat: 'DD-MM-YYYY',
          timeFormat: 'HH:mm',
          timeZone: 'Europe/Amsterdam',
          language: 'en',
        },
      },
    }),
    expect: { ...AUTH_ONLY, customerOwn: 200, customerOther: 200, staff: 200, admin: 200 },
  },
  'POST /api/profile/password': {
    // A password change ends the caller's other sessions, so it runs as a fresh user of the caller's
    // kind (signed in here), never with the shared tokens the other operations use.
    build: async ({ world, role }) => {
      const body = { currentPassword: PROFILE_PASSWORD, newPassword: `Quartz-Lantern-${nextSerial()}-Fjord` };
      if (role === 'anonymous' || role === 'deactivated') return { body };
      const email = `self-${nextSerial()}@${role === 'staff' || role === 'admin' ? 'fvg.test' : 'acme.example'}`;
      await usersService(world.db.db).create({
        email,
        password: PROFILE_PASSWORD,
        name: 'Sam Self',
        role: role === 'staff' || role === 'admin' ? role : 'customer',
        party: role === 'staff' || role === 'admin' ? undefined : world.A.partyCode,
        cwAccess: false,
      });
      return { body, headers: await bearer(world.app, email, PROFILE_PASSWORD) };
    },
    expect: { ...AUTH_ONLY, customerOwn: 200, customerOther: 200, staff: 200, admin: 200 },
  },

  // parties
  'GET /api/parties': {
    build: (ctx) => ({ query: { q: id(ctx).partyCode, kind: 'customer', pageSize: '10' } }),
    expect: listOther,
  },
  'POST /api/parties': {
    build: () => ({
      body: { code: `P${nextSerial()}`, name: 'Matrix Forwarding', kinds: ['agent'], countryCode: 'NL' },
    }),
    expect: staffOnly(201),
  },
  'GET /api/parties/{id}': { build: ownRecord('partyId'), expect: readable() },
  'PATCH /api/parties/{id}': {
    build: ownEdit('parties', 'partyId', { phone: '+31 10 123 4567' }),
    expect: staffOnlyRecord(200),
  },
  'DELETE /api/parties/{id}': {
    build: async ({ world }) => {
      const p = await world.send(
        'POST',
        '/api/parties',
        { body: { code: `DEL${nextSerial()}`, name: 'To delete', kinds: ['agent'], countryCode: 'BE' } },
        world.staff,
      );
      return { path: { id: (p.json as Json).id as string } };
    },
    // The party is nobody's customer: no customer can find it.
    expect: { ...adminOnly(204), customerOwn: 404, customerOther: 404 },
  },
  'GET /api/parties/{id}/history': { build: ownRecord('partyId'), expect: readable() },

  // company settings (internal: staff read, admins write)
  'GET /api/company': { build: () => ({}), expect: staffOnly(200) },
  'PUT /api/company': {
    build: async ({ world }) => ({
      body: {
        invoiceFooter: `Footer ${nextSerial()}`,
        // A series nothing in the world issues from (offers are numbered at creation).
        series: [{ kind: 'declaration', prefix: 'LRN-', nextNumber: 1 }],
        version: Number(
          (await sql<{ version: number }>`select version from company_settings`.execute(world.db.db)).rows[0]
            ?.version,
        ),
      },
    }),
    expect: adminOnly(200),
  },
  'GET /api/company/history': { build: () => ({}), expect: staffOnly(200) },
  // customs exchange rates (ADR 0070): internal, staff keep them
  'GET /api/company/customs-rates': {
    build: () => ({ query: { month: '2026-11' } }),
    expect: staffOnly(200),
  },
  'PUT /api/company/customs-rates/{month}/{currency}': {
    build: () => ({ path: { month: '2031-01', currency: 'CHF' }, body: { rate: '1.0621' } }),
    expect: staffOnly(200),
  },
  'DELETE /api/company/customs-rates/{month}/{currency}': {
    // A rate of its own per call, in a month no declaration of the world is lodged in.
    build: async ({ world }) => {
      const currency = ['GBP', 'JPY', 'CNY', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN'][nextSerial() % 8] as string;
      const month = `2031-${String((nextSerial() % 12) + 1).padStart(2, '0')}`;
      await world.db.db
        .insertInto('customs_exchange_rates')
        .values({ month: `${month}-01`, currency, rate: '1.5' })
        .onConflict((oc) => oc.doNothing())
        .execute();
      return { path: { month, currency } };
    },
    expect: staffOnly(200),
  },
  // backups (ADR 0054): read-only, admins
  'GET /api/backups': { build: () => ({}), expect: adminOnly(200) },

  // dossiers
  'GET /api/dossiers': {
    build: ownersList('customerId', '-updatedAt'),
    expect: listOther,
    hiddenSort: ['profit', '-profit'],
    hiddenFilters: { profitMin: '0', profitMax: '0' },
  },
  'POST /api/dossiers': {
    build: (ctx) => ({
      body: {
        type: 'export',
        mode: 'sea',
        customerId: id(ctx).partyId,
        incoterm: 'FOB',
        originLocode: 'NLRTM',
        destinationLocode: 'CNSHA',
        etd: '2026-12-01',
        eta: '2026-12-30',
        packages: 12,
        grossWeightKg: '10450.5',
        containers: [{ number: containerNumber('CCC', nextSerial()), sizeType: '22G1', seals: ['SL1'] }],
      },
    }),
    expect: staffOnly(201),
  },
  'GET /api/dossiers/{id}': { build: ownRecord('dossierId'), expect: readable() },
  'PATCH /api/dossiers/{id}': {
    build: ownEdit('dossiers', 'dossierId', { customerReference: 'PO-4711' }),
    expect: staffOnlyRecord(200),
  },
  'DELETE /api/dossiers/{id}': {
    build: async (ctx) => ({ path: { id: (await ctx.world.freshBooking(ctx.owner)).id } }),
    expect: { ...adminOnly(204), customerOther: 404 },
  },
  'POST /api/dossiers/bookings': {
    // Party B's container named by party A's customer: a request, which must capture nothing.
    build: (ctx) => ({
      body: {
        type: 'import',
        mode: 'sea',
        originLocode: 'CNSHA',
        destinationLocode: 'NLRTM',
        cargoDescription: 'Bicycles',
        packages: 40,
        containers: [{ number: id(ctx).containerNumber }],
      },
    }),
    expect: { ...AUTH_ONLY, customerOwn: 201, customerOther: 201, staff: 403, admin: 403 },
  },
  'POST /api/dossiers/{id}/transitions': {
    build: async (ctx) => {
      const d = await ctx.world.freshDossier(ctx.owner);
      const atd = new Date().toISOString().slice(0, 10);
      return { path: { id: d.id }, body: { to: 'in_transit', version: d.version, atd } };
    },
    // Customers may move their own dossier only from requested to cancelled: any other move is a
    // conflict with its status (409), as the allowedTransitions of their dossier already say.
    expect: { ...staffOnly(200), customerOwn: 409, customerOther: 404 },
  },
  'PUT /api/dossiers/{id}/charges': {
    build: async (ctx) => {
      const r = id(ctx);
      const charges = await ctx.world.db.db
        .selectFrom('dossier_charges')
        .select(['kind', 'charge_code', 'description', 'amount', 'currency'])
        .where('dossier_id', '=', r.dossierId)
        .orderBy('kind')
        .execute();
      return {
        path: { id: r.dossierId },
        body: {
          version: await ctx.world.version('dossiers', r.dossierId),
          charges: charges.map((c) => ({
            kind: c.kind,
            chargeCode: c.charge_code,
            description: c.description,
            amount: String(c.amount),
            currency: c.currency,
            exchangeRate: '1',
          })),
        },
      };
    },
    expect: staffOnlyRecord(200),
  },
  'GET /api/dossiers/{id}/history': { build: ownRecord('dossierId'), expect: readable() },

  // users
  'GET /api/users': { build: () => ({ query: { role: 'staff', pageSize: '10' } }), expect: adminOnly(200) },
  'GET /api/users/handlers': { build: () => ({}), expect: staffOnly(200) },
  'POST /api/users/invite': {
    build: () => ({
      body: {
        email: `invited-${nextSerial()}@fvg.test`,
        name: 'Ivy Invited',
        role: 'staff',
        cwAccess: false,
      },
    }),
    expect: adminOnly(201),
  },
  'PATCH /api/users/{id}': {
    build: ({ world }) => ({ path: { id: world.patchableUserId }, body: { name: 'Pat Patched' } }),
    expect: adminOnly(200),
  },

  'POST /api/users/{id}/end-sessions': {
    build: ({ world }) => ({ path: { id: world.patchableUserId } }),
    expect: adminOnly(204),
  },

  // chat
  'GET /api/dossiers/{id}/messages': {
    build: (ctx) => ({ path: { id: id(ctx).dossierId }, query: { limit: '20' } }),
    expect: readable(),
  },

  // notifications: everyone has their own; another's is as missing as none
  'GET /api/notifications': { build: () => ({ query: { limit: '10' } }), expect: listOther },
  'POST /api/notifications/{id}/read': {
    build: async (ctx) => ({ path: { id: await freshNotification(ctx) } }),
    expect: readable(200),
  },
  'POST /api/notifications/read-all': {
    build: async (ctx) => ({ body: { upTo: await freshNotification(ctx) } }),
    expect: readable(200),
  },

  // container events
  'POST /api/container-events': {
    build: (ctx) => ({ body: gateIn(id(ctx).containerNumber, { eventDateTime: '2026-03-02T09:00:00Z' }) }),
    // Staff may enter events by hand; integrations use their API key (not a role here).
    expect: staffOnly(201),
  },
  'POST /api/container-events/import': {
    build: (ctx) => ({
      query: { mode: 'preview' },
      raw: {
        contentType: 'text/csv',
        payload: `eventType,eventClassifierCode,equipmentEventTypeCode,equipmentReference,eventDateTime,UNLocationCode\r\nEQUIPMENT,ACT,GTOT,${id(ctx).containerNumber},2026-03-03T10:00:00Z,NLRTM\r\n`,
      },
    }),
    expect: staffOnly(200),
  },
  'GET /api/container-events/unlinked': {
    build: () => ({ query: { pageSize: '5', sort: '-receivedAt' } }),
    expect: staffOnly(200),
  },
  'GET /api/container-events/{id}': { build: ownRecord('eventId'), expect: readable() },
  'POST /api/container-events/{id}/link': {
    build: async (ctx) => {
      const r = id(ctx);
      return {
        path: { id: await ctx.world.freshEvent(containerNumber('DDD', nextSerial())) },
        body: { dossierId: r.dossierNumber },
      };
    },
    expect: staffOnly(200),
  },
  'GET /api/container-events/{id}/history': { build: ownRecord('eventId'), expect: readable() },
  'GET /api/containers': {
    build: (ctx) => ({ query: { q: id(ctx).containerNumber.slice(0, 4), pageSize: '5' } }),
    expect: listOther,
  },
  'GET /api/containers/{containerNumber}/events': {
    build: (ctx) => ({ path: { containerNumber: id(ctx).containerNumber }, query: { limit: '50' } }),
    // A timeline by number: another party's container reads as one with no events (as an unknown
    // number does), so the answer is 200 and the leak checks make sure it is empty.
    expect: { ...readable(), customerOther: 200 },
  },
  'GET /api/dossiers/{id}/events': {
    build: (ctx) => ({ path: { id: id(ctx).dossierId }, query: { limit: '50' } }),
    expect: readable(),
  },

  // integration keys
  'POST /api/integration-keys': {
    build: () => ({ body: { name: `feed ${nextSerial()}` } }),
    expect: adminOnly(201),
  },
  'GET /api/integration-keys': { build: () => ({}), expect: adminOnly(200) },
  'DELETE /api/integration-keys/{id}': {
    build: async ({ world }) => {
      const k = await world.send(
        'POST',
        '/api/integration-keys',
        { body: { name: 'to revoke' } },
        world.admin,
      );
      return { path: { id: (k.json as Json).id as string } };
    },
    expect: adminOnly(204),
  },

  // documents
  'GET /api/documents/limits': {
    build: () => ({}),
    expect: { ...AUTH_ONLY, customerOwn: 200, customerOther: 200, staff: 200, admin: 200 },
  },
  'POST /api/documents': {
    build: (ctx) => ({
      form: {
        fields: {
          recordType: 'dossier',
          recordId: id(ctx).dossierId,
          documentType: 'packing_list',
          visibleToCustomer: 'true',
        },
        files: [{ filename: `packing-${nextSerial()}.pdf`, content: minimalPdf(`packing ${nextSerial()}`) }],
      },
    }),
    expect: staffOnly(201),
  },
  'GET /api/documents': {
    build: (ctx) => ({ query: { dossierId: id(ctx).dossierId, pageSize: '10', sort: '-uploadedAt' } }),
    // Filtering by another party's dossier: that dossier is not found.
    expect: readable(),
  },
  'GET /api/dossiers/{id}/documents': {
    build: (ctx) => ({ path: { id: id(ctx).dossierId }, query: { pageSize: '10' } }),
    expect: readable(),
  },
  'GET /api/documents/{id}': { build: ownRecord('documentId'), expect: readable() },
  'PATCH /api/documents/{id}': {
    build: ownEdit('documents', 'documentId', { documentType: 'bill_of_lading' }),
    expect: staffOnlyRecord(200),
  },
  'DELETE /api/documents/{id}': {
    build: async (ctx) => ({ path: { id: await ctx.world.freshDocument(ctx.owner) } }),
    expect: staffOnlyRecord(204),
  },
  'GET /api/documents/{id}/content': {
    build: (ctx) => ({ path: { id: id(ctx).documentId }, query: { inline: '1' } }),
    expect: readable(),
  },
  'GET /api/documents/{id}/history': { build: ownRecord('documentId'), expect: readable() },

  // transports
  'GET /api/transports': {
    build: (ctx) => ({ query: { dossierId: id(ctx).dossierId, pageSize: '10' } }),
    expect: listOther,
  },
  'POST /api/transports': {
    build: (ctx) => ({
      body: {
        mode: 'road',
        dossierId: id(ctx).dossierId,
        carrierId: ctx.world.carrierId,
        pickupLocode: 'NLRTM',
        pickupFrom: '2026-03-26T08:00:00Z',
        pickupTo: '2026-03-26T12:00:00Z',
        deliveryLocode: 'DEDUS',
        containers: [id(ctx).containerNumber],
      },
    }),
    expect: staffOnly(201),
  },
  'GET /api/planning': {
    build: () => ({ query: { from: '2026-03-01', to: '2026-03-31', tz: 'Europe/Amsterdam', limit: '50' } }),
    // The board and its flags are internal planning: customers follow their legs on /transports.
    expect: staffOnly(200),
  },
  'GET /api/transports/{id}': { build: ownRecord('transportId'), expect: readable() },
  'PATCH /api/transports/{id}': {
    build: ownEdit('transports', 'transportId', { driverName: 'Dirk Driver' }),
    expect: staffOnlyRecord(200),
  },
  'POST /api/transports/{id}/transitions': {
    build: async (ctx) => {
      const t = await ctx.world.freshTransport(ctx.owner);
      return { path: { id: t.id }, body: { to: 'dispatched', version: t.version } };
    },
    // A customer's legs offer no transitions (allowedTransitions is empty): every move is a 409.
    expect: { ...staffOnly(200), customerOwn: 409, customerOther: 404 },
  },
  'GET /api/transports/{id}/history': { build: ownRecord('transportId'), expect: readable() },

  // sales offers: a customer sees their party's offers once sent (drafts are as missing: 404)
  'GET /api/sales-offers': {
    build: (ctx) => ({ query: { customerId: id(ctx).partyId, status: 'sent,accepted', sort: 'validUntil' } }),
    expect: listOther,
  },
  'GET /api/sales-offers/export': {
    build: (ctx) => ({ query: { customerId: id(ctx).partyId, format: 'csv' } }),
    expect: listOther,
  },
  'POST /api/sales-offers': {
    build: (ctx) => ({
      body: {
        customerId: id(ctx).partyId,
        validUntil: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        mode: 'road',
        packages: 4,
        grossWeightKg: '1200.5',
        lines: [
          {
            chargeCode: 'HANDLING',
            description: 'Handling',
            quantity: '2.5',
            unit: 'HUR',
            unitPrice: '65.25',
            currency: 'EUR',
            vatCode: 'S',
            vatRate: '21',
          },
        ],
      },
    }),
    expect: staffOnly(201),
  },
  'GET /api/sales-offers/{id}': { build: onRecord(freshOffer, 'sent'), expect: readable() },
  'PATCH /api/sales-offers/{id}': {
    build: async (ctx) => {
      const o = await freshOffer(ctx, 'draft');
      return { path: { id: o.id }, body: { contactName: 'Carla Contact', version: o.version } };
    },
    expect: { ...staffOnly(200), customerOwn: 404, customerOther: 404 },
  },
  'DELETE /api/sales-offers/{id}': {
    build: onRecord(freshOffer, 'draft'),
    expect: { ...staffOnly(204), customerOwn: 404, customerOther: 404 },
  },
  'POST /api/sales-offers/{id}/transitions': {
    build: async (ctx) => {
      const o = await freshOffer(ctx, 'sent');
      return { path: { id: o.id }, body: { to: 'rejected', version: o.version } };
    },
    // Rejecting (or accepting) a sent offer is the customer's answer: their own party's only.
    expect: { ...readable(), customerOther: 404 },
  },
  'GET /api/sales-offers/{id}/pdf': { build: onRecord(freshOffer, 'sent'), expect: readable() },
  'GET /api/sales-offers/{id}/history': { build: onRecord(freshOffer, 'sent'), expect: readable() },
  // sales invoices
  'GET /api/sales-invoices': { build: ownersList('customerId', '-updatedAt'), expect: listOther },
  'GET /api/sales-invoices/export': { build: ownersExport('customerId'), expect: listOther },
  'POST /api/sales-invoices': {
    build: (ctx) => ({ body: draftBody(id(ctx).partyId, { buyerReference: `PO-${nextSerial()}` }) }),
    expect: staffOnly(201),
  },
  'GET /api/sales-invoices/{id}': { build: onRecord(issuedInvoice), expect: readable() },
  'PATCH /api/sales-invoices/{id}': {
    build: async (ctx) => {
      const d = await freshInvoice(ctx, false);
      return { path: { id: d.id }, body: { version: d.version, buyerReference: 'PO-4711' } };
    },
    expect: staffDraft(200),
  },
  'DELETE /api/sales-invoices/{id}': {
    build: async (ctx) => ({ path: { id: (await freshInvoice(ctx, false)).id } }),
    expect: staffDraft(204),
  },
  'POST /api/sales-invoices/{id}/issue': {
    build: async (ctx) => {
      const d = await freshInvoice(ctx, false);
      return { path: { id: d.id }, body: { version: d.version } };
    },
    expect: staffDraft(200),
  },
  'POST /api/sales-invoices/{id}/credit-notes': {
    build: async (ctx) => {
      const i = await freshInvoice(ctx, true);
      return { path: { id: i.id }, body: { version: i.version } };
    },
    expect: staffOnlyRecord(201),
  },
  'POST /api/sales-invoices/{id}/payments': {
    build: async (ctx) => ({
      path: { id: (await freshInvoice(ctx, true)).id },
      body: { paidOn: todayIn(), amount: '10.00', reference: 'Bank 4711' },
    }),
    expect: staffOnlyRecord(201),
  },
  'DELETE /api/sales-invoices/{id}/payments/{paymentId}': {
    build: async (ctx) => {
      const i = await freshInvoice(ctx, true);
      const paid = await ctx.world.send(
        'POST',
        '/api/sales-invoices/{id}/payments',
        { path: { id: i.id }, body: { paidOn: todayIn(), amount: '10.00' } },
        ctx.world.staff,
      );
      const payments = (paid.json as { payments: { id: string }[] }).payments;
      return { path: { id: i.id, paymentId: payments[0]?.id as string }, body: { reason: 'Booked twice' } };
    },
    expect: staffOnlyRecord(200),
  },
  'GET /api/sales-invoices/{id}/pdf': { build: onRecord(issuedInvoice), expect: readable() },
  'GET /api/sales-invoices/{id}/ubl': { build: onRecord(issuedInvoice), expect: readable() },
  'GET /api/sales-invoices/{id}/history': { build: onRecord(issuedInvoice), expect: readable() },
  // customs declarations
  'GET /api/declarations': { build: ownersList('customerId', '-updatedAt'), expect: listOther },
  'GET /api/declarations/export': { build: ownersExport('customerId'), expect: listOther },
  'POST /api/declarations': {
    build: (ctx) => ({ body: { type: 'import', customerId: id(ctx).partyId } }),
    expect: staffOnly(201),
  },
  'GET /api/declarations/{id}': { build: onRecord(lodgedDeclaration), expect: readable() },
  'PATCH /api/declarations/{id}': {
    build: versioned(freshDeclaration, 'draft', { locationOfGoods: 'NLRTMECTDELTA' }),
    expect: staffDraft(200),
  },
  'DELETE /api/declarations/{id}': { build: onRecord(freshDeclaration, 'draft'), expect: staffDraft(204) },
  'POST /api/declarations/{id}/lodge': {
    build: versioned(freshDeclaration, 'draft'),
    expect: staffDraft(200),
  },
  'POST /api/declarations/{id}/amend': {
    build: async (ctx) => {
      const d = await freshDeclaration(ctx, 'accepted');
      return {
        path: { id: d.id },
        body: { version: d.version, reason: 'Location corrected', changes: { locationOfGoods: 'NLRTMAPMT' } },
      };
    },
    expect: staffOnlyRecord(200),
  },
  'POST /api/declarations/{id}/cancel': {
    build: versioned(freshDeclaration, 'lodged', { reason: 'Goods not shipped' }),
    expect: staffOnlyRecord(200),
  },
  'GET /api/declarations/{id}/messages': { build: onRecord(lodgedDeclaration), expect: readable() },
  'GET /api/declarations/{id}/messages/{messageId}/xml': {
    build: async (ctx) => {
      const m = await declarationXmlMessage(ctx);
      return { path: { id: m.id, messageId: m.messageId } };
    },
    expect: readable(),
  },
  'GET /api/declarations/{id}/history': { build: onRecord(lodgedDeclaration), expect: readable() },
  'GET /api/shipments': { build: ownersList('ownerId', '-createdAt'), expect: warehouseRead },
  'GET /api/shipments/export': { build: ownersExport('ownerId'), expect: warehouseRead },
  'POST /api/shipments': {
    build: async (ctx) => {
      await ownerStock(ctx);
      return { body: { ownerId: id(ctx).partyId, lines: [{ sku: 'MATRIX-U', quantity: 1 }] } };
    },
    // A customer orders from their own stock only: another party's owner is refused on the field.
    expect: { ...warehouseOwnWrite(201), customerOther: 422 },
  },
  'GET /api/shipments/{id}': { build: onRecord(readShipment), expect: warehouseRead },
  'PATCH /api/shipments/{id}': {
    build: versioned(freshShipment, 'draft', { customerReference: 'PO-EDITED' }),
    expect: warehouseOwnWrite(200),
  },
  'DELETE /api/shipments/{id}': { build: onRecord(freshShipment, 'draft'), expect: warehouseOwnWrite(204) },
  'POST /api/shipments/{id}/transitions': {
    build: async (ctx) => {
      const s = await freshShipment(ctx, 'draft');
      return { path: { id: s.id }, body: { to: 'released', version: s.version } };
    },
    expect: warehouseRecordWrite(200),
  },
  'POST /api/shipments/{id}/picks': {
    build: async (ctx) => {
      const s = await freshShipment(ctx, 'released');
      const p = await ctx.world.send(
        'POST',
        '/api/shipments/{id}/transitions',
        { path: { id: s.id }, body: { to: 'picking', version: s.version } },
        ctx.world.admin,
      );
      if (p.status !== 200) throw new Error(`world: start picking answered ${p.status} ${p.text}`);
      const picking = p.json as { version: number; lines: { allocations: { id: string }[] }[] };
      const allocationIds = picking.lines.flatMap((l) => l.allocations.map((a) => a.id));
      return { path: { id: s.id }, body: { allocationIds, picked: true, version: picking.version } };
    },
    expect: warehouseRecordWrite(200),
  },
  'POST /api/shipments/{id}/declaration': {
    build: versioned(freshShipment, 'released'),
    expect: warehouseRecordWrite(201),
  },
  'GET /api/shipments/{id}/history': { build: onRecord(readShipment), expect: warehouseRead },
  // customs warehouse: receipts and stock
  'GET /api/stock-receipts': { build: ownersList('ownerId', '-receivedOn'), expect: warehouseRead },
  'GET /api/stock-receipts/export': { build: ownersExport('ownerId'), expect: warehouseRead },
  'POST /api/stock-receipts': {
    build: (ctx) => ({
      body: {
        ownerId: id(ctx).partyId,
        receivedOn: '2026-10-02',
        customsStatus: 'union',
        lines: [{ sku: 'SKU-NEW', description: 'Cables', quantity: 10, location: 'RTM1-A-02-01' }],
      },
    }),
    expect: warehouseWrite(201),
  },
  'GET /api/stock-receipts/{id}': { build: onRecord(aReceipt), expect: warehouseRead },
  'GET /api/stock': {
    build: async (ctx) => {
      await aReceipt(ctx);
      return { query: { ownerId: id(ctx).partyId, sort: 'sku', pageSize: '5' } };
    },
    expect: warehouseRead,
  },
  'GET /api/stock/export': {
    build: async (ctx) => {
      await aReceipt(ctx);
      return { query: { format: 'csv', ownerId: id(ctx).partyId } };
    },
    expect: warehouseRead,
  },
  'GET /api/stock/availability': {
    build: async (ctx) => {
      await aReceipt(ctx);
      return { query: { ownerId: id(ctx).partyId, q: 'sku' } };
    },
    expect: warehouseRead,
  },
  'GET /api/stock/{id}': {
    build: async (ctx) => ({ path: { id: (await aReceipt(ctx)).stockId } }),
    expect: warehouseRead,
  },
  'GET /api/stock/{id}/tree': {
    build: async (ctx) => ({ path: { id: (await aReceipt(ctx)).stockId } }),
    expect: warehouseRead,
  },
  'GET /api/stock/{id}/movements': {
    build: async (ctx) => ({ path: { id: (await aReceipt(ctx)).stockId }, query: { pageSize: '5' } }),
    expect: warehouseRead,
  },
  'POST /api/stock/{id}/movements': {
    build: async (ctx) => {
      const r = await freshReceipt(ctx);
      return {
        path: { id: r.stockId },
        body: { kind: 'transfer', version: r.stockVersion, toLocation: 'RTM1-B-03-01' },
      };
    },
    expect: warehouseRecordWrite(201),
  },
  'GET /api/stock/{id}/history': {
    build: async (ctx) => ({ path: { id: (await aReceipt(ctx)).stockId } }),
    expect: warehouseRead,
  },

  // ---- dashboard (dashboard-api): each user's own figures; the per-card 403/404 rules in dashboard.test.ts
  'GET /api/dashboard': { build: () => ({}), expect: listOther },
  'GET /api/dashboard/{card}': {
    build: () => ({ path: { card: 'dossiers' }, query: { tz: 'Europe/Amsterdam' } }),
    expect: listOther,
  },

  // ---- global search (search-api) ------------------------------------------------------------------
  // Everyone signed in searches; a customer's answer is scoped to their party (200 either way).
  'GET /api/search': { build: (ctx) => ({ query: { q: id(ctx).partyCode, limit: '5' } }), expect: listOther },
};

/** `METHOD /path/{param}` of every operation in the app's OpenAPI document. */
export function openApiOperations(app: App): { key: string; method: string; path: string; op: Json }[] {
  const doc = app.swagger() as unknown as { paths: Record<string, Record<string, Json>> };
  const out: { key: string; method: string; path: string; op: Json }[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      out.push({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, op });
    }
  }
  return out;
}

/** Fails with the keys that have no entry (or an entry but no operation). */
export function registryGaps(app: App): { missing: string[]; stale: string[] } {
  const keys = openApiOperations(app).map((o) => o.key);
  return {
    missing: keys.filter((k) => !OPERATIONS[k]).map((k) => `operation ${k} has no entry in operations.ts`),
    stale: Object.keys(OPERATIONS)
      .filter((k) => !keys.includes(k))
      .map((k) => `operations.ts has an entry for ${k}, which the OpenAPI document does not list`),
  };
}
