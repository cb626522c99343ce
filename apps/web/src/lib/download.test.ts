import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client.ts';
import { downloadFile, filenameFromDisposition } from './download.ts';
import { setToken } from './token.ts';

describe('filenameFromDisposition', () => {
  it('reads plain, quoted and RFC 5987 names', () => {
    expect(filenameFromDisposition('attachment; filename="dossiers-2026-05-01.csv"')).toBe(
      'dossiers-2026-05-01.csv',
    );
    expect(filenameFromDisposition('attachment; filename=parties.xlsx')).toBe('parties.xlsx');
    expect(filenameFromDisposition('attachment; filename*=UTF-8\'\'caf%C3%A9.csv; filename="cafe.csv"')).toBe(
      'café.csv',
    );
    expect(filenameFromDisposition(null)).toBeUndefined();
  });
});

describe('downloadFile', () => {
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  let clicked: { download: string; href: string }[];

  beforeEach(() => {
    clicked = [];
    URL.createObjectURL = vi.fn(() => 'blob:file-1');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.href });
    });
  });
  afterEach(() => {
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
  });

  it('fetches with the bearer header and hands the blob to the browser under the server’s name', async () => {
    setToken('secret-token');
    const fetchMock = vi.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response('a,b\r\n', {
          status: 200,
          headers: { 'content-disposition': 'attachment; filename="dossiers-2026-05-01.xlsx"' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);

    const result = await downloadFile(
      'dossiers',
      { status: 'booked,in_transit', q: undefined, format: 'xlsx' },
      'x.xlsx',
    );

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/dossiers?status=booked%2Cin_transit&format=xlsx');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer secret-token');
    expect(clicked).toEqual([{ download: 'dossiers-2026-05-01.xlsx', href: 'blob:file-1' }]);
    expect(result).toEqual({ filename: 'dossiers-2026-05-01.xlsx', size: 5 });
    // Nothing of the temporary link is left in the page.
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it('uses the fallback name, and throws the problem of a refused export', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('x', { status: 200 })),
    );
    await downloadFile('parties', { format: 'csv' }, 'parties.csv');
    expect(clicked.at(-1)?.download).toBe('parties.csv');

    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              type: 'about:blank',
              title: 'Forbidden',
              status: 403,
              detail: 'Exports are for staff.',
            }),
            {
              status: 403,
              headers: { 'content-type': 'application/problem+json' },
            },
          ),
      ),
    );
    const error = await downloadFile('parties', { format: 'csv' }, 'parties.csv').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).message).toBe('Exports are for staff.');
    expect(clicked).toHaveLength(1);
  });
});
