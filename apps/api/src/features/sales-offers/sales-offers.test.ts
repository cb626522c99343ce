import { offerToday } from '@fvg/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { enqueue } from '../../jobs/jobs.ts';
import { apiTest } from '../../test/api-test.ts';
import {
  type Json,
  mailText,
  nextEvent,
  type RecordChange,
  recordChanges,
  unzip,
  waitUntil,
} from '../../test/helpers.ts';

// The real worker runs the send and expiry jobs; mail goes to a real SMTP receiver.
const setup = apiTest({ smtp: true, files: 'fvg-offers-', config: { jobsEnabled: true }, hub: true });
const { db, staff, acme, globex, partyId, call, hub } = setup;

const fields = (body: Json) => ((body.errors as { field: string }[] | undefined) ?? []).map((e) => e.field);
const daysFromToday = (n: number) =>
  new Date(Date.parse(`${offerToday()}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const freight = {
  chargeCode: 'FREIGHT',
  description: 'Ocean freight Rotterdam – Shanghai',
  quantity: '2',
  unit: 'XCN',
  unitPrice: '1250.505',
  currency: 'EUR',
  vatCode: 'E',
  vatRate: '0',
};
const thc = {
  chargeCode: 'THC',
  description: 'Terminal handling',
  quantity: '2',
  unit: 'XCN',
  unitPrice: '185',
  currency: 'USD',
  exchangeRate: '0.92',
  vatCode: 'S',
  vatRate: '21',
};

function newOffer(over: Json = {}): Json {
  return {
    customerId: partyId.ACME,
    contactName: 'Alice Buyer',
    contactEmail: 'alice@acme.example',
    validUntil: daysFromToday(14),
    originLocode: 'NLRTM',
    destinationLocode: 'CNSHA',
    mode: 'sea',
    incoterm: 'FOB',
    incotermPlace: 'Rotterdam',
    cargoDescription: 'Machine parts',
    packages: 12,
    packageType: 'pallets',
    grossWeightKg: '10450.5',
    notes: 'Margin 18 %, approved by Jan',
    lines: [freight, thc],
    ...over,
  };
}

async function created(over: Json = {}): Promise<Json> {
  const r = await call('POST', '/sales-offers', staff, newOffer(over));
  if (r.status !== 201) throw new Error(`create answered ${r.status} ${r.raw}`);
  return r.body;
}

async function sent(over: Json = {}): Promise<Json> {
  const o = await created(over);
  const r = await call('POST', `/sales-offers/${o.id}/transitions`, staff, {
    to: 'sent',
    version: o.version,
  });
  if (r.status !== 200) throw new Error(`send answered ${r.status} ${r.raw}`);
  return r.body;
}

describe('creating and editing offers', () => {
  it('numbers from the offer series and computes line nets and totals per currency on the server', async () => {
    const r = await call('POST', '/sales-offers', staff, newOffer());
    expect(r.status).toBe(201);
    expect(r.body.number).toMatch(new RegExp(`^O-${new Date().getUTCFullYear()}-\\d{6}$`));
    expect(r.body).toMatchObject({
      status: 'draft',
      customer: { code: 'ACME' },
      dossierType: 'export',
      grossWeightKg: '10450.500',
      notes: 'Margin 18 %, approved by Jan',
      dossier: null,
      version: 1,
      allowedTransitions: ['sent', 'cancelled'],
    });
    const lines = r.body.lines as Json[];
    expect(lines.map((l) => [l.lineNet, l.exchangeRate, l.vatRate])).toEqual([
      ['2501.01', '1.000000', '0.00'],
      ['370.00', '0.920000', '21.00'],
    ]);
    expect(r.body.totals).toEqual([
      { currency: 'EUR', net: '2501.01', vat: '0.00', gross: '2501.01' },
      { currency: 'USD', net: '370.00', vat: '77.70', gross: '447.70' },
    ]);
  });

  it('takes consecutive numbers under parallel creates', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', '/sales-offers', staff, newOffer())),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    const seqs = results.map((r) => Number(String(r.body.number).slice(-6))).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 10 }, (_, i) => (seqs[0] as number) + i));
  });

  it('answers every invalid field with its path', async () => {
    const bad = await call(
      'POST',
      '/sales-offers',
      staff,
      newOffer({
        validUntil: daysFromToday(-2),
        incoterm: 'FOB',
        mode: 'air',
        lines: [freight, { ...thc, exchangeRate: undefined }, { ...freight, unitPrice: '-1', quantity: '0' }],
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(fields(bad.body).sort()).toEqual(
      ['incoterm', 'lines.1.exchangeRate', 'lines.2.quantity', 'lines.2.unitPrice', 'validUntil'].sort(),
    );
    const noParty = await call(
      'POST',
      '/sales-offers',
      staff,
      newOffer({ customerId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(noParty.status).toBe(400);
    expect(fields(noParty.body)).toEqual(['customerId']);
  });

  it('edits drafts only; lines replace the whole array; a stale version is a conflict', async () => {
    const o = await created();
    const r = await call('PATCH', `/sales-offers/${o.number}`, staff, {
      version: o.version,
      contactName: 'Bob Buyer',
      lines: [{ ...freight, quantity: '3', unitPrice: '1000' }],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ contactName: 'Bob Buyer', version: 2 });
    expect((r.body.lines as Json[]).map((l) => l.lineNet)).toEqual(['3000.00']);
    expect((await call('PATCH', `/sales-offers/${o.id}`, staff, { version: 1, notes: 'x' })).status).toBe(
      409,
    );
    const invalid = await call('PATCH', `/sales-offers/${o.id}`, staff, {
      version: 2,
      lines: [{ ...freight, unitPrice: '1.23456' }],
    });
    expect(fields(invalid.body)).toEqual(['lines.0.unitPrice']);
    // FOB is a sea Incoterm: the merged offer is checked, not just the fields sent.
    const air = await call('PATCH', `/sales-offers/${o.id}`, staff, { version: 2, mode: 'air' });
    expect(fields(air.body)).toEqual(['incoterm']);

    const s = await sent();
    const locked = await call('PATCH', `/sales-offers/${s.id}`, staff, { version: s.version, notes: 'late' });
    expect(locked.status).toBe(409);
    expect((await call('DELETE', `/sales-offers/${s.id}`, staff)).status).toBe(409);
    expect((await call('DELETE', `/sales-offers/${o.id}`, staff)).status).toBe(204);
    expect((await call('GET', `/sales-offers/${o.id}`, staff)).status).toBe(404);
  });
});

describe('customers', () => {
  it('see their party’s sent offers only, never drafts, and no internal notes', async () => {
    const draft = await created();
    const mine = await sent();
    const theirs = await sent({ customerId: partyId.GLOBEX, contactEmail: 'gina@globex.example' });
    expect((await call('GET', `/sales-offers/${draft.id}`, acme)).status).toBe(404);
    expect((await call('GET', `/sales-offers/${theirs.id}`, acme)).status).toBe(404);
    expect((await call('GET', `/sales-offers/${theirs.number}`, acme)).status).toBe(404);
    const got = await call('GET', `/sales-offers/${mine.id}`, acme);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ notes: null, allowedTransitions: ['accepted', 'rejected'] });
    expect(got.raw).not.toContain('Margin 18');
    const list = await call('GET', '/sales-offers?pageSize=200', acme);
    const ids = (list.body.items as Json[]).map((i) => i.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(draft.id);
    expect(ids).not.toContain(theirs.id);
    expect((list.body.items as Json[]).every((i) => i.status !== 'draft')).toBe(true);
    // History without the notes.
    const history = await call('GET', `/sales-offers/${mine.id}/history`, acme);
    expect(history.status).toBe(200);
    expect(history.raw).not.toContain('Margin 18');
    // It starts when the offer was sent to them: the drafting is not theirs to read.
    expect((history.body as unknown as Json[]).map((e) => [e.action, e.changes])).toEqual([
      ['status changed', [{ field: 'status', from: 'draft', to: 'sent' }]],
    ]);
    expect((await call('GET', `/sales-offers/${theirs.id}/history`, acme)).status).toBe(404);
  });

  it('cannot create, edit, cancel or send; another party’s offer is not found', async () => {
    const mine = await sent();
    const theirs = await sent({ customerId: partyId.GLOBEX });
    expect((await call('POST', '/sales-offers', acme, newOffer())).status).toBe(403);
    expect(
      (await call('PATCH', `/sales-offers/${mine.id}`, acme, { version: mine.version, notes: 'x' })).status,
    ).toBe(403);
    const cancel = await call('POST', `/sales-offers/${mine.id}/transitions`, acme, {
      to: 'cancelled',
      version: mine.version,
    });
    expect(cancel.status).toBe(409);
    expect(fields(cancel.body)).toEqual(['to']);
    const other = await call('POST', `/sales-offers/${theirs.id}/transitions`, acme, {
      to: 'accepted',
      version: theirs.version,
    });
    expect(other.status).toBe(404);
    expect((await call('GET', `/sales-offers/${theirs.id}/pdf`, acme)).status).toBe(404);
    expect((await call('GET', `/sales-offers/${mine.id}/history`, globex)).status).toBe(404);
  });

  it('reject their offer', async () => {
    const mine = await sent();
    const r = await call('POST', `/sales-offers/${mine.id}/transitions`, acme, {
      to: 'rejected',
      version: mine.version,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'rejected', allowedTransitions: [], dossier: null });
    expect(r.body.decidedAt).toEqual(expect.any(String));
  });
});

describe('sending', () => {
  it('needs a line, a contact email and a valid-until not in the past', async () => {
    const o = await created({ lines: [], contactEmail: null });
    await sql`update sales_offers set valid_until = ${daysFromToday(-1)}::date where id = ${o.id}`.execute(
      db.db,
    );
    const r = await call('POST', `/sales-offers/${o.id}/transitions`, staff, {
      to: 'sent',
      version: o.version,
    });
    expect(r.status).toBe(400);
    expect(fields(r.body)).toEqual(['lines', 'contactEmail', 'validUntil']);
  });

  it('mails the contact once, with the offer PDF stored as a document of the offer', async () => {
    const o = await sent({ contactEmail: 'pdf-test@acme.example' });
    expect(o).toMatchObject({ status: 'sent', allowedTransitions: ['accepted', 'rejected', 'cancelled'] });
    const mail = await setup.smtp.waitFor('pdf-test@acme.example');
    expect(mailText(mail.raw)).toContain(`Offer ${o.number}`);
    // The PDF rides along as an attachment (base64 of a file that starts with %PDF-).
    expect(mail.raw).toMatch(new RegExp(`Content-Type: application/pdf; name=${o.number}\\.pdf`));
    expect(mail.raw).toMatch(/Content-Disposition: attachment/);
    expect(mail.raw).toContain(Buffer.from('%PDF-').toString('base64').slice(0, 6));
    const docs = await db.db
      .selectFrom('documents')
      .selectAll()
      .where('record_id', '=', o.id as string)
      .execute();
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({
      record_type: 'offer',
      document_type: 'sales_offer',
      dossier_id: null,
      visible_to_customer: true,
      content_type: 'application/pdf',
      file_name: `${o.number}.pdf`,
    });
    // The job may run again (ADR 0027): no second document, no second mail.
    await setup.app.services.offers.sendJob(o.id as string);
    await setup.app.services.mailer.flush();
    expect(
      await db.db
        .selectFrom('documents')
        .select('id')
        .where('record_id', '=', o.id as string)
        .execute(),
    ).toHaveLength(1);
    expect(setup.smtp.to('pdf-test@acme.example')).toHaveLength(1);
  });

  it('renders the PDF on request', async () => {
    const o = await sent();
    const r = await call('GET', `/sales-offers/${o.id}/pdf`, acme);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.raw.startsWith('%PDF-')).toBe(true);
  });
});

describe('accepting', () => {
  it('creates the booked dossier with every line as revenue, linked both ways', async () => {
    const o = await sent();
    const r = await call('POST', `/sales-offers/${o.id}/transitions`, acme, {
      to: 'accepted',
      version: o.version,
    });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('accepted');
    const link = r.body.dossier as { id: string; number: string };
    expect(link.number).toMatch(/^D-\d{4}-\d{6}$/);
    const dossier = await call('GET', `/dossiers/${link.id}`, staff);
    expect(dossier.body).toMatchObject({
      status: 'booked',
      type: 'export',
      mode: 'sea',
      customer: { id: partyId.ACME },
      originLocode: 'NLRTM',
      destinationLocode: 'CNSHA',
      incoterm: 'FOB',
      incotermPlace: 'Rotterdam',
      cargoDescription: 'Machine parts',
      packages: 12,
      offer: { id: o.id, number: o.number },
      // The customer's reference is theirs: the offer's number is not written into it.
      customerReference: null,
      revenueTotal: '2841.41',
      // The customer accepted: the staff member who wrote the offer handles the booking.
      handler: { name: expect.any(String) },
    });
    const history = (await call('GET', `/dossiers/${link.id}/history`, staff)).body as unknown as Json[];
    expect(history.map((e) => e.action)).toEqual(['charges changed', `created from offer ${o.number}`]);
    expect(
      (dossier.body.charges as Json[]).map((c) => [
        c.kind,
        c.chargeCode,
        c.amount,
        c.currency,
        c.exchangeRate,
        c.baseAmount,
      ]),
    ).toEqual([
      ['revenue', 'FREIGHT', '2501.01', 'EUR', '1.000000', '2501.01'],
      ['revenue', 'THC', '370.00', 'USD', '0.920000', '340.40'],
    ]);
    // The customer sees the link on their dossier, not its costing.
    const theirs = await call('GET', `/dossiers/${link.id}`, acme);
    expect(theirs.body).toMatchObject({ offer: { number: o.number }, charges: [] });
    const filtered = await call('GET', `/sales-offers?dossierId=${link.id}`, staff);
    expect((filtered.body.items as Json[]).map((i) => i.id)).toEqual([o.id]);
  });

  it("keeps each line's code, name and units to the invoice: 2 × container stays 2 × container (issue 27 item 4)", async () => {
    const o = await sent();
    const r = await call('POST', `/sales-offers/${o.id}/transitions`, acme, {
      to: 'accepted',
      version: o.version,
    });
    const link = r.body.dossier as { id: string };
    const dossier = (await call('GET', `/dossiers/${link.id}`, staff)).body;
    const charges = dossier.charges as Json[];
    expect(charges.map((c) => [c.chargeCode, c.quantity, c.unit, c.unitPrice])).toEqual([
      ['FREIGHT', '2', 'XCN', '1250.505'],
      ['THC', '2', 'XCN', '185'],
    ]);
    // Staff change the THC's amount: it no longer is 2 × 185, so it becomes a lump sum; the freight,
    // sent back as it came, keeps its units.
    const changed = charges.map((c) => ({
      kind: c.kind,
      chargeCode: c.chargeCode,
      description: c.description,
      amount: c.chargeCode === 'THC' ? '400.00' : c.amount,
      currency: c.currency,
      exchangeRate: c.exchangeRate,
      quantity: c.quantity,
      unit: c.unit,
      unitPrice: c.unitPrice,
    }));
    const saved = await call('PUT', `/dossiers/${link.id}/charges`, staff, {
      version: dossier.version,
      charges: changed,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(
      (saved.body.charges as Json[]).map((c) => [c.chargeCode, c.quantity, c.unit, c.unitPrice]),
    ).toEqual([
      ['FREIGHT', '2', 'XCN', '1250.505'],
      ['THC', null, null, null],
    ]);
    // The invoice of the EUR charges bills the freight by its units, under its own code.
    const invoice = await call('POST', '/sales-invoices', staff, { dossierId: link.id, currency: 'EUR' });
    expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
    expect(
      (invoice.body.lines as Json[]).map((l) => [l.chargeCode, l.quantity, l.unit, l.unitPrice, l.lineNet]),
    ).toEqual([['FREIGHT', '2', 'XCN', '1250.505', '2501.01']]);
  });

  it('twice at once creates one dossier', async () => {
    const o = await sent();
    const body = { to: 'accepted', version: o.version };
    const [a, b] = await Promise.all([
      call('POST', `/sales-offers/${o.id}/transitions`, acme, body),
      call('POST', `/sales-offers/${o.id}/transitions`, staff, body),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const dossiers = await sql<{ n: number }>`
      select count(*)::int as n from audit_log
      where record_kind = 'dossier' and action = ${`created from offer ${o.number as string}`}`.execute(
      db.db,
    );
    expect(dossiers.rows[0]?.n).toBe(1);
  });

  it('after valid-until makes the offer expired and answers 409', async () => {
    const o = await sent();
    await sql`update sales_offers set valid_until = ${daysFromToday(-1)}::date where id = ${o.id}`.execute(
      db.db,
    );
    const r = await call('POST', `/sales-offers/${o.id}/transitions`, acme, {
      to: 'accepted',
      version: o.version,
    });
    expect(r.status).toBe(409);
    const day = new Date(`${daysFromToday(-1)}T00:00:00Z`).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(r.body.detail).toBe(`This offer expired on ${day}.`);
    const after = await call('GET', `/sales-offers/${o.id}`, staff);
    expect(after.body).toMatchObject({ status: 'expired', dossier: null, allowedTransitions: [] });
  });
});

describe('expiry', () => {
  it('the scheduled job expires sent offers past valid-until, and only those, with history', async () => {
    expect(setup.app.services.jobs.crontab.split('\n')).toContain('*/5 * * * * offers.expire');
    // The running worker took the schedule: graphile-worker keeps its last tick per identifier.
    await waitUntil('the schedule registered', async () => {
      const known = await sql<{ identifier: string }>`
        select identifier from graphile_worker._private_known_crontabs`.execute(db.db);
      return known.rows.some((r) => r.identifier === 'offers.expire');
    });
    const late = await sent();
    const current = await sent();
    const draft = await created();
    await sql`update sales_offers set valid_until = ${daysFromToday(-3)}::date where id in (${late.id}, ${draft.id})`.execute(
      db.db,
    );
    // Through the real worker, as the crontab queues it.
    await enqueue(db.db, 'offers.expire', {});
    await waitUntil('the expiry job', async () => {
      const row = await db.db
        .selectFrom('sales_offers')
        .select('status')
        .where('id', '=', late.id as string)
        .executeTakeFirst();
      return row?.status === 'expired';
    });
    const status = async (id: unknown) => (await call('GET', `/sales-offers/${id}`, staff)).body.status;
    expect(await status(current.id)).toBe('sent');
    expect(await status(draft.id)).toBe('draft');
    const history = await call('GET', `/sales-offers/${late.id}/history`, staff);
    expect((history.body as unknown as Json[])[0]).toMatchObject({
      action: 'expired',
      actor: null,
      changes: [{ field: 'status', from: 'sent', to: 'expired' }],
    });
    // Called again: nothing left to expire.
    expect(await setup.app.services.offers.expire()).toBe(0);
  });
});

describe('the list', () => {
  it('filters by status, customer, valid-until range, mode; sorts; pages by cursor; exports', async () => {
    const tag = `Cargo-${Date.now()}`;
    const a = await created({
      cargoDescription: tag,
      validUntil: daysFromToday(30),
      mode: 'road',
      incoterm: null,
    });
    const b = await sent({
      cargoDescription: tag,
      validUntil: daysFromToday(40),
      customerId: partyId.GLOBEX,
    });
    const c = await created({ cargoDescription: tag, validUntil: daysFromToday(50) });
    const ids = async (qs: string) =>
      ((await call('GET', `/sales-offers?q=${tag}&${qs}`, staff)).body.items as Json[]).map((i) => i.id);
    expect(await ids('sort=validUntil')).toEqual([a.id, b.id, c.id]);
    expect(await ids('sort=-validUntil')).toEqual([c.id, b.id, a.id]);
    expect(await ids('status=sent,cancelled')).toEqual([b.id]);
    expect(await ids(`customerId=${partyId.GLOBEX}`)).toEqual([b.id]);
    expect(await ids('mode=road')).toEqual([a.id]);
    expect(await ids(`validFrom=${daysFromToday(35)}&validTo=${daysFromToday(45)}`)).toEqual([b.id]);
    const bad = await call('GET', '/sales-offers?sort=notes', staff);
    expect(fields(bad.body)).toEqual(['sort']);

    const first = await call('GET', `/sales-offers?q=${tag}&sort=validUntil&pageSize=2`, staff);
    expect(first.body.total).toBe(3);
    const next = await call(
      'GET',
      `/sales-offers?q=${tag}&sort=validUntil&pageSize=2&cursor=${encodeURIComponent(String(first.body.nextCursor))}`,
      staff,
    );
    expect((next.body.items as Json[]).map((i) => i.id)).toEqual([c.id]);

    const csv = await call('GET', `/sales-offers/export?q=${tag}&sort=validUntil&format=csv`, staff);
    expect(csv.status).toBe(200);
    const rows = csv.raw.trim().split('\r\n');
    expect(rows[0]).toContain('Number,Status,Customer');
    expect(rows.slice(1).map((r) => r.split(',')[0])).toEqual([a.number, b.number, c.number]);
    expect(rows[2]).toContain('Sent');
    const xlsx = await setup.app.inject({
      method: 'GET',
      url: `/api/sales-offers?q=${tag}&format=xlsx`,
      headers: staff,
    });
    expect(xlsx.statusCode).toBe(200);
    const sheet = unzip(xlsx.rawPayload).get('xl/worksheets/sheet1.xml')?.toString('utf8') ?? '';
    expect(sheet).toContain(String(b.number));
  });

  it('records the history of an offer', async () => {
    const o = await created();
    await call('PATCH', `/sales-offers/${o.id}`, staff, { version: 1, lines: [freight] });
    await call('POST', `/sales-offers/${o.id}/transitions`, staff, { to: 'sent', version: 2 });
    const h = await call('GET', `/sales-offers/${o.id}/history`, staff);
    const entries = h.body as unknown as Json[];
    expect(entries.map((e) => e.action)).toEqual(['status changed', 'updated', 'created']);
    expect(entries[1]?.changes).toEqual([
      {
        field: 'lines',
        from: ['FREIGHT 2 XCN × 1250.505 EUR (E 0)', 'THC 2 XCN × 185 USD (S 21)'],
        to: ['FREIGHT 2 XCN × 1250.505 EUR (E 0)'],
      },
    ]);
    const customerChange = ((entries[2]?.changes ?? []) as Json[]).find((c) => c.field === 'customerId');
    expect(customerChange).toMatchObject({ to: { code: 'ACME' } });
  });
});

describe('the hub', () => {
  it('announces offers to staff, and to their customer only once sent', async () => {
    const staffConn = await hub.connect(staff);
    const acmeConn = await hub.connect(acme);
    const globexConn = await hub.connect(globex);
    const acmeHeard = recordChanges(acmeConn);
    const globexHeard = recordChanges(globexConn);
    const staffCreated = nextEvent<RecordChange>(
      staffConn,
      'RecordChanged',
      (c) => c.kind === 'offer' && c.action === 'created',
    );
    const o = await created();
    expect(await staffCreated).toEqual({ kind: 'offer', id: o.id, action: 'created' });
    const acmeSent = nextEvent<RecordChange>(
      acmeConn,
      'RecordChanged',
      (c) => c.kind === 'offer' && c.id === o.id,
    );
    await call('POST', `/sales-offers/${o.id}/transitions`, staff, { to: 'sent', version: o.version });
    expect(await acmeSent).toEqual({ kind: 'offer', id: o.id, action: 'updated' });
    // One connection's messages arrive in order: a draft's creation would have come first.
    expect(acmeHeard.filter((c) => c.id === o.id)).toEqual([{ kind: 'offer', id: o.id, action: 'updated' }]);
    expect(globexHeard.some((c) => c.id === o.id)).toBe(false);
  });
});
