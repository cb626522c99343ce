/*
 * The seven invoices issue 11 names, made and issued through the API as staff would (drafts from
 * dossiers or from lines, then /issue), and their UBL as the API answers it written to
 * test-results/ubl/<name>.xml: the Peppol conformance stage of .ci/run validates that folder.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import type { Json } from '../../test/helpers.ts';
import { completeCompany, draftBody, line } from './test-support.ts';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../test-results/ubl');

const setup = apiTest({ prepare: completeCompany });
const { staff, partyId, call } = setup;
beforeAll(async () => {
  await mkdir(OUT, { recursive: true });
});

async function ok(method: 'POST' | 'PUT', url: string, body: Json, status = 200): Promise<Json> {
  const r = await call(method, url, staff, body);
  expect(r.status, `${method} ${url}: ${JSON.stringify(r.body)}`).toBe(status);
  return r.body;
}

/** A dossier of `type` whose revenue charges are the invoice's lines. */
async function dossierDraft(type: string, customerId: string, amounts: string[]): Promise<Json> {
  const d = await ok(
    'POST',
    '/dossiers',
    { type, mode: 'sea', customerId, originLocode: 'NLRTM', destinationLocode: 'USNYC' },
    201,
  );
  await ok('PUT', `/dossiers/${d.id}/charges`, {
    version: d.version,
    charges: amounts.map((amount, i) => ({
      kind: 'revenue',
      chargeCode: ['FREIGHT', 'THC', 'DOCUMENTATION'][i % 3],
      description: [
        'Ocean freight Rotterdam – New York',
        'Terminal handling Rotterdam',
        'Bill of lading fee',
      ][i % 3],
      amount,
      currency: 'EUR',
    })),
  });
  return ok(
    'POST',
    '/sales-invoices',
    { dossierId: d.id, buyerReference: `PO-${type.toUpperCase()}-1` },
    201,
  );
}

async function issueAndWrite(name: string, draft: Json): Promise<Json> {
  const issued = await ok('POST', `/sales-invoices/${draft.id}/issue`, { version: draft.version });
  const ubl = await setup.app.inject({
    method: 'GET',
    url: `/api/sales-invoices/${draft.id}/ubl`,
    headers: staff,
  });
  expect(ubl.statusCode, ubl.body).toBe(200);
  expect(ubl.body).toContain(`<cbc:ID>${issued.number}</cbc:ID>`);
  await writeFile(path.join(OUT, `${name}.xml`), ubl.body);
  return issued;
}

describe('UBL of the seven issue-11 invoices, for the Peppol stage', () => {
  it('domestic S, export E, import E, reverse charge AE', async () => {
    const domestic = await issueAndWrite(
      'domestic-s',
      await dossierDraft('domestic', partyId.ACME, ['1200.00', '185.50']),
    );
    expect((domestic.lines as Json[])[0]).toMatchObject({ vatCode: 'S', vatRate: '21' });
    const exp = await issueAndWrite(
      'export-e',
      await dossierDraft('export', partyId.ACME, ['2400.00', '95.00']),
    );
    expect((exp.lines as Json[])[0]).toMatchObject({ vatCode: 'E', exemptionReason: 'VATEX-EU-146-1E' });
    const imp = await issueAndWrite('import-e', await dossierDraft('import', partyId.ACME, ['1750.00']));
    expect((imp.lines as Json[])[0]).toMatchObject({ vatCode: 'E', exemptionReason: 'VATEX-EU-144' });
    const ae = await issueAndWrite(
      'reverse-charge-ae',
      await dossierDraft('crosstrade', partyId.GLOBEX, ['980.00', '120.00']),
    );
    expect((ae.lines as Json[])[0]).toMatchObject({ vatCode: 'AE', exemptionReason: 'VATEX-EU-AE' });
  });

  it('mixed rates, another currency with its rate, a partial credit note', async () => {
    const mixed = await issueAndWrite(
      'mixed-rates',
      await ok(
        'POST',
        '/sales-invoices',
        draftBody(partyId.ACME, {
          buyerReference: 'PO-MIXED-1',
          lines: [
            line({ unitPrice: '1000.00' }),
            line({
              chargeCode: 'STORAGE',
              description: 'Storage of goods',
              quantity: '14',
              unit: 'DAY',
              unitPrice: '12.35',
              vatRate: '9',
            }),
            line({
              chargeCode: 'INSURANCE',
              description: 'Cargo insurance',
              unitPrice: '80.00',
              vatCode: 'E',
              vatRate: '0',
              exemptionReason: 'VATEX-EU-146-1E',
            }),
          ],
        }),
        201,
      ),
    );
    expect(((mixed.totals as Json).vatGroups as Json[]).map((g) => `${g.vatCode} ${g.vatRate}`)).toEqual([
      'S 21',
      'S 9',
      'E 0',
    ]);
    const usd = await issueAndWrite(
      'usd-with-rate',
      await ok(
        'POST',
        '/sales-invoices',
        draftBody(partyId.ACME, {
          currency: 'USD',
          exchangeRate: '0.9215',
          buyerReference: 'PO-USD-1',
          lines: [
            line({ unitPrice: '3150.00' }),
            line({ chargeCode: 'THC', description: 'Terminal handling New York', unitPrice: '410.00' }),
          ],
        }),
        201,
      ),
    );
    expect(usd).toMatchObject({
      currency: 'USD',
      exchangeRate: '0.9215',
      totals: { vatTotal: '747.60', vatTotalBase: '688.91' },
    });

    const invoice = await issueAndWrite(
      'credited-invoice',
      await dossierDraft('domestic', partyId.ACME, ['640.00', '75.00']),
    );
    const firstLine = (invoice.lines as Json[])[0] as Json;
    const cn = await ok(
      'POST',
      `/sales-invoices/${invoice.id}/credit-notes`,
      { version: invoice.version, lines: [{ lineId: firstLine.id, quantity: '0.5' }] },
      201,
    );
    const credit = await issueAndWrite('partial-credit-note', cn);
    expect(credit).toMatchObject({ kind: 'credit_note', creditedInvoice: { number: invoice.number } });
  });

  it('a stored invoice with document and line allowances and charges, and its whole credit note (ADR 0049)', async () => {
    const draft = await ok(
      'POST',
      '/sales-invoices',
      draftBody(partyId.ACME, {
        buyerReference: 'PO-ALLOW-1',
        allowanceCharges: [
          {
            isCharge: false,
            amount: '100.00',
            reasonCode: '95',
            reason: 'Loyalty discount',
            vatCode: 'S',
            vatRate: '21',
          },
          { isCharge: true, amount: '30.00', reasonCode: 'ABL', vatCode: 'S', vatRate: '21' },
        ],
        lines: [
          line({
            description: 'Road transport Rotterdam – Venlo',
            unitPrice: '1000.00',
            allowanceCharges: [
              { isCharge: false, amount: '50.00', reasonCode: '95', reason: 'Volume discount' },
              { isCharge: true, amount: '25.00', reasonCode: 'SH', reason: 'Waiting time at the terminal' },
            ],
          }),
          line({
            chargeCode: 'STORAGE',
            description: 'Pallet storage',
            quantity: '2',
            unit: 'DAY',
            unitPrice: '40.00',
            vatRate: '9',
          }),
        ],
      }),
      201,
    );
    const invoice = await issueAndWrite('stored-allowances-charges', draft);
    expect(invoice.totals).toMatchObject({ taxExclusiveAmount: '985.00', taxInclusiveAmount: '1182.25' });
    const ubl = await setup.app.inject({
      method: 'GET',
      url: `/api/sales-invoices/${invoice.id}/ubl`,
      headers: staff,
    });
    expect(ubl.body).toContain(
      '<cbc:AllowanceTotalAmount currencyID="EUR">100.00</cbc:AllowanceTotalAmount>',
    );
    expect(ubl.body).toContain('<cbc:ChargeTotalAmount currencyID="EUR">30.00</cbc:ChargeTotalAmount>');
    const cn = await ok(
      'POST',
      `/sales-invoices/${invoice.id}/credit-notes`,
      { version: invoice.version },
      201,
    );
    const credit = await issueAndWrite('credit-note-allowances-charges', cn);
    expect(credit.totals).toMatchObject({ taxInclusiveAmount: '1182.25' });
  });
});
