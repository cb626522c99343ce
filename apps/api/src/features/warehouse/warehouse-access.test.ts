import { NO_CW_ACCESS_MESSAGE } from '@fvg/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Auth, apiTest } from '../../test/api-test.ts';
import { fillPath, OPERATIONS, openApiOperations } from '../../test/operations.ts';

/**
 * The customs warehouse is gated by cw_access (model.md "Demo users and cw_access"): every warehouse
 * operation of the registry answers 403 problem+json to a user without it — staff, an admin and a
 * customer alike — before it looks at the ids or the body. The operations come from the registry, so
 * an endpoint added there is covered here without a new line.
 */
const setup = apiTest();
const { tokens } = setup;
let without: Record<'staff' | 'admin' | 'customer', Auth>;
let withAccess: Auth;
const isWarehouse = (key: string) => /^\w+ \/api\/(stock|stock-receipts|shipments)(\/|$)/.test(key);
beforeAll(async () => {
  // staff@fvg.local and customer@globex.example are seeded without cw_access.
  without = {
    staff: tokens.staff,
    admin: await setup.newUser({
      email: 'admin-no-cw@fvg.test',
      name: 'Admin without warehouse',
      role: 'admin',
      cwAccess: false,
    }),
    customer: tokens.globex,
  };
  withAccess = tokens.admin;
});

describe('warehouse endpoints without cw_access', () => {
  const keys = Object.keys(OPERATIONS).filter(isWarehouse);

  it('covers every warehouse operation of the OpenAPI document', () => {
    const documented = openApiOperations(setup.app)
      .map((o) => o.key)
      .filter(isWarehouse);
    expect(keys.length).toBeGreaterThanOrEqual(12);
    expect([...keys].sort()).toEqual([...documented].sort());
  });

  it.each(keys)('%s answers 403 problem+json to staff, an admin and a customer', async (key) => {
    const [method, template] = key.split(' ') as [string, string];
    // Any id will do: the gate answers before anything is looked up (another id would only be a 404).
    const url = fillPath(template, { id: '00000000-0000-4000-8000-000000000001' });
    const failures: string[] = [];
    for (const [who, auth] of Object.entries(without)) {
      const res = await setup.app.inject({
        method: method as 'GET',
        url,
        headers: { ...auth, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
        ...(method === 'GET' ? {} : { payload: '{}' }),
      });
      if (res.statusCode !== 403) failures.push(`${who}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      else {
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
        expect((res.json() as { detail: string }).detail).toBe(NO_CW_ACCESS_MESSAGE);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets a user with cw_access past the gate (the same request is judged on its merits)', async () => {
    const res = await setup.app.inject({
      method: 'GET',
      url: '/api/stock/00000000-0000-4000-8000-000000000001',
      headers: withAccess,
    });
    expect(res.statusCode).toBe(404);
  });
});
