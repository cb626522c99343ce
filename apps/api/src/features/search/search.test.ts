import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { seedDemo } from '../../db/seed.ts';
import {
  apiCaller,
  createTestApp,
  createTestDatabase,
  demoTokens,
  type Json,
  type TestDatabase,
} from '../../test/helpers.ts';

let db: TestDatabase;
let app: App;
type Auth = { authorization: string };
let admin: Auth;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedDemo(db.db);
  app = await createTestApp(db);
  ({ admin } = await demoTokens(app));
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

const call = apiCaller(() => app);

describe('search smoke', () => {
  it('answers', async () => {
    const r = await call('GET', '/search?q=ac', admin);
    console.log(JSON.stringify(r.body, null, 1).slice(0, 3000));
    expect(r.status).toBe(200);
    const groups = (r.body as Json).groups as Json[];
    expect(groups.length).toBeGreaterThan(0);
  });
});
