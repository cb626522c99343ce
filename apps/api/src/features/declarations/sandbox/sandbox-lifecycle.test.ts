import { randomUUID } from 'node:crypto';
import { makeMrn, mrnProblem } from '@fvg/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../../app.ts';
import type { SandboxConfig } from '../../../config.ts';
import { validateNcts } from '../../../ncts/validate.ts';
import { type Auth, apiTest } from '../../../test/api-test.ts';
import {
  createTestApp,
  demoTokens,
  hubClients,
  type Json,
  listenForHub,
  nextEvent,
  waitUntil,
} from '../../../test/helpers.ts';
import { content, declarations, hurry, LATER, type Message, sandbox } from './test-support.ts';

const { db, partyId } = apiTest({ app: false });
let app: App | undefined;
let staff: Auth;
const api = declarations(
  () => app as App,
  () => staff,
);

/** An app with the job worker on and the sandbox set as given; closed after each test. */
async function start(settings: SandboxConfig): Promise<App> {
  app = await createTestApp(db, { jobsEnabled: true, sandbox: settings });
  ({ staff } = await demoTokens(app));
  return app;
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

const kinds = (log: Message[]) => log.map((m) => `${m.direction} ${m.kind}`);

/** Every message is labelled, carries the sandbox flag, and the log reads in time order. */
function expectWellFormedLog(log: Message[]) {
  for (const m of log) {
    expect(m.sandbox).toBe(true);
    expect(m.summary).toMatch(/^Sandbox authority — not a real customs lodgement: /);
  }
  const times = log.map((m) => Date.parse(m.at));
  expect(times.every((t) => Number.isFinite(t))).toBe(true);
  expect([...times].sort((a, b) => a - b)).toEqual(times);
}

/** The MRN is well formed for the type, the country of the office of lodgement and the lodging year. */
function expectMrn(d: Json, type: 'import' | 'export' | 'transit', letter: string) {
  const mrn = d.mrn as string;
  expect(mrnProblem(mrn, type)).toBeUndefined();
  expect(mrn.slice(0, 2)).toBe(
    String(new Date(d.lodgedAt as string).getUTCFullYear() % 100).padStart(2, '0'),
  );
  expect(mrn.slice(2, 4)).toBe('NL');
  expect(mrn.slice(4, 7)).toBe('SBX');
  expect(mrn[16]).toBe(letter);
}

describe('import', () => {
  it('is accepted with an MRN and released', async () => {
    await start(sandbox());
    const id = await api.lodged(content('import', partyId.ACME));
    const d = await api.until(id, 'released');
    expectMrn(d, 'import', 'R');
    expect(d.acceptedAt).toEqual(expect.any(String));
    expect(d.releasedAt).toEqual(expect.any(String));
    expect(d.rejection).toEqual([]);
    expect(d.lastMessage).toEqual({ kind: 'released', at: expect.any(String) });
    const log = await api.messages(id);
    expect(kinds(log)).toEqual(['sent lodge', 'received accepted', 'received released']);
    expectWellFormedLog(log);
    expect(log[0]?.by?.name).toEqual(expect.any(String));
    expect(log[1]?.by).toBeNull();
    expect(log[1]?.mrn).toBe(d.mrn);
    expect(log[1]?.summary).toContain(`MRN ${d.mrn as string} allocated`);
    // The history names no user for the authority's steps.
    const history = await api.call('GET', `/declarations/${id}/history`, staff);
    const entries = JSON.parse(history.raw) as {
      action: string;
      actor: unknown;
      changes: { field: string; to: unknown }[];
    }[];
    const accepted = entries.find((e) => e.action === 'accepted');
    expect(accepted?.actor).toBeNull();
    expect(accepted?.changes).toEqual(
      expect.arrayContaining([
        { field: 'status', from: 'lodged', to: 'accepted' },
        { field: 'mrn', from: null, to: d.mrn },
      ]),
    );
  });

  it('is refused before lodging for what the rules decide: nothing reaches the sandbox (ADR 0047)', async () => {
    await start(sandbox());
    for (const [over, field] of [
      [{ invoiceTotal: '1200.00' }, 'invoiceTotal'],
      [{ officeOfLodgement: 'US000123' }, 'officeOfLodgement'],
    ] as const) {
      const d = await api.create({ ...content('import', partyId.ACME), ...over });
      const r = await api.call('POST', `/declarations/${d.id as string}/lodge`, staff, {
        version: d.version,
      });
      expect(r.status, r.raw).toBe(422);
      expect((r.body.errors as { field: string }[]).map((e) => e.field)).toEqual([field]);
      expect(await api.messages(d.id as string)).toEqual([]);
    }
  });

  it('is rejected with the rule, its text and field, and no MRN, when the content changed after the check', async () => {
    await start(sandbox({ delays: { accept: LATER } }));
    const id = await api.lodged(content('import', partyId.ACME));
    // What the API checked is not what the authority receives (a change made meanwhile).
    await db.db.updateTable('declarations').set({ invoice_total: '1200.00' }).where('id', '=', id).execute();
    const lodge = (await api.messages(id)).find((m) => m.kind === 'lodge')?.id as string;
    await hurry(db, id, 'accept', lodge);
    const d = await api.until(id, 'rejected');
    expect(d.mrn).toBeNull();
    expect(d.rejection).toEqual([
      {
        code: 'SBX-R305',
        text: "Invoice total 1,200.00 EUR differs from the sum of the items' invoice values, 1,000.00 EUR (Annex B, DE 4/11 and 4/14)",
        field: 'invoiceTotal',
      },
    ]);
    const log = await api.messages(id);
    expect(kinds(log)).toEqual(['sent lodge', 'received rejected']);
    expect(log[1]?.rules).toEqual(d.rejection);
    expect(log[1]?.summary).toContain('SBX-R305');
    expectWellFormedLog(log);
  });

  it('is controlled and then released, or controlled and not released', async () => {
    await start(sandbox({ controlPercent: 100, notReleasedPercent: 0 }));
    const released = await api.lodged(content('import', partyId.ACME));
    await api.until(released, 'released');
    expect(kinds(await api.messages(released))).toEqual([
      'sent lodge',
      'received accepted',
      'received under_control',
      'received released',
    ]);
    await app?.close();

    await start(sandbox({ controlPercent: 100, notReleasedPercent: 100 }));
    const refused = await api.lodged(content('import', partyId.ACME));
    const d = await api.until(refused, 'not_released');
    expect(d.releasedAt).toBeNull();
    const log = await api.messages(refused);
    expect(kinds(log)).toEqual([
      'sent lodge',
      'received accepted',
      'received under_control',
      'received not_released',
    ]);
    expectWellFormedLog(log);
  });
});

describe('export', () => {
  it('is released and its exit confirmed (the zero-rated VAT proof)', async () => {
    await start(sandbox());
    const id = await api.lodged(content('export', partyId.ACME));
    const d = await api.until(id, 'exited');
    expectMrn(d, 'export', 'A');
    expect(d.exitedAt).toEqual(expect.any(String));
    expect(Date.parse(d.exitedAt as string)).toBeGreaterThanOrEqual(Date.parse(d.releasedAt as string));
    const log = await api.messages(id);
    expect(kinds(log)).toEqual([
      'sent lodge',
      'received accepted',
      'received released',
      'received exit_confirmed',
    ]);
    expect(log[3]?.summary).toContain('zero-rated export VAT');
    expectWellFormedLog(log);
  });
});

describe('transit', () => {
  it('is lodged as the IE015 NCTS receives: stored as sent, valid, downloadable by who may read it', async () => {
    const running = await start(sandbox({ delays: { accept: LATER } }));
    const { acme, globex } = await demoTokens(running);
    const id = await api.lodged(content('transit', partyId.ACME));
    const log = await api.messages(id);
    expect(log.map((m) => [m.direction, m.kind, m.xml])).toEqual([['sent', 'lodge', 'IE015']]);
    const messageId = log[0]?.id as string;
    const url = `/declarations/${id}/messages/${messageId}/xml`;
    const r = await api.call('GET', url, staff);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/xml/);
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="LRN-\d{4}-\d{6}-IE015.xml"$/);
    expect(await validateNcts(r.raw)).toEqual({ messageType: 'cc015c', valid: true, errors: [] });
    const d = await api.get(id);
    expect(r.raw).toContain(`<LRN>${d.lrn as string}</LRN>`);
    // The declaration's customer reads it as the staff do; another party's is a 404 like a missing one.
    expect((await api.call('GET', url, acme)).raw).toBe(r.raw);
    expect((await api.call('GET', url, globex)).status).toBe(404);
    expect((await api.call('GET', `/declarations/${id}/messages/${randomUUID()}/xml`, staff)).status).toBe(
      404,
    );
    // An import's lodgement is sent as data, not as NCTS XML: nothing to download.
    const imported = await api.lodged(content('import', partyId.ACME));
    const [lodge] = await api.messages(imported);
    expect(lodge?.xml).toBeNull();
    const none = await api.call('GET', `/declarations/${imported}/messages/${lodge?.id}/xml`, staff);
    expect(none.status).toBe(404);
    expect(none.body.detail).toBe('This message has no XML');
  });

  it('is released, arrives and is discharged', async () => {
    await start(sandbox());
    const id = await api.lodged(content('transit', partyId.ACME));
    const d = await api.until(id, 'discharged');
    expectMrn(d, 'transit', 'J');
    expect(d.arrivedAt).toEqual(expect.any(String));
    expect(d.dischargedAt).toEqual(expect.any(String));
    const log = await api.messages(id);
    expect(kinds(log)).toEqual([
      'sent lodge',
      'received accepted',
      'received released',
      'received arrived',
      'received discharged',
    ]);
    expect(log[3]?.summary).toContain('CH001234');
    expectWellFormedLog(log);
  });

  it('is refused before lodging when its guarantee does not cover the duties at stake', async () => {
    await start(sandbox());
    const d = await api.create({ ...content('transit', partyId.ACME), guaranteeAmount: '728.00' });
    const r = await api.call('POST', `/declarations/${d.id as string}/lodge`, staff, { version: d.version });
    expect(r.status, r.raw).toBe(422);
    expect((r.body.errors as { field: string }[]).map((e) => e.field)).toEqual(['guaranteeAmount']);
  });
});

describe('amendments', () => {
  it('are accepted while the declaration is accepted: the changes are applied', async () => {
    // The control step waits, so the declaration stays accepted while the amendment is answered.
    await start(sandbox({ delays: { control: LATER } }));
    const id = await api.lodged(content('import', partyId.ACME));
    await api.until(id, 'accepted');
    await api.act(id, 'amend', {
      reason: 'The goods are at another terminal',
      changes: { locationOfGoods: 'NLRTM APM 2' },
    });
    const log = await api.heard(id, 'amendment_accepted');
    const d = await api.until(id, 'accepted', 'accepted without a pending request');
    expect(d.locationOfGoods).toBe('NLRTM APM 2');
    expect(d.lastMessage).toEqual({ kind: 'amendment_accepted', at: expect.any(String) });
    expect(kinds(log)).toEqual([
      'sent lodge',
      'received accepted',
      'sent amendment_request',
      'received amendment_accepted',
    ]);
    expect(log[2]?.summary).toContain('The goods are at another terminal');
    expectWellFormedLog(log);

    // The content after the change passes the same rules before it is sent, items included.
    const before = (await api.get(id)).version;
    const refused = await api.call('POST', `/declarations/${id}/amend`, staff, {
      version: before,
      reason: 'Entered at another office',
      changes: {
        officeOfExitEntry: 'US000001',
        items: [{ ...(content('import', partyId.ACME).items as Json[])[0], commodityCode: '84713000' }],
      },
    });
    expect(refused.status, refused.raw).toBe(422);
    expect((refused.body.errors as { field: string }[]).map((e) => e.field)).toEqual([
      'changes.officeOfExitEntry',
    ]);
    expect((await api.until(id, 'accepted', 'accepted again')).officeOfExitEntry).toBe('NL000396');
  });

  it('are rejected by the rule when the control came before the answer, and the changes are not applied', async () => {
    // The API refuses an amendment under control (UCC art. 173(1)); one asked while accepted meets
    // the control when the authority answers it.
    await start(sandbox({ controlPercent: 100, delays: { control: LATER, answer: LATER, release: LATER } }));
    const id = await api.lodged(content('import', partyId.ACME));
    await api.until(id, 'accepted');
    await api.act(id, 'amend', { reason: 'Typo in the place', changes: { locationOfGoods: 'NLRTM APM 2' } });
    const sent = await api.messages(id);
    const lodge = sent.find((m) => m.kind === 'lodge')?.id as string;
    const request = sent.find((m) => m.kind === 'amendment_request')?.id as string;
    await hurry(db, id, 'control', lodge);
    await api.heard(id, 'under_control');
    await hurry(db, id, 'answer', request);
    const log = await api.heard(id, 'amendment_rejected');
    const d = await api.until(id, 'under_control', 'under control without a pending request');
    expect(d.locationOfGoods).toBe('NLRTM ECT Delta');
    expect(log.at(-1)?.rules).toEqual([
      {
        code: 'SBX-R401',
        text: 'The goods are being examined; amendments wait for the control result',
        field: null,
      },
    ]);
  });
});

describe('cancellation', () => {
  it('is accepted before release: the declaration is cancelled and its chain stops', async () => {
    await start(sandbox({ delays: { control: LATER } }));
    const id = await api.lodged(content('import', partyId.ACME));
    await api.until(id, 'accepted');
    await api.act(id, 'cancel', { reason: 'The order was withdrawn' });
    await api.until(id, 'cancelled');
    const log = await api.messages(id);
    expect(kinds(log)).toEqual([
      'sent lodge',
      'received accepted',
      'sent cancellation_request',
      'received cancellation_accepted',
    ]);
    // The control step that was waiting now finds a cancelled declaration and answers nothing.
    await app?.services.sandbox.runStep({
      declarationId: id,
      step: 'control',
      messageId: log[0]?.id as string,
    });
    expect(kinds(await api.messages(id))).toEqual(kinds(log));
    expect((await api.get(id)).status).toBe('cancelled');
  });

  it('is refused by the rule when the goods left the Union before the answer', async () => {
    await start(sandbox({ delays: { exit: LATER, answer: LATER } }));
    const id = await api.lodged(content('export', partyId.ACME));
    await api.until(id, 'released');
    await api.act(id, 'cancel', { reason: 'Buyer cancelled' });
    const sent = await api.messages(id);
    const lodge = sent.find((m) => m.kind === 'lodge')?.id as string;
    const request = sent.find((m) => m.kind === 'cancellation_request')?.id as string;
    // The main chain still runs while the request waits: the exit comes first, then the answer.
    await hurry(db, id, 'exit', lodge);
    await api.heard(id, 'exit_confirmed');
    await hurry(db, id, 'answer', request);
    const log = await api.heard(id, 'cancellation_rejected');
    const d = await api.until(id, 'exited', 'exited without a pending request');
    expect(d.pendingRequest).toBeNull();
    expect(log.at(-1)?.rules.map((r) => r.code)).toEqual(['SBX-R405']);
    expect(kinds(log)).toEqual([
      'sent lodge',
      'received accepted',
      'received released',
      'sent cancellation_request',
      'received exit_confirmed',
      'received cancellation_rejected',
    ]);
    expectWellFormedLog(log);
  });
});

describe('answers', () => {
  it('are given once: a step run again stores nothing', async () => {
    await start(sandbox());
    const id = await api.lodged(content('export', partyId.ACME));
    await api.until(id, 'exited');
    const log = await api.messages(id);
    const lodge = log[0]?.id as string;
    for (const step of ['accept', 'control', 'exit'] as const)
      await app?.services.sandbox.runStep({ declarationId: id, step, messageId: lodge });
    expect(await api.messages(id)).toEqual(log);
  });

  it('carrying an MRN that fails the check are refused, logged and leave the declaration lodged', async () => {
    // No worker: the test is the only one answering.
    app = await createTestApp(db, { jobsEnabled: false, sandbox: sandbox() });
    ({ staff } = await demoTokens(app));
    const id = await api.lodged(content('import', partyId.ACME));
    const lodge = (await api.messages(id))[0]?.id as string;
    const job = { declarationId: id, step: 'accept' as const, messageId: lodge };
    // A wrong check character, then an export letter on an import.
    const sound = makeMrn({ year: 26, country: 'NL', serial: 'TEST00000001', letter: 'R' });
    const wrongCheck = `${sound.slice(0, 17)}${sound[17] === '0' ? '1' : '0'}`;
    expect(await app.services.sandbox.receive(job, { kind: 'accepted', mrn: wrongCheck })).toBe(false);
    expect(await app.services.sandbox.receive(job, { kind: 'accepted', mrn: '25NL000000001234A0' })).toBe(
      false,
    );
    const d = await api.get(id);
    expect(d.status).toBe('lodged');
    expect(d.mrn).toBeNull();
    const log = await api.messages(id);
    expect(log.map((m) => m.rules.map((r) => `${r.code} ${r.field}`))).toEqual([
      [],
      ['SBX-E001 mrn'],
      ['SBX-E001 mrn'],
    ]);
    expect(log[1]?.summary).toContain('Answer refused');
    expect(log[1]?.rules[0]?.text).toMatch(/The check character should be/);
    expect(log[2]?.rules[0]?.text).toMatch(/Position 17 of an import MRN/);
    expect(log.every((m) => m.mrn === null)).toBe(true);
    expect((await api.get(id)).lastMessage).toEqual({ kind: 'lodge', at: expect.any(String) });
    // A sound answer still applies afterwards, once.
    expect(await app.services.sandbox.receive(job, { kind: 'accepted', mrn: sound })).toBe(true);
    expect(await app.services.sandbox.receive(job, { kind: 'accepted', mrn: sound })).toBe(false);
    expect(await api.get(id)).toMatchObject({ status: 'accepted', mrn: sound });
  });
});

describe('the hub', () => {
  it('tells staff and the declaration’s customer of every answer, and no other customer', async () => {
    const running = await start(sandbox());
    const url = await listenForHub(running);
    const hub = hubClients(() => url);
    try {
      const tokens = await demoTokens(running);
      type Change = { kind: string; id: string; action: string };
      const staffConn = await hub.connect(tokens.staff);
      const acmeConn = await hub.connect(tokens.acme);
      const globexConn = await hub.connect(tokens.globex);
      const globexHeard: Change[] = [];
      globexConn.on('RecordChanged', (c: Change) => globexHeard.push(c));
      const d = await api.create(content('import', partyId.ACME));
      const id = d.id as string;
      const staffHeard: Change[] = [];
      const acmeHeard: Change[] = [];
      staffConn.on('RecordChanged', (c: Change) => c.id === id && staffHeard.push(c));
      acmeConn.on('RecordChanged', (c: Change) => c.id === id && acmeHeard.push(c));
      await api.act(id, 'lodge');
      await api.until(id, 'released');
      // Lodged (the API), accepted and released (the authority).
      await waitUntil('three changes for staff', () => staffHeard.length >= 3);
      await waitUntil("the authority's two changes for the customer", () => acmeHeard.length >= 2);
      expect(acmeHeard.every((c) => c.kind === 'declaration' && c.action === 'updated')).toBe(true);
      // Globex hears of its own declaration; by then it would have heard of ACME's, in order.
      const own = await api.create(content('import', partyId.GLOBEX));
      const globexOwn = nextEvent<Change>(globexConn, 'RecordChanged', (c) => c.id === own.id, 15_000);
      await api.act(own.id as string, 'lodge');
      await globexOwn;
      expect(globexHeard.some((c) => c.id === id)).toBe(false);
    } finally {
      await hub.stopAll();
    }
  });
});
