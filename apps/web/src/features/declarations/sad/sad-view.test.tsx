import { SANDBOX_LABEL } from '@fvg/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeHubConnection } from '../../../test/fake-hub-connection.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { renderApp } from '../../../test/render-app.tsx';
import { jsonResponse, meResponse } from '../../../test/render-route.tsx';
import { SadDocument } from './sad-document.tsx';
import { anExport, anImport, anItem, aTransit, DECLARATION_ID } from './sad-fixtures.ts';
import { sadTitle, sadViewPath } from './sad-view.tsx';

const box = (n: string, within_: HTMLElement = document.body) =>
  within(within_).getByTestId(`sad-box-${n}-value`).textContent ?? '';
const sheets = () => screen.getAllByTestId('sad-sheet');

describe('SadDocument', () => {
  it('lays an import out box by box, with the duty and VAT estimate in box 47', () => {
    renderWithProviders(<SadDocument declaration={anImport()} tag="import" />);
    expect(sheets()).toHaveLength(1);
    const [sheet] = sheets() as [HTMLElement];
    expect(within(sheet).getByTestId('sad-type-tag').textContent).toBe('import');
    expect(within(sheet).getByTestId('sad-mrn').textContent).toBe('26NLR0000000000125');
    expect(box('1', sheet)).toBe('IMA');
    expect(box('2', sheet)).toContain('Shenzhen Electronics Ltd');
    expect(box('3', sheet)).toBe('1 / 1');
    expect(box('5', sheet)).toBe('2');
    expect(box('6', sheet)).toBe('20');
    expect(box('7', sheet)).toBe('LRN-2026-000012');
    expect(box('8', sheet)).toContain('Acme Trading B.V.');
    expect(box('8', sheet)).toContain('NL123456789');
    // The representative declares for the importer, in direct representation.
    expect(box('14', sheet)).toContain('FVG Forwarding B.V.');
    expect(box('14', sheet)).toContain('NL987654321');
    expect(within(sheet).getByTestId('sad-representation').textContent).toContain(
      '2 · Direct representation',
    );
    expect(box('15a', sheet)).toBe('CN');
    expect(box('17a', sheet)).toBe('NL');
    expect(box('18', sheet)).toContain('MAERSK ESSEN');
    expect(box('18', sheet)).toContain('DK');
    expect(box('19', sheet)).toBe('1 · yes');
    expect(box('20', sheet)).toBe('CIF Rotterdam');
    expect(box('22', sheet)).toBe('USD $20,000.00');
    expect(box('23', sheet)).toContain('0.925');
    expect(box('23', sheet)).toContain('EUR per USD');
    expect(box('24', sheet)).toBe('11');
    expect(box('25', sheet)).toBe('1 · Sea');
    expect(box('26', sheet)).toBe('3 · Road');
    expect(box('29', sheet)).toBe('NL000396');
    expect(within(sheet).getByTestId('sad-box-29').textContent).toContain('Office of entry');
    expect(box('30', sheet)).toBe('CZ NLRTMECT');

    const item1 = screen.getByTestId('sad-item-1');
    expect(box('31', item1)).toContain('ACME 1/10');
    expect(box('31', item1)).toContain('10 × Carton (CT)');
    expect(box('31', item1)).toContain('MSKU6011672');
    expect(box('31', item1)).toContain('Laptop computers, lot 1');
    expect(box('32', item1)).toBe('1');
    expect(box('33', item1)).toBe('8471 30 00 00');
    expect(box('34', item1)).toBe('CN');
    expect(box('35', item1)).toBe('1,250.5 kg');
    expect(box('36', item1)).toBe('100');
    // Box 37 second part: the additional procedure (DE 1/11).
    expect(box('37', item1)).toBe('4000F45');
    expect(within(item1).getByTestId('sad-additional-procedure-1').textContent).toBe('F45');
    expect(box('38', item1)).toBe('1,100 kg');
    expect(box('40', item1)).toBe('N337 · Temporary storage declaration — TS-2026-77');
    // Box 44 on the first item: the item's documents, then the header's statements and authorisations.
    expect(box('44', item1)).toBe(
      'N380 · Commercial invoice — INV-2026-004200500 Identity of declarant and importerC506 Deferred payment: NLDPO0001234',
    );
    // Boxes 41–43: supplementary units in the CN code's unit, the item price, the valuation method.
    expect(box('41', item1)).toBe('120 p/st');
    expect(box('42', item1)).toBe('$10,000.00');
    expect(box('43', item1)).toBe('1');
    expect(box('46', item1)).toBe('€9,500.00');
    const taxes = within(item1).getByTestId('sad-taxes');
    expect(within(item1).getByTestId('sad-box-47').textContent).toContain('Estimate');
    expect(within(taxes).getByTestId('sad-tax-duty').textContent).toBe(
      'A00 Customs duty€9,500.003.5 %€332.50H',
    );
    expect(within(taxes).getByTestId('sad-tax-vat').textContent).toBe(
      'B00 Import VAT€10,082.5021 %€2,117.33H',
    );
    expect(taxes.textContent).toContain('€2,449.83');

    const item2 = screen.getByTestId('sad-item-2');
    expect(box('33', item2)).toBe('8517 13 00');
    expect(box('47', item2)).toContain('No estimate');
    expect(within(item2).getByTestId('sad-box-47').textContent).not.toContain('Estimate');
    // Import: no transit boxes; the signature box on the sheet.
    expect(screen.queryByTestId('sad-transit')).toBeNull();
    expect(within(sheet).getByTestId('sad-box-54')).toBeTruthy();
    // Box B: the duties and taxes by type and how they are paid (H, electronic credit transfer).
    expect(box('B', sheet)).toBe(
      'A00 €332.50 B00 €2,117.33 Total €2,449.83MP H · Electronic credit transfer',
    );
  });

  it('prints in box 45 each item’s share of the additions less the deductions when the value is built from the invoice', () => {
    const { unmount } = renderWithProviders(<SadDocument declaration={anImport()} tag="import" />);
    expect(box('45', screen.getByTestId('sad-item-1'))).toBe('');
    unmount();
    renderWithProviders(
      <SadDocument
        declaration={anImport({
          additionTransportInsurance: '300.00',
          deductionTransportAfterEntry: '100.00',
        })}
        tag="import"
      />,
    );
    // Two items of the same price: 150.00 − 50.00 each.
    expect(box('45', screen.getByTestId('sad-item-1'))).toBe('€100.00');
    expect(box('45', screen.getByTestId('sad-item-2'))).toBe('€100.00');
  });

  it('lays an export out with EX in box 1, the office of exit and no taxes', () => {
    renderWithProviders(<SadDocument declaration={anExport()} tag="export" />);
    const [sheet] = sheets() as [HTMLElement];
    expect(within(sheet).getByTestId('sad-type-tag').textContent).toBe('export');
    expect(box('1', sheet)).toBe('EXA');
    expect(box('2', sheet)).toContain('Acme Trading B.V.');
    expect(box('8', sheet)).toContain('Boston Imports Inc.');
    expect(box('17a', sheet)).toBe('US');
    expect(within(sheet).getByTestId('sad-box-29').textContent).toContain('Office of exit');
    expect(box('29', sheet)).toBe('NL000854');
    expect(box('22', sheet)).toBe('EUR €20,000.00');
    expect(box('23', sheet)).toBe('');
    // 1000, and under it 000: no additional procedure.
    expect(box('37', sheet)).toBe('1000000');
    expect(within(sheet).getByTestId('sad-additional-procedure-1').textContent).toBe('000');
    expect(box('47', sheet)).toBe('No import duties or taxes');
    expect(screen.queryByTestId('sad-taxes')).toBeNull();
    expect(screen.queryByTestId('sad-transit')).toBeNull();
    expect(box('B', sheet)).toBe('No duties or taxes on export');
  });

  it('lays a transit out with T1, the principal, offices of transit, guarantee and destination', () => {
    renderWithProviders(<SadDocument declaration={aTransit()} tag="transit" />);
    const [sheet] = sheets() as [HTMLElement];
    expect(within(sheet).getByTestId('sad-type-tag').textContent).toBe('transit');
    expect(box('1', sheet)).toBe('T1');
    expect(within(sheet).getByTestId('sad-box-C').textContent).toContain('Office of departure');
    expect(box('C', sheet)).toBe('NL000396');
    expect(box('14', sheet)).toContain('Acme Trading B.V.');
    expect(within(sheet).getByTestId('sad-representation').textContent).toContain(
      '1 · Declarant (no representative)',
    );
    expect(box('50', sheet)).toContain('Acme Trading B.V.');
    expect(box('50', sheet)).toContain('NL123456789');
    expect(box('51', sheet)).toBe('BE101000  DE002100');
    expect(box('52', sheet)).toContain('1 · Comprehensive guarantee');
    expect(box('52', sheet)).toContain('26NL0000000000042');
    expect(box('52', sheet)).toContain('€15,000.00');
    expect(box('53', sheet)).toBe('DE004058');
    expect(box('40', sheet)).toBe('N830 · Export declaration — 26NLA0000000000013');
    expect(box('37', sheet)).toBe('');
    expect(box('22', sheet)).toBe('');
    // Box D: the seals affixed and the time limit.
    expect(box('D', sheet)).toBe('Seals affixed 2 · FVG427100, TRUCK-7781Time limit 15 Dec 2026');
    expect(box('43', sheet)).toBe('');
    // Box B: the guarantee that secures the reference amount.
    expect(box('B', sheet)).toBe('Guarantee 1 · 26NL0000000000042 · €15,000.00');
  });

  it('continues on BIS sheets of three items with boxes 1, 3 and 7, the MRN and the sandbox label on each', () => {
    const items = Array.from({ length: 7 }, (_, i) => anItem(i + 1));
    renderWithProviders(<SadDocument declaration={anImport({ items })} tag="import" />);
    expect(sheets()).toHaveLength(3);
    const [first, second, third] = sheets() as [HTMLElement, HTMLElement, HTMLElement];
    expect(box('3', first)).toBe('1 / 3');
    expect(box('5', first)).toBe('7');
    expect(
      within(first)
        .getAllByTestId(/^sad-item-/)
        .map((el) => el.dataset.testid),
    ).toEqual(['sad-item-1', 'sad-item-2', 'sad-item-3']);
    expect(within(second).getByTestId('sad-summary')).toBeTruthy();
    expect(within(second).queryByTestId('sad-header')).toBeNull();
    expect(box('1', second)).toBe('IMA');
    expect(box('3', second)).toBe('2 / 3');
    expect(box('7', second)).toBe('LRN-2026-000012');
    expect(within(second).getAllByTestId(/^sad-item-/)).toHaveLength(3);
    expect(box('3', third)).toBe('3 / 3');
    expect(
      within(third)
        .getAllByTestId(/^sad-item-/)
        .map((el) => el.dataset.testid),
    ).toEqual(['sad-item-7']);
    for (const sheet of [first, second, third]) {
      expect(within(sheet).getByTestId('sad-mrn').textContent).toBe('26NLR0000000000125');
      expect(within(sheet).getByTestId('sad-sandbox').textContent).toContain(SANDBOX_LABEL);
      expect(within(sheet).getByTestId('sad-type-tag').textContent).toBe('import');
    }
  });

  it('prints a declaration without items and without an MRN on one sheet', () => {
    renderWithProviders(
      <SadDocument declaration={anImport({ items: [], status: 'draft', mrn: null })} tag="import" />,
    );
    expect(sheets()).toHaveLength(1);
    expect(box('3')).toBe('1 / 1');
    expect(box('5')).toBe('0');
    expect(box('6')).toBe('');
    expect(screen.getByTestId('sad-mrn').textContent).toBe('not allocated yet');
    expect(screen.getByTestId('sad-no-items')).toBeTruthy();
  });
});

describe('SAD view route', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  function stubApi(declaration: { status: number; body: unknown }) {
    const fetchMock = vi.fn(async (url: string) => {
      if (url === '/api/me') return meResponse('staff');
      if (url === `/api/declarations/${DECLARATION_ID}`)
        return jsonResponse(declaration.body, declaration.status);
      return jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
    });
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }

  async function open(path: string) {
    const { router } = await renderApp(path, {
      token: 'tok',
      hubConnection: new FakeHubConnection({ autoStart: true }),
    });
    return router;
  }

  it('shows the SAD of a declaration of the route’s type, titled with its type and LRN, and prints', async () => {
    stubApi({ status: 200, body: anImport() });
    const print = vi.fn();
    vi.stubGlobal('print', print);
    await open(sadViewPath('import', DECLARATION_ID));
    expect(await screen.findByTestId('sad-document')).toBeTruthy();
    expect(sadTitle('import', 'LRN-2026-000012')).toBe('SAD — import — LRN-2026-000012 · FVG');
    await waitFor(() => expect(document.title).toBe('SAD — import — LRN-2026-000012 · FVG'));
    expect(screen.getByTestId('sad-back').getAttribute('href')).toBe('/declarations/LRN-2026-000012');
    expect(screen.getByTestId('sad-sheet-count').textContent).toBe('1 A4 sheet');
    fireEvent.click(screen.getByTestId('sad-print'));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('shows the app’s not-found page under the wrong type', async () => {
    stubApi({ status: 200, body: anImport() });
    await open(sadViewPath('export', DECLARATION_ID));
    expect(await screen.findByTestId('not-found')).toBeTruthy();
    expect(screen.queryByTestId('sad-document')).toBeNull();
    // The root's page, not a message inside the shell.
    expect(screen.queryByTestId('navbar')).toBeNull();
  });

  it('shows the not-found page when the API does not know the declaration (missing or another party’s)', async () => {
    stubApi({ status: 404, body: { type: 'about:blank', title: 'Not found', status: 404 } });
    await open(sadViewPath('transit', DECLARATION_ID));
    expect(await screen.findByTestId('not-found')).toBeTruthy();
  });

  it('shows the not-found page for an address that cannot name a declaration, without asking the API', async () => {
    const fetchMock = stubApi({ status: 200, body: aTransit() });
    await open('/declarations/transit/77/alt');
    expect(await screen.findByTestId('not-found')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/api/declarations/77');
  });

  it('shows an error, not the not-found page, when the load fails for another reason', async () => {
    stubApi({ status: 403, body: { type: 'about:blank', title: 'Forbidden', status: 403 } });
    await open(sadViewPath('import', DECLARATION_ID));
    expect(await screen.findByText('This declaration could not be loaded')).toBeTruthy();
    expect(screen.queryByTestId('not-found')).toBeNull();
  });
});
