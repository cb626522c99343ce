import { NO_CW_ACCESS_MESSAGE } from '@fvg/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { seedDemo } from '../../seed/sign-ins.ts';
import {
  bearer,
  createTestApp,
  createTestDatabase,
  demoTokens,
  type TestDatabase,
} from '../../test/helpers.ts';
import { fillPath, OPERATIONS, openApiOperations } from '../../test/operations.ts';
import { usersService } from '../users/users.service.ts';

/**
 * The customs warehouse is gated by cw_access (model.md "Demo users and cw_access"): every warehouse
 * operation of the registry answers 403 problem+json to a user without it — staff, an admin and a
 * customer alike — before it looks at the ids or the body. The operations come from the registry, so
 * an endpoint added there is covered here without a new line.
 */
let db: TestDatabase;
let app: App;
type Auth = { authorization: string };
let without: Record<'staff' | 'admin' | 'customer', Auth>;
let withAccess: Auth;

const isWarehouse = (key: string) => /^\w+ \/api\/(stock|stock-receipts|shipments)(\/|$)/.test(key);

beforeAll(async () => {
  db = await createTestDatabase();
  await seedDemo(db.db);
  app = await createTestApp(db);
  const tokens = await demoTokens(app);
  const password = 'Velvet-Harbor-39-Otter';
  await usersService(db.db).create({
    email: 'admin-no-cw@fvg.test',
    password,
    name: 'Admin without warehouse',
    role: 'admin',
    cwAccess: false,
  });
  // staff@fvg.local and customer@globex.example are seeded without cw_access.
  without = {
    staff: tokens.staff,
    admin: await bearer(app, 'admin-no-cw@fvg.test', password),
    customer: tokens.globex,
  };
  withAccess = tokens.admin;
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('warehouse endpoints without cw_access', () => {
  const keys = Object.keys(OPERATIONS).filter(isWarehouse);

  it('covers every warehouse operation of the OpenAPI document', () => {
    const documented = openApiOperations(app)
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
      const res = await app.inject({
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
    const res = await app.inject({
      method: 'GET',
      url: '/api/stock/00000000-0000-4000-8000-000000000001',
      headers: withAccess,
    });
    expect(res.statusCode).toBe(404);
  });
});
