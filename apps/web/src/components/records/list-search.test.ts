import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { displayPreferences } from '../../lib/display-preferences.ts';
import { exportParams } from './export-menu.tsx';
import { listParamsOf } from './list-page.tsx';
import {
  formatSortParam,
  listSearchShape,
  parseSortParam,
  searchDate,
  searchEnum,
  searchEnumList,
  searchFlag,
  searchUuid,
  searchValidator,
} from './list-search.ts';

const validate = searchValidator(
  z.object({
    ...listSearchShape(['number', 'etd', 'customer']),
    status: searchEnumList(['booked', 'in_transit', 'closed']),
    mode: searchEnum(['sea', 'air']),
    customerId: searchUuid,
    etdFrom: searchDate,
    new: searchFlag,
  }),
);

describe('list search parameters', () => {
  it('keeps valid values and drops the rest instead of failing the screen', () => {
    expect(
      validate({
        page: 3,
        pageSize: 100,
        sort: '-etd,bogus,customer',
        q: 123,
        status: 'closed,nope,booked,booked',
        mode: 'ship',
        customerId: 'not-a-uuid',
        etdFrom: '2026-02-30x',
        new: 1,
        other: 'x',
      }),
    ).toEqual({ page: 3, pageSize: 100, sort: '-etd,customer', q: '123', status: 'closed,booked', new: 1 });
  });

  it('leaves defaults out: page 1, unknown page sizes, empty text', () => {
    expect(validate({ page: 1, pageSize: 33, q: '  ', status: '' })).toEqual({});
    expect(validate({ page: 'x' })).toEqual({});
  });

  it('parses and formats sort orders', () => {
    expect(parseSortParam('number,-etd,number, -bad id')).toEqual([
      { id: 'number', desc: false },
      { id: 'etd', desc: true },
    ]);
    expect(
      formatSortParam([
        { id: 'customer', desc: true },
        { id: 'number', desc: false },
      ]),
    ).toBe('-customer,number');
    expect(formatSortParam([])).toBeUndefined();
  });

  it('builds the API query from the URL state: paging defaults, declared filters only', () => {
    const params = listParamsOf({ sort: '-etd', q: 'acme', status: 'booked', new: 1, tab: 'x' }, [
      { kind: 'multiselect', key: 'status', label: 'Status', options: [] },
      { kind: 'dateRange', from: 'etdFrom', to: 'etdTo', label: 'ETD', testId: 'etd' },
    ]);
    expect(params).toEqual({ page: 1, pageSize: 50, sort: '-etd', q: 'acme', status: 'booked' });
    // With how the user reads dates and times (the default preferences in a test: the runner's zone).
    expect(exportParams(params, 'xlsx')).toEqual({
      sort: '-etd',
      q: 'acme',
      status: 'booked',
      format: 'xlsx',
      tz: displayPreferences().timeZone,
      dateFormat: 'D MMM YYYY',
      timeFormat: 'HH:mm',
    });
  });
});
