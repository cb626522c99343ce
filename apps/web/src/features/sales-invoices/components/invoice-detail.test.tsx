import type { InvoiceLine, SalesInvoice } from '@fvg/contracts';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { errorOf, field } from '../../../test/fields.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { aCompany, anInvoice, INVOICE_ID, THIS_YEAR } from '../../../test/sales-invoice.ts';
import { InvoiceDetail } from './invoice-detail.tsx';

const line = (n: number, over: Partial<InvoiceLine>): InvoiceLine => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  chargeId: null,
  creditedLineId: null,
  chargeCode: 'FREIGHT',
  description: `Line ${n}`,
  quantity: '1',
  unit: 'C62',
  unitPrice: '100.00',
  vatCode: 'S',
  vatRate: '21',
  exemptionReason: null,
  allowanceCharges: [],
  lineNet: '100.00',
  ...over,
});

/** Two lines at 21 % and one exempt (export transport). */
const draft = anInvoice({
  lines: [
    line(1, { quantity: '2', unitPrice: '100.00', lineNet: '200.00' }),
    line(2, { chargeCode: 'THC', unitPrice: '50.55', lineNet: '50.55' }),
    line(3, {
      chargeCode: 'CUSTOMS',
      unitPrice: '300.00',
      vatCode: 'E',
      vatRate: '0',
      exemptionReason: 'VATEX-EU-146-1E',
      lineNet: '300.00',
    }),
  ],
});

const issued = anInvoice({
  number: 'I-2026-000042',
  status: 'partially_paid',
  issueDate: '2026-10-01',
  dueDate: '2026-10-31',
  overdue: true,
  notes: 'Call before sending reminders',
  lines: [line(1, { quantity: '10', unitPrice: '100.00', lineNet: '1000.00' })],
  totals: {
    lineExtensionAmount: '1000.00',
    vatGroups: [
      { vatCode: 'S', vatRate: '21', taxableAmount: '1000.00', vatAmount: '210.00', exemptionReason: null },
    ],
    allowanceTotalAmount: '0.00',
    chargeTotalAmount: '0.00',
    taxExclusiveAmount: '1000.00',
    vatTotal: '210.00',
    taxInclusiveAmount: '1210.00',
    payableAmount: '1110.00',
    vatTotalBase: '210.00',
  },
  paidAmount: '100.00',
  openAmount: '1110.00',
  payments: [
    {
      id: 'p1',
      paidOn: '2026-10-15',
      amount: '100.00',
      reference: 'TRX-1',
      createdAt: '2026-10-16T08:00:00.000Z',
      createdBy: { id: 'u1', name: 'Sam Staff' },
    },
  ],
  allowedActions: ['credit', 'pay'],
  issuedAt: '2026-10-01T09:00:00.000Z',
});

type Answer = (body: Record<string, unknown>) => Response;

function stubApi(invoice: SalesInvoice, answers: Record<string, Answer> = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    for (const [key, answer] of Object.entries(answers)) {
      const [m, suffix] = key.split(' ') as [string, string];
      if (method === m && url.split('?')[0]?.endsWith(suffix)) return answer(body);
    }
    if (url.includes('/company')) return jsonResponse(aCompany());
    if (url.endsWith('/history')) return jsonResponse([]);
    return jsonResponse(invoice);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const start = (role: 'staff' | 'customer', key = INVOICE_ID) =>
  renderRoute(<InvoiceDetail id={key} role={role} />, {
    path: '/sales-invoices/$id',
    url: `/sales-invoices/${key}`,
  });

const text = (testId: string) => screen.getByTestId(testId).textContent;

function problem(status: number, errors: { field: string; message: string }[]) {
  return jsonResponse(
    { type: 'about:blank', title: 'Not issued', status, detail: 'The invoice cannot be issued', errors },
    status,
  );
}

beforeEach(() => {
  localStorage.clear();
});

describe('the draft editor', () => {
  it('groups VAT per rate as it is typed: two lines at 21 % and an exempt one', async () => {
    stubApi(draft);
    await start('staff');
    const summary = await screen.findByTestId('vat-summary');
    const groups = within(summary).getAllByTestId(/^vat-group-/);
    expect(groups.map((g) => g.getAttribute('data-testid'))).toEqual(['vat-group-S-21', 'vat-group-E-0']);
    // 200.00 + 50.55 at 21 %: 52.6155 → 52.62 from the group's net, not from rounded line VATs.
    expect(within(groups[0] as HTMLElement).getByTestId('vat-taxable').textContent).toBe('€250.55');
    expect(within(groups[0] as HTMLElement).getByTestId('vat-amount').textContent).toBe('€52.62');
    expect(groups[1]?.textContent).toContain('transport services connected with the export of goods');
    expect(text('total-net')).toBe('€550.55');
    expect(text('total-vat')).toBe('€52.62');
    expect(text('total-gross')).toBe('€603.17');

    // Typing a quantity moves the totals at once, before anything is saved.
    fireEvent.focus(field('lines.1.quantity'));
    fireEvent.change(field('lines.1.quantity'), { target: { value: '3' } });
    fireEvent.blur(field('lines.1.quantity'));
    await waitFor(() => expect(text('total-net')).toBe('€651.65'));
    expect(within(screen.getByTestId('vat-group-S-21')).getByTestId('vat-amount').textContent).toBe('€73.85');
    expect(screen.getByTestId('line-1-lineNet').textContent).toBe('€151.65');
  });

  it('shows the rate only where it applies and the exemption reason only on E, AE and O lines', async () => {
    stubApi(draft);
    await start('staff');
    await screen.findByTestId('vat-summary');
    expect(screen.queryByTestId('field-lines.0.exemptionReason')).toBeNull();
    expect(screen.getByTestId('field-lines.2.exemptionReason')).toBeTruthy();
    expect(screen.queryByTestId('field-lines.2.vatRate')).toBeTruthy();
  });
});

describe('discounts and surcharges (ADR 0049)', () => {
  /** Road transport 1000.00 − 50.00 + 25.00, storage 2 × 40.00 at 9 %, a 100.00 discount at 21 % on the whole. */
  const withAllowances = anInvoice({
    lines: [
      line(1, {
        description: 'Road transport',
        unitPrice: '1000.00',
        lineNet: '975.00',
        allowanceCharges: [
          { isCharge: false, amount: '50.00', reasonCode: '95', reason: 'Volume discount' },
          { isCharge: true, amount: '25.00', reasonCode: 'FC', reason: null },
        ],
      }),
      line(2, { chargeCode: 'STORAGE', quantity: '2', unitPrice: '40.00', vatRate: '9', lineNet: '80.00' }),
    ],
    allowanceCharges: [
      {
        isCharge: false,
        amount: '100.00',
        reasonCode: '95',
        reason: 'Loyalty discount',
        vatCode: 'S',
        vatRate: '21',
      },
    ],
  });

  it('totals the draft with them as typed, by the contracts arithmetic, and sends them', async () => {
    const fetchMock = stubApi(withAllowances);
    await start('staff');
    await screen.findByTestId('vat-summary');
    // S 21: 975 − 100 = 875.00, VAT 183.75; S 9: 80.00, VAT 7.20.
    expect(screen.getByTestId('line-0-lineNet').textContent).toBe('€975.00');
    expect(text('total-net')).toBe('€1,055.00');
    expect(text('total-adjustment-0')).toContain('Discount: Loyalty discount');
    expect(text('total-excl-vat')).toBe('€955.00');
    expect(text('total-gross')).toBe('€1,145.95');

    // The document discount halved: the totals follow before anything is saved.
    fireEvent.focus(field('allowanceCharges.0.amount'));
    fireEvent.change(field('allowanceCharges.0.amount'), { target: { value: '50' } });
    fireEvent.blur(field('allowanceCharges.0.amount'));
    await waitFor(() => expect(text('total-excl-vat')).toBe('€1,005.00'));
    expect(text('total-gross')).toBe('€1,206.45');

    // The line's own, in the panel under its row: the surcharge removed, the line's net is 950.00.
    fireEvent.click(screen.getByTestId('details-line-0'));
    expect(field('lines.0.allowanceCharges.0.reason').value).toBe('Volume discount');
    fireEvent.click(screen.getByTestId('remove-line-adjustment-1'));
    await waitFor(() => expect(screen.getByTestId('line-0-lineNet').textContent).toBe('€950.00'));
    expect(text('total-gross')).toBe('€1,176.20');

    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(true));
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    const sent = JSON.parse(String(patch?.[1]?.body));
    expect(sent.allowanceCharges).toEqual([
      {
        isCharge: false,
        reasonCode: '95',
        amount: '50.00',
        reason: 'Loyalty discount',
        vatCode: 'S',
        vatRate: '21',
      },
    ]);
    expect(sent.lines[0].allowanceCharges).toEqual([
      { isCharge: false, reasonCode: '95', amount: '50.00', reason: 'Volume discount' },
    ]);
  });

  it('shows them on an issued invoice in words, never as codes', async () => {
    stubApi({
      ...withAllowances,
      number: 'I-2026-000050',
      status: 'issued',
      issueDate: '2026-10-01',
      dueDate: '2026-10-31',
      allowedActions: [],
      totals: {
        ...withAllowances.totals,
        lineExtensionAmount: '1055.00',
        allowanceTotalAmount: '100.00',
        taxExclusiveAmount: '955.00',
        vatTotal: '190.95',
        taxInclusiveAmount: '1145.95',
      },
    });
    await start('customer', 'I-2026-000050');
    await screen.findByTestId('vat-summary');
    expect(screen.getByTestId('line-0-allowanceSummary').textContent).toBe(
      'Less €50.00 Volume discount · Plus €25.00 Freight service',
    );
    expect(text('total-adjustment-0')).toBe('Discount: Loyalty discount (Standard rate 21 %)−€100.00');
    expect(text('total-excl-vat')).toBe('€955.00');
  });
});

describe('issuing', () => {
  it('confirms with the number the series gives next and the issue date, then sends them', async () => {
    const fetchMock = stubApi(draft, {
      'POST /issue': () =>
        jsonResponse({ ...draft, number: `I-${THIS_YEAR}-000043`, status: 'issued', allowedActions: [] }),
    });
    const show = vi.spyOn(notifications, 'show');
    await start('staff');
    fireEvent.click(await screen.findByTestId('issue-invoice'));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() =>
      expect(within(dialog).getByTestId('issue-number').textContent).toBe(
        `You are about to take number I-${THIS_YEAR}-000043.`,
      ),
    );
    expect(within(dialog).getByTestId('confirm-ok').textContent).toBe(`Issue as I-${THIS_YEAR}-000043`);
    expect(fetchMock.mock.calls.some(([u]) => String(u).endsWith('/issue'))).toBe(false);

    fireEvent.click(within(dialog).getByTestId('confirm-ok'));
    await waitFor(() => expect(show).toHaveBeenCalled());
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/issue')) as [string, RequestInit];
    const body = JSON.parse(String(call[1].body)) as { version: number; issueDate: string };
    expect(body.version).toBe(3);
    expect(body.issueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(show.mock.calls[0]?.[0].title).toBe(`Invoice I-${THIS_YEAR}-000043 issued`);
  });

  it('puts a refused issue date on the dialog’s issue date field and keeps the dialog open', async () => {
    const message = 'The issue date cannot be before 2026-11-20, the latest issue date used in the series';
    const fetchMock = stubApi(draft, {
      'POST /issue': () => problem(422, [{ field: 'issueDate', message }]),
    });
    await start('staff');
    fireEvent.click(await screen.findByTestId('issue-invoice'));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByTestId('issue-number').textContent).toContain('000043'));
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));

    const date = within(dialog).getByTestId('field-issueDate');
    await waitFor(() => expect(date.getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(date)).toContain(message);
    // On the field, not as a form-level message, and the dialog is still there to pick another date.
    expect(within(dialog).queryByTestId('issue-problem')).toBeNull();
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(document.body.textContent).not.toContain('The invoice cannot be issued');
    expect(fetchMock.mock.calls.filter(([u]) => String(u).endsWith('/issue'))).toHaveLength(1);
  });

  it('puts the refusal on the line’s cell and names the customer to fix', async () => {
    stubApi(draft, {
      'POST /issue': () =>
        problem(422, [
          { field: 'lines.2.vatCode', message: 'Export exemption needs a dossier of type export' },
          { field: 'buyer.vatNumber', message: 'Reverse charge needs the customer’s VAT number' },
        ]),
    });
    await start('staff');
    fireEvent.click(await screen.findByTestId('issue-invoice'));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByTestId('issue-number').textContent).toContain('000043'));
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));

    await waitFor(() => expect(field('lines.2.vatCode').getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(field('lines.2.vatCode'))).toContain('Export exemption needs a dossier of type export');
    expect(field('lines.0.vatCode').getAttribute('aria-invalid')).not.toBe('true');
    const banner = screen.getByTestId('buyer-problems');
    expect(banner.textContent).toContain('Fix the customer Acme Trading first');
    expect(banner.textContent).toContain('Reverse charge needs the customer’s VAT number');
    expect(within(banner).getByTestId('fix-customer').getAttribute('href')).toContain('/parties/ACME');
  });
});

describe('payments', () => {
  it('records a payment of the open amount, and shows an overpayment refusal on the amount', async () => {
    const fetchMock = stubApi(issued, {
      'POST /payments': () => problem(422, [{ field: 'amount', message: 'At most €1,110.00 is open' }]),
    });
    await start('staff', 'I-2026-000042');
    fireEvent.click(await screen.findByTestId('record-payment-header'));
    const dialog = await screen.findByRole('dialog');
    expect(field('amount').value).toBe('1,110.00');
    fireEvent.focus(field('amount'));
    fireEvent.change(field('amount'), { target: { value: '2,000.00' } });
    fireEvent.blur(field('amount'));
    fireEvent.click(within(dialog).getByTestId('form-submit'));

    await waitFor(() => expect(errorOf(field('amount'))).toContain('At most €1,110.00 is open'));
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/payments')) as [string, RequestInit];
    expect(JSON.parse(String(call[1].body))).toMatchObject({ amount: '2000.00' });
  });
});

describe('corrections', () => {
  it('removes the last payment only with a reason, and sends it', async () => {
    const fetchMock = stubApi(issued, {
      'DELETE /payments/p1': () =>
        jsonResponse({ ...issued, payments: [], paidAmount: '0.00', openAmount: '1210.00' }),
    });
    await start('staff', 'I-2026-000042');
    fireEvent.click(await screen.findByTestId('tab-payments'));
    fireEvent.click(await screen.findByTestId('remove-last-payment'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));
    expect(within(dialog).getByTestId('remove-payment-reason').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    fireEvent.change(within(dialog).getByTestId('remove-payment-reason'), {
      target: { value: 'Booked on the wrong invoice' },
    });
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true),
    );
    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE') as [string, RequestInit];
    expect(call[0]).toMatch(/\/sales-invoices\/.+\/payments\/p1$/);
    expect(JSON.parse(String(call[1].body))).toEqual({ reason: 'Booked on the wrong invoice' });
  });

  it('heads a credit note “Credit note”, on the screen and in the tab title (issue 27 item 3)', async () => {
    const note = {
      ...issued,
      kind: 'credit_note' as const,
      number: 'C-2026-000003',
      creditedInvoice: { id: INVOICE_ID, number: 'I-2026-000042', issueDate: '2026-11-02' },
    };
    stubApi(note);
    await start('staff', 'C-2026-000003');
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Credit note C-2026-000003'),
    );
    await waitFor(() => expect(document.title).toBe('Credit note · C-2026-000003 · FVG'));
  });

  it('credits chosen lines and quantities, then opens the credit note draft', async () => {
    const creditNote = anInvoice({
      id: 'c0ffee00-0000-4000-8000-000000000001',
      kind: 'credit_note',
      creditedInvoice: { id: INVOICE_ID, number: 'I-2026-000042', issueDate: '2026-11-02' },
    });
    const fetchMock = stubApi(issued, { 'POST /credit-notes': () => jsonResponse(creditNote) });
    const { router } = await start('staff', 'I-2026-000042');
    fireEvent.click(await screen.findByTestId('credit-note-open'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('Chosen lines and quantities'));
    fireEvent.click(within(dialog).getByTestId('credit-line-0'));
    const quantity = within(dialog).getByTestId('credit-quantity-0');
    fireEvent.focus(quantity);
    fireEvent.change(quantity, { target: { value: '4' } });
    fireEvent.blur(quantity);
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));

    await waitFor(() => expect(router.state.location.pathname).toBe(`/sales-invoices/${creditNote.id}`));
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/credit-notes')) as [
      string,
      RequestInit,
    ];
    expect(JSON.parse(String(call[1].body))).toEqual({
      version: 3,
      lines: [{ lineId: issued.lines[0]?.id, quantity: '4' }],
    });
  });
});

describe('the customer’s view', () => {
  it('is read-only: lines, totals and PDF with the downloads, no payments, history or notes', async () => {
    stubApi(issued);
    await start('customer', 'I-2026-000042');
    expect(await screen.findByTestId('record-id')).toHaveProperty('textContent', 'I-2026-000042');
    expect(screen.getByTestId('overdue-badge')).toBeTruthy();
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.getByTestId('download-pdf')).toBeTruthy();
    expect(screen.getByTestId('download-ubl')).toBeTruthy();
    expect(screen.queryByTestId('record-payment-header')).toBeNull();
    expect(screen.queryByTestId('credit-note-open')).toBeNull();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Lines1', 'PDF']);
    expect(document.body.textContent).not.toContain('Call before sending reminders');
    expect(text('total-open')).toBe('€1,110.00');
  });
});

describe('Peppol e-invoice (issue 23 item 6)', () => {
  const noAddress = [
    {
      field: 'buyer.peppolId',
      message:
        "The customer has no electronic address for Peppol: enter its Peppol scheme and endpoint id (or a VAT number of a country with a Peppol VAT scheme) on the customer's record",
      code: 'PEPPOL-EN16931-R010',
    },
  ];

  it('warns on the draft and in the issue dialog, without refusing to issue', async () => {
    stubApi({ ...draft, eInvoiceProblems: noAddress });
    await start('staff');
    const notice = await screen.findByTestId('e-invoice-notice');
    expect(notice.textContent).toContain('This invoice will have no Peppol e-invoice');
    expect(notice.textContent).toContain('enter its Peppol scheme and endpoint id');
    expect(within(notice).getByTestId('e-invoice-fix-customer').getAttribute('href')).toContain(
      '/parties/ACME',
    );
    fireEvent.click(screen.getByTestId('issue-invoice'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('issue-e-invoice-warning').textContent).toContain(
      'It is issued with its PDF, but it cannot be sent through Peppol',
    );
    expect((within(dialog).getByTestId('confirm-ok') as HTMLButtonElement).disabled).toBe(false);
  });

  it('an issued invoice without the address offers its PDF, not the UBL, and says why', async () => {
    stubApi({ ...issued, eInvoiceProblems: noAddress });
    await start('customer', 'I-2026-000042');
    expect((await screen.findByTestId('e-invoice-notice')).textContent).toContain(
      'The invoice is valid and its PDF is the document to send',
    );
    expect(screen.getByTestId('download-pdf')).toBeTruthy();
    expect(screen.queryByTestId('download-ubl')).toBeNull();
    // A customer cannot edit the record: no link to it.
    expect(screen.queryByTestId('e-invoice-fix-customer')).toBeNull();
  });
});
