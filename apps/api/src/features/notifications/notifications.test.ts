import type { NotificationPage, NotificationRecord } from '@fvg/contracts';
import type { HubConnection } from '@microsoft/signalr';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import { hubClients, type Json, listenForHub, nextEvent } from '../../test/helpers.ts';

/** Notifications end to end: raised with the fact, stored per user, pushed through the official client. */
const setup = apiTest();
const { db, call, tokens } = setup;
let url: string;
let acme2: { authorization: string };
let parties: Map<string, string>;
const hub = hubClients(() => url);
beforeAll(async () => {
  url = await listenForHub(setup.app);
  // A second user of Acme: a staff answer reaches every customer user of the party.
  acme2 = await setup.newUser({
    email: 'second@acme.example',
    name: 'Second Acme',
    role: 'customer',
    party: 'ACME',
    cwAccess: false,
  });
  const rows = await db.db.selectFrom('parties').select(['id', 'code']).execute();
  parties = new Map(rows.map((p) => [p.code, p.id]));
});

/** Everything `event` brings to `conn` from now on. */
function collect<T>(conn: HubConnection, event: string): T[] {
  const got: T[] = [];
  conn.on(event, (v: T) => got.push(v));
  return got;
}

async function dossier(code: string, extra: Json = {}) {
  const r = await call('POST', '/dossiers', tokens.staff, {
    type: 'import',
    mode: 'sea',
    customerId: parties.get(code) as string,
    ...extra,
  });
  expect(r.status).toBe(201);
  return r.body as { id: string; number: string; version: number };
}

async function list(auth: { authorization: string }, query = ''): Promise<NotificationPage> {
  const r = await call('GET', `/notifications${query}`, auth);
  expect(r.status).toBe(200);
  return r.body as unknown as NotificationPage;
}

/** A round trip on each connection, so anything sent to it before has arrived. */
async function settle(...conns: HubConnection[]) {
  await Promise.all(conns.map((c) => c.invoke('LeaveDossier', '00000000-0000-0000-0000-000000000000')));
}

describe('notifications', () => {
  it("a customer's chat message notifies all staff (no handler yet), stored and pushed to each; nobody else", async () => {
    const d = await dossier('ACME');
    const [staff, admin, acme, globex] = await Promise.all([
      hub.connect(tokens.staff),
      hub.connect(tokens.admin),
      hub.connect(tokens.acme),
      hub.connect(tokens.globex),
    ]);
    const acmeGot = collect(acme, 'Notification');
    const globexGot = collect(globex, 'Notification');
    const toStaff = nextEvent<NotificationRecord>(staff, 'Notification');
    const toAdmin = nextEvent<NotificationRecord>(admin, 'Notification');
    const before = (await list(tokens.staff)).unread;

    await acme.invoke('SendMessage', d.id, 'Where is my   container?\nThanks');

    const pushed = await toStaff;
    expect(pushed).toMatchObject({
      kind: 'chat-message',
      title: `New message on ${d.number}`,
      body: 'Carla Customer: Where is my container? Thanks',
      link: `/dossiers/${d.number}?tab=chat`,
      readAt: null,
    });
    // The same record is stored: the list has it first, the unread count went up by one.
    const page = await list(tokens.staff);
    expect(page.items[0]).toEqual(pushed);
    expect(page.unread).toBe(before + 1);
    // Each user has their own row.
    const adminNote = await toAdmin;
    expect(adminNote.id).not.toBe(pushed.id);
    expect((await list(tokens.admin)).items[0]?.id).toBe(adminNote.id);

    await settle(acme, globex);
    expect(acmeGot).toEqual([]);
    expect(globexGot).toEqual([]);
    expect((await list(tokens.acme)).items).toEqual([]);
    expect((await list(tokens.globex)).items).toEqual([]);
  });

  it('with a handler, only the handler hears of a customer message', async () => {
    const staffId = (await call('GET', '/me', tokens.staff)).body.id as string;
    const d = await dossier('ACME', { handlerId: staffId });
    const admin = await hub.connect(tokens.admin);
    const adminGot = collect(admin, 'Notification');
    const acme = await hub.connect(tokens.acme);
    await acme.invoke('SendMessage', d.id, 'For my handler');
    const mine = await list(tokens.staff);
    expect(mine.items[0]).toMatchObject({
      title: `New message on ${d.number}`,
      body: 'Carla Customer: For my handler',
    });
    await settle(admin);
    expect(adminGot).toEqual([]);
    expect((await list(tokens.admin)).items.some((n) => n.title === `New message on ${d.number}`)).toBe(
      false,
    );
  });

  it("staff's answer notifies every customer user of the dossier's party, never another party or the author", async () => {
    const d = await dossier('ACME');
    const [staff, acme, second, globex] = await Promise.all([
      hub.connect(tokens.staff),
      hub.connect(tokens.acme),
      hub.connect(acme2),
      hub.connect(tokens.globex),
    ]);
    const staffGot = collect(staff, 'Notification');
    const globexGot = collect(globex, 'Notification');
    const toAcme = nextEvent<NotificationRecord>(acme, 'Notification');
    const toSecond = nextEvent<NotificationRecord>(second, 'Notification');
    const staffBefore = (await list(tokens.staff)).unread;

    await staff.invoke('SendMessage', d.number, 'Your container is on the vessel.');

    expect(await toAcme).toMatchObject({
      title: `New message on ${d.number}`,
      body: 'Sam Staff: Your container is on the vessel.',
    });
    expect((await toSecond).title).toBe(`New message on ${d.number}`);
    await settle(staff, globex);
    expect(staffGot).toEqual([]);
    expect(globexGot).toEqual([]);
    expect((await list(tokens.staff)).unread).toBe(staffBefore);
    expect((await list(tokens.globex)).items).toEqual([]);
  });

  it("a customer's booking request notifies staff with a link to the new dossier", async () => {
    const staff = await hub.connect(tokens.staff);
    const globex = await hub.connect(tokens.globex);
    const globexGot = collect(globex, 'Notification');
    const toStaff = nextEvent<NotificationRecord>(
      staff,
      'Notification',
      (n) => n.kind === 'booking-requested',
    );
    const r = await call('POST', '/dossiers/bookings', tokens.acme, {
      type: 'import',
      mode: 'air',
      originLocode: 'CNSHA',
      destinationLocode: 'NLAMS',
      cargoDescription: 'Spare parts',
    });
    expect(r.status).toBe(201);
    const number = r.body.number as string;
    expect(await toStaff).toMatchObject({
      kind: 'booking-requested',
      title: `Booking request ${number}`,
      body: 'Acme Trading B.V. asks to book an air import (CNSHA → NLAMS).',
      link: `/dossiers/${number}`,
    });
    await settle(globex);
    expect(globexGot).toEqual([]);
    // The customer who asked is not told of their own request.
    expect((await list(tokens.acme)).items.some((n) => n.kind === 'booking-requested')).toBe(false);
  });

  it("read and read-all change the user's own rows only; another's id is a 404; other tabs hear the count", async () => {
    const d = await dossier('ACME');
    const acme = await hub.connect(tokens.acme);
    await acme.invoke('SendMessage', d.id, 'One');
    await acme.invoke('SendMessage', d.id, 'Two');
    const staffPage = await list(tokens.staff);
    const adminPage = await list(tokens.admin);
    const [newest, older] = staffPage.items as [NotificationRecord, NotificationRecord];
    expect([newest.body, older.body]).toEqual(['Carla Customer: Two', 'Carla Customer: One']);

    const otherTab = await hub.connect(tokens.staff);
    const told = nextEvent<{ unread: number }>(otherTab, 'NotificationsRead');
    const read = await call('POST', `/notifications/${older.id}/read`, tokens.staff);
    expect(read).toMatchObject({ status: 200, body: { unread: staffPage.unread - 1 } });
    expect(await told).toEqual({ unread: staffPage.unread - 1 });
    const after = await list(tokens.staff);
    expect(after.items.find((n) => n.id === older.id)?.readAt).toEqual(expect.any(String));
    expect(after.items.find((n) => n.id === newest.id)?.readAt).toBeNull();
    // Reading it again changes nothing.
    expect((await call('POST', `/notifications/${older.id}/read`, tokens.staff)).body).toEqual({
      unread: staffPage.unread - 1,
    });

    // Another user's notification, to staff and to a customer alike: as missing as none at all.
    for (const auth of [tokens.staff, tokens.globex]) {
      const r = await call('POST', `/notifications/${adminPage.items[0]?.id}/read`, auth);
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    expect((await list(tokens.admin)).unread).toBe(adminPage.unread);
    const bad = await call('POST', '/notifications/not-a-uuid/read', tokens.staff);
    expect(bad.status).toBe(400);
    expect((bad.body.errors as { field: string }[])[0]?.field).toBe('id');

    // Read-all up to the newest one seen: one that arrived after it stays unread.
    await acme.invoke('SendMessage', d.id, 'Three');
    const upTo = await call('POST', '/notifications/read-all', tokens.staff, { upTo: newest.id });
    expect(upTo.body).toEqual({ unread: 1 });
    expect((await list(tokens.staff)).items[0]).toMatchObject({
      body: 'Carla Customer: Three',
      readAt: null,
    });
    expect(
      (await call('POST', '/notifications/read-all', tokens.staff, { upTo: adminPage.items[0]?.id ?? '' }))
        .status,
    ).toBe(404);
    expect((await call('POST', '/notifications/read-all', tokens.staff, {})).body).toEqual({ unread: 0 });
    const all = await list(tokens.staff);
    expect(all.unread).toBe(0);
    expect(all.items.every((n) => n.readAt !== null)).toBe(true);
    // The admin's stay unread (with 'Three', one more).
    expect((await list(tokens.admin)).unread).toBe(adminPage.unread + 1);
  });

  it('pages newest first by keyset; a cursor works only for the user who got it', async () => {
    const d = await dossier('GLOBEX');
    const globex = await hub.connect(tokens.globex);
    for (const text of ['p1', 'p2', 'p3', 'p4', 'p5']) await globex.invoke('SendMessage', d.id, text);
    const first = await list(tokens.staff, '?limit=2');
    expect(first.items.map((n) => n.body)).toEqual(['Gus Globex: p5', 'Gus Globex: p4']);
    expect(first.next).toEqual(expect.any(String));
    const second = await list(tokens.staff, `?limit=2&after=${first.next}`);
    expect(second.items.map((n) => n.body)).toEqual(['Gus Globex: p3', 'Gus Globex: p2']);
    expect(second.unread).toBe(first.unread);

    const stolen = await call('GET', `/notifications?limit=2&after=${first.next}`, tokens.admin);
    expect(stolen.status).toBe(400);
    expect((stolen.body.errors as { field: string }[])[0]?.field).toBe('after');
    const tooMany = await call('GET', '/notifications?limit=1000', tokens.staff);
    expect(tooMany.status).toBe(400);
    expect((tooMany.body.errors as { field: string }[])[0]?.field).toBe('limit');
  });

  it("writing purges the recipients' read rows older than 90 days and any older than a year", async () => {
    const d = await dossier('ACME');
    const staffId = (await call('GET', '/me', tokens.staff)).body.id as string;
    const age = async (days: number, read: boolean) => {
      const r = await sql<{ id: string }>`
        insert into notifications (user_id, kind, title, body, created_at, read_at)
        values (${staffId}, 'chat-message', ${`aged ${days} ${read}`}, 'old', now() - make_interval(days => ${days}),
                ${read ? sql`now() - make_interval(days => ${days - 1})` : sql`null`})
        returning id`.execute(db.db);
      return r.rows[0]?.id as string;
    };
    const oldRead = await age(120, true);
    const recentRead = await age(30, true);
    const oldUnread = await age(120, false);
    const ancient = await age(400, false);
    const acme = await hub.connect(tokens.acme);
    await acme.invoke('SendMessage', d.id, 'Anything new?');
    const ids = new Set(
      (await db.db.selectFrom('notifications').select('id').where('user_id', '=', staffId).execute()).map(
        (r) => r.id,
      ),
    );
    expect([ids.has(oldRead), ids.has(recentRead), ids.has(oldUnread), ids.has(ancient)]).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('the dossier list carries the caller’s unread chat messages per row', async () => {
    const d = await dossier('ACME');
    const other = await dossier('ACME');
    const acme = await hub.connect(tokens.acme);
    await acme.invoke('SendMessage', d.id, 'first');
    const last = (await acme.invoke('SendMessage', d.id, 'second')) as { id: string };
    const row = async (auth: { authorization: string }, id: string) => {
      const r = await call('GET', '/dossiers?pageSize=100&sort=-createdAt', auth);
      expect(r.status).toBe(200);
      return (r.body.items as { id: string; unreadMessages: number }[]).find((x) => x.id === id);
    };
    expect((await row(tokens.staff, d.id))?.unreadMessages).toBe(2);
    expect((await row(tokens.staff, other.id))?.unreadMessages).toBe(0);
    // The author has read their own messages.
    expect((await row(tokens.acme, d.id))?.unreadMessages).toBe(0);
    const staff = await hub.connect(tokens.staff);
    await staff.invoke('MarkRead', d.id, last.id);
    expect((await row(tokens.staff, d.id))?.unreadMessages).toBe(0);
    expect((await row(tokens.admin, d.id))?.unreadMessages).toBe(2);
  });
});
