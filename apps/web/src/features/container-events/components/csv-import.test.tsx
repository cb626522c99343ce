import type { CsvImportResponse } from '@fvg/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { CsvImport } from './csv-import.tsx';

const FILE = [
  'eventClassifierCode,eventDateTime,equipmentEventTypeCode,equipmentReference,emptyIndicatorCode,UNLocationCode',
  'ACT,2026-03-01T10:00:00Z,GTIN,MSKU6011672,LADEN,NLRTM',
  'ACT,2026-03-01T11:00:00Z,GTIN,MSKU6011673,LADEN,NLRTM',
  'ACT,2026-03-02T10:00:00Z,LOAD,MSKU6011672,LADEN,NLRTM',
].join('\n');

const checkDigit = {
  field: 'equipmentReference',
  message: 'equipmentReference MSKU6011673 fails the ISO 6346 check digit: MSKU601167 needs 2',
};

const preview = (invalid: boolean): CsvImportResponse => ({
  mode: 'preview',
  committed: false,
  total: 3,
  valid: invalid ? 2 : 3,
  invalid: invalid ? 1 : 0,
  duplicates: 0,
  created: 0,
  rows: [
    { row: 2, eventID: 'a', equipmentReference: 'MSKU6011672', status: 'valid' },
    invalid
      ? { row: 3, eventID: null, equipmentReference: null, status: 'invalid', errors: [checkDigit] }
      : { row: 3, eventID: 'b', equipmentReference: 'MSKU6011672', status: 'valid' },
    { row: 4, eventID: 'c', equipmentReference: 'MSKU6011672', status: 'valid' },
  ],
});

const committed = (invalid: boolean): CsvImportResponse => {
  const p = preview(invalid);
  return {
    ...p,
    mode: 'commit',
    committed: true,
    created: p.valid,
    rows: p.rows.map((r) => ({ ...r, status: r.status === 'invalid' ? 'skipped' : 'created' })),
  };
};

interface Sent {
  query: Record<string, string>;
  contentType: string | undefined;
  body: string;
}

function stubImport(opts: { invalid: boolean; previewStatus?: number }) {
  const sent: Sent[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    if (url.pathname !== '/api/container-events/import') return jsonResponse({}, 404);
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const file = init?.body as Blob;
    sent.push({
      query: Object.fromEntries(url.searchParams),
      contentType: headers['Content-Type'],
      body: await file.text(),
    });
    const mode = url.searchParams.get('mode');
    if (mode === 'preview' && opts.previewStatus)
      return jsonResponse(
        {
          type: 'about:blank',
          title: 'Bad request',
          status: opts.previewStatus,
          detail: 'The file has invalid fields: file.',
          errors: [{ field: 'file', message: 'Unknown column "colour"' }],
        },
        opts.previewStatus,
      );
    return jsonResponse(mode === 'commit' ? committed(opts.invalid) : preview(opts.invalid));
  });
  vi.stubGlobal('fetch', fetchMock);
  return sent;
}

async function chooseFile(container: HTMLElement, text = FILE) {
  const input = container.querySelector('input[type="file"]') as HTMLInputElement;
  // Browsers often give .csv files no type (or text/plain): the import sends text/csv regardless.
  fireEvent.change(input, { target: { files: [new File([text], 'events.csv', { type: '' })] } });
}

const start = () => renderRoute(<CsvImport />, { path: '/containers', url: '/containers?tab=import' });

describe('CSV import', () => {
  beforeEach(() => giveElementsSize());

  it('previews the file, blocks "Import" while a row has errors, and imports the valid rows when asked', async () => {
    const sent = stubImport({ invalid: true });
    const { container } = await start();
    await chooseFile(container);

    const summary = await screen.findByTestId('import-preview-summary');
    expect(summary.textContent).toContain('1 of 3 rows have errors');
    expect(summary.textContent).toContain('Nothing has been stored yet');
    expect(sent).toEqual([{ query: { mode: 'preview' }, contentType: 'text/csv', body: FILE }]);

    // The rows with errors are listed with the column and the server's message.
    expect(screen.getByTestId('import-row-3').textContent).toContain('Error');
    expect(screen.getByTestId('import-row-errors').textContent).toBe(
      `equipmentReference: ${checkDigit.message}`,
    );
    expect(screen.queryByTestId('import-row-2')).toBeNull();
    fireEvent.click(screen.getByTestId('import-only-errors'));
    await screen.findByTestId('import-row-2');

    const importAll = screen.getByTestId('import-commit') as HTMLButtonElement;
    expect(importAll.disabled).toBe(true);
    fireEvent.click(importAll);
    expect(sent).toHaveLength(1);

    const validOnly = screen.getByTestId('import-valid-rows') as HTMLButtonElement;
    expect(validOnly.textContent).toBe('Import 2 valid rows');
    fireEvent.click(validOnly);

    const result = await screen.findByTestId('import-result');
    expect(result.textContent).toContain('2 events imported');
    expect(result.textContent).toContain('1 row with errors skipped');
    expect(sent[1]).toEqual({
      query: { mode: 'commit', validRowsOnly: 'true' },
      contentType: 'text/csv',
      body: FILE,
    });
    expect(screen.queryByTestId('import-commit')).toBeNull();
    expect(screen.getByTestId('import-row-3').textContent).toContain('Skipped (error)');

    fireEvent.click(screen.getByTestId('import-another'));
    await waitFor(() => expect(screen.queryByTestId('import-result')).toBeNull());
    expect((container.querySelector('input[type="file"]') as HTMLInputElement).value).toBe('');
  });

  it('imports a clean file with "Import", and offers no partial import', async () => {
    const sent = stubImport({ invalid: false });
    const { container } = await start();
    await chooseFile(container);

    expect((await screen.findByTestId('import-preview-summary')).textContent).toContain('Every row is valid');
    expect(screen.queryByTestId('import-valid-rows')).toBeNull();
    expect(screen.queryByTestId('import-only-errors')).toBeNull();
    const importAll = screen.getByTestId('import-commit') as HTMLButtonElement;
    expect(importAll.disabled).toBe(false);
    fireEvent.click(importAll);

    expect((await screen.findByTestId('import-result')).textContent).toContain('3 events imported');
    expect(sent.map((s) => s.query)).toEqual([{ mode: 'preview' }, { mode: 'commit' }]);
  });

  it('shows why a file could not be read at all, with the server’s field messages', async () => {
    stubImport({ invalid: false, previewStatus: 400 });
    const { container } = await start();
    await chooseFile(container, 'colour\nred');

    const error = await screen.findByTestId('import-error');
    expect(error.textContent).toContain('The file could not be read');
    expect(error.textContent).toContain('file: Unknown column "colour"');
    expect(screen.queryByTestId('import-commit')).toBeNull();
  });
});
