import { addMonths, type CustomsRatesOfMonth, customsMonthOf, monthName } from '@fvg/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { CustomsRatesEditor } from './customs-rates-editor.tsx';

const month = customsMonthOf();
const ofMonth = (m: string, over: Partial<CustomsRatesOfMonth> = {}): CustomsRatesOfMonth => ({
  month: m,
  rates: [{ currency: 'USD', rate: '0.9249', updatedAt: `${m}-01T08:30:00Z`, updatedBy: 'Sam Staff' }],
  missingFromLastMonth: ['CNY'],
  ...over,
});

type Call = { url: string; method: string; body: unknown };
function serve(answer: (call: Call) => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const call = {
        url: String(input),
        method: init?.method ?? 'GET',
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      };
      calls.push(call);
      return answer(call);
    }),
  );
  return calls;
}

const render = () => renderRoute(<CustomsRatesEditor />, { path: '/declarations', url: '/declarations' });

afterEach(() => vi.unstubAllGlobals());

describe('CustomsRatesEditor', () => {
  it('shows the month’s rates with the rate per euro, and last month’s currencies still to enter', async () => {
    serve(() => jsonResponse(ofMonth(month)));
    await render();
    const usd = await screen.findByTestId('customs-rate-USD');
    expect((within(usd).getByLabelText('EUR per 1 USD') as HTMLInputElement).value).toBe('0.9249');
    // 1 / 0.9249 = 1.0812 USD per euro, as the Commission publishes it.
    expect(usd.textContent).toContain('1.0812 USD');
    expect(usd.textContent).toContain('Sam Staff');
    const cny = screen.getByTestId('customs-rate-CNY');
    expect((within(cny).getByLabelText('EUR per 1 CNY') as HTMLInputElement).value).toBe('');
    expect(cny.textContent).toContain('Not entered yet');
    expect(screen.getByTestId('customs-rates-month').textContent).toContain(monthName(month));
  });

  it('saves a typed rate with Enter, and puts the API’s field error under the field', async () => {
    const calls = serve((call) => {
      if (call.method === 'PUT' && (call.body as { rate: string }).rate === '0')
        return jsonResponse(
          {
            type: '/problems/validation',
            title: 'Invalid request',
            status: 400,
            errors: [{ field: 'rate', message: 'Must be more than 0' }],
          },
          400,
        );
      if (call.method === 'PUT')
        return jsonResponse(
          ofMonth(month, {
            rates: [
              { currency: 'CNY', rate: '0.1281', updatedAt: `${month}-02T09:00:00Z`, updatedBy: 'Sam Staff' },
              ...ofMonth(month).rates,
            ],
            missingFromLastMonth: [],
          }),
        );
      return jsonResponse(ofMonth(month));
    });
    await render();
    const input = within(await screen.findByTestId('customs-rate-CNY')).getByLabelText('EUR per 1 CNY');
    fireEvent.change(input, { target: { value: '0' } });
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    expect(
      await within(screen.getByTestId('customs-rate-CNY')).findByText('Must be more than 0'),
    ).toBeTruthy();
    fireEvent.change(input, { target: { value: '0.1281' } });
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    await waitFor(() =>
      expect(
        (within(screen.getByTestId('customs-rate-CNY')).getByLabelText('EUR per 1 CNY') as HTMLInputElement)
          .value,
      ).toBe('0.1281'),
    );
    const puts = calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => [new URL(c.url, 'http://x').pathname, c.body])).toEqual([
      [`/api/company/customs-rates/${month}/CNY`, { rate: '0' }],
      [`/api/company/customs-rates/${month}/CNY`, { rate: '0.1281' }],
    ]);
  });

  it('adds a currency, refusing one the table already has without asking the API', async () => {
    const calls = serve((call) =>
      call.method === 'PUT'
        ? jsonResponse(ofMonth(month, { missingFromLastMonth: [] }))
        : jsonResponse(ofMonth(month)),
    );
    await render();
    const add = await screen.findByTestId('customs-rate-add');
    fireEvent.change(within(add).getByLabelText('Currency'), { target: { value: 'usd' } });
    fireEvent.change(within(add).getByLabelText('EUR per unit'), { target: { value: '0.93' } });
    fireEvent.click(within(add).getByRole('button', { name: 'Add rate' }));
    expect(await within(add).findByText('USD is in the table already: change it there')).toBeTruthy();
    fireEvent.change(within(add).getByLabelText('Currency'), { target: { value: 'gbp' } });
    fireEvent.change(within(add).getByLabelText('EUR per unit'), { target: { value: '1.1820' } });
    fireEvent.click(within(add).getByRole('button', { name: 'Add rate' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: expect.stringContaining(`/company/customs-rates/${month}/GBP`),
      body: { rate: '1.1820' },
    });
  });

  it('steps to the month before and back, and says when a month has no rates', async () => {
    const before = addMonths(month, -1);
    const calls = serve((call) =>
      call.url.includes(`month=${before}`)
        ? jsonResponse({ month: before, rates: [], missingFromLastMonth: [] })
        : jsonResponse(ofMonth(month)),
    );
    await render();
    await screen.findByTestId('customs-rate-USD');
    fireEvent.click(screen.getByRole('button', { name: 'Previous month' }));
    expect((await screen.findByTestId('customs-rates-empty')).textContent).toContain(
      `No rates for ${monthName(before)} yet`,
    );
    expect(calls.some((c) => c.url.includes(`month=${before}`))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'This month' }));
    expect(await screen.findByTestId('customs-rate-USD')).toBeTruthy();
  });
});
