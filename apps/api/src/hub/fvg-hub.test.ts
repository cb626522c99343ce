import { type HubConnection, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiTest } from '../test/api-test.ts';
import { hubClients, listenForHub, nextEvent } from '../test/helpers.ts';

/** Our hub through the official client against the whole app on a loopback port. */
const setup = apiTest({ config: { hubKeepAliveMs: 1000, hubClientTimeoutMs: 3000 } });
const { tokens, partyId } = setup;
let url: string;
let acmeDossier: { id: string; number: string; version: number };
let globexDossier: { id: string; number: string };
const hub = hubClients(() => url, { reconnect: [0, 100, 200] });
beforeAll(async () => {
  url = await listenForHub(setup.app);
  const create = async (code: string) => {
    const res = await setup.app.inject({
      method: 'POST',
      url: '/api/dossiers',
      headers: tokens.staff,
      payload: { type: 'import', mode: 'sea', customerId: partyId[code] },
    });
    return res.json() as { id: string; number: string; version: number };
  };
  acmeDossier = await create('ACME');
  globexDossier = await create('GLOBEX');
});

const silence = async (conn: HubConnection, event: string, ms = 400) => {
  let got = false;
  const h = () => {
    got = true;
  };
  conn.on(event, h);
  await new Promise((r) => setTimeout(r, ms));
  conn.off(event, h);
  return !got;
};

describe('dossier chat on the hub', () => {
  it('staff and the customer chat live; messages are stored and readable over HTTP; read markers and unread counts follow', async () => {
    const staff = await hub.connect(tokens.staff);
    const customer = await hub.connect(tokens.acme);
    const joined = (await customer.invoke('JoinDossier', acmeDossier.number)) as {
      dossierId: string;
      users: { name: string }[];
    };
    expect(joined.dossierId).toBe(acmeDossier.id);
    const presence = nextEvent<{ dossierId: string; users: { name: string }[] }>(
      customer,
      'Presence',
      (p) => p.users.length === 2,
    );
    await staff.invoke('JoinDossier', acmeDossier.id);
    expect((await presence).users.map((u) => u.name)).toEqual(['Carla Customer', 'Sam Staff']);

    const received = nextEvent<{ text: string; author: { name: string } }>(customer, 'ReceiveMessage');
    const tricky = 'Container ready <b>not bold</b> & "quoted"\nsecond line \u001e';
    const sent = (await staff.invoke('SendMessage', acmeDossier.id, tricky)) as { id: string; text: string };
    expect(sent.text).toBe(tricky);
    expect(await received).toMatchObject({ text: tricky, author: { name: 'Sam Staff' } });

    const page = await setup.app.inject({
      method: 'GET',
      url: `/api/dossiers/${acmeDossier.id}/messages`,
      headers: tokens.acme,
    });
    expect(page.json()).toMatchObject({
      unread: 1,
      before: null,
      items: [{ id: sent.id, text: tricky, readBy: [] }],
    });

    await customer.invoke('MarkRead', acmeDossier.id, sent.id);
    const after = await setup.app.inject({
      method: 'GET',
      url: `/api/dossiers/${acmeDossier.number}/messages`,
      headers: tokens.acme,
    });
    const me = (await setup.app.inject({ method: 'GET', url: '/api/me', headers: tokens.acme })).json() as {
      id: string;
    };
    expect(after.json()).toMatchObject({ unread: 0, items: [{ readBy: [me.id] }] });

    const leave = nextEvent<{ users: unknown[] }>(staff, 'Presence', (p) => p.users.length === 1);
    await customer.invoke('LeaveDossier', acmeDossier.id);
    expect((await leave).users).toHaveLength(1);
  });

  it('refuses empty and over-long messages with a clear hub error', async () => {
    const staff = await hub.connect(tokens.staff);
    await expect(staff.invoke('SendMessage', acmeDossier.id, '   ')).rejects.toThrow(
      'A message cannot be empty',
    );
    await expect(staff.invoke('SendMessage', acmeDossier.id, 'x'.repeat(4001))).rejects.toThrow(
      'at most 4000 characters',
    );
  });

  it('pages back through a long conversation', async () => {
    const staff = await hub.connect(tokens.staff);
    for (let i = 0; i < 7; i++) await staff.invoke('SendMessage', globexDossier.id, `m${i}`);
    const first = (
      await setup.app.inject({
        method: 'GET',
        url: `/api/dossiers/${globexDossier.id}/messages?limit=3`,
        headers: tokens.staff,
      })
    ).json() as {
      items: { text: string }[];
      before: string;
    };
    expect(first.items.map((m) => m.text)).toEqual(['m4', 'm5', 'm6']);
    const older = (
      await setup.app.inject({
        method: 'GET',
        url: `/api/dossiers/${globexDossier.id}/messages?limit=3&before=${first.before}`,
        headers: tokens.staff,
      })
    ).json() as { items: { text: string }[] };
    expect(older.items.map((m) => m.text)).toEqual(['m1', 'm2', 'm3']);
  });
});

describe('authorisation on the hub', () => {
  it('a customer can neither join nor post to another party’s dossier, and learns nothing of it', async () => {
    const customer = await hub.connect(tokens.acme);
    await expect(customer.invoke('JoinDossier', globexDossier.id)).rejects.toThrow(
      'This dossier does not exist.',
    );
    await expect(customer.invoke('JoinDossier', globexDossier.number)).rejects.toThrow(
      'This dossier does not exist.',
    );
    await expect(customer.invoke('SendMessage', globexDossier.id, 'hi')).rejects.toThrow(
      'This dossier does not exist.',
    );
    await expect(
      customer.invoke('MarkRead', globexDossier.id, '00000000-0000-4000-8000-000000000000'),
    ).rejects.toThrow('This dossier does not exist.');
    const http = await setup.app.inject({
      method: 'GET',
      url: `/api/dossiers/${globexDossier.id}/messages`,
      headers: tokens.acme,
    });
    expect(http.statusCode).toBe(404);
  });

  it('rejects a connection without a valid token', async () => {
    const conn = new HubConnectionBuilder()
      .withUrl(url, { accessTokenFactory: () => 'forged' })
      .configureLogging(LogLevel.None)
      .build();
    await expect(conn.start()).rejects.toThrow(/401/);
  });
});

describe('live updates and notifications', () => {
  it('announces a record change to staff and to the dossier’s customer only', async () => {
    const acme = await hub.connect(tokens.acme);
    const globex = await hub.connect(tokens.globex);
    const seen = nextEvent<{ kind: string; id: string; action: string }>(
      acme,
      'RecordChanged',
      (c) => c.id === acmeDossier.id,
    );
    const globexQuiet = silence(globex, 'RecordChanged');
    const res = await setup.app.inject({
      method: 'PATCH',
      url: `/api/dossiers/${acmeDossier.id}`,
      headers: tokens.staff,
      payload: { version: acmeDossier.version, customerReference: 'LIVE-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(await seen).toEqual({ kind: 'dossier', id: acmeDossier.id, action: 'updated' });
    expect(await globexQuiet).toBe(true);
  });

  it('notifies staff of a customer message even when they are not in the dossier, also after a reconnect', async () => {
    const staff = await hub.connect(tokens.staff);
    const customer = await hub.connect(tokens.acme);
    const firstId = staff.connectionId;
    const reconnected = new Promise<string | undefined>((resolve) => staff.onreconnected(resolve));
    // Drop the staff connection from the server side; the client reconnects with a new id.
    for (const c of setup.app.services.hub.connections())
      if (c.connectionId === firstId) c.close('test restart', true);
    const newId = await reconnected;
    expect(newId).not.toBe(firstId);
    const note = nextEvent<{ title: string; link: string }>(staff, 'Notification');
    await customer.invoke('SendMessage', acmeDossier.id, 'Any news on my cargo?');
    expect(await note).toMatchObject({
      title: `New message on ${acmeDossier.number}`,
      link: `/dossiers/${acmeDossier.number}?tab=chat`,
    });
  });
});
