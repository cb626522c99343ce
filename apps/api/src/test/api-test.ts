import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { UserCreate } from '@fvg/contracts';
import { afterAll, beforeAll } from 'vitest';
import type { App, AppDeps } from '../app.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { LocalDiskStore } from '../features/documents/storage.ts';
import { usersService } from '../features/users/users.service.ts';
import { seedFirstStart } from '../seed/demo/index.ts';
import { seedDemo } from '../seed/sign-ins.ts';
import {
  apiCaller,
  bearer,
  createTestApp,
  createTestDatabase,
  demoTokens,
  hubClients,
  listenForHub,
  startSmtpCatcher,
  type TestDatabase,
} from './helpers.ts';

/** The demo sign-ins, for a test that makes a second database of its own (createTestDatabase). */
export { seedDemo };

export type Auth = { authorization: string };
type SmtpCatcher = Awaited<ReturnType<typeof startSmtpCatcher>>;
type Role = 'admin' | 'staff' | 'acme' | 'globex';
/** The demo parties by code, and any other party by its code (possibly missing). */
type PartyIds = Record<'ACME' | 'GLOBEX' | 'NORDCAR' | 'BLUESEA', string> &
  Record<string, string | undefined>;

export interface ApiTestOptions {
  /** Seed the whole demo company (seed/demo, with its documents' files) instead of the sign-ins alone; needs `files`. */
  demoCompany?: boolean;
  /** Runs on the seeded database before the app is built (company settings, extra rows, …). */
  prepare?: (db: Db) => Promise<unknown>;
  /** The app's configuration besides the test defaults (helpers.ts `testConfig`). */
  config?: Partial<Config>;
  deps?: Pick<AppDeps, 'customsGateway'>;
  /** A throw-away data folder for the app's files (`config.dataDir`), named with this prefix, removed after. */
  files?: string;
  /** A real SMTP receiver whose URL the app sends to (`smtpUrl`). */
  smtp?: boolean;
  /** The app on a loopback port, for the hub's official client (`hubUrl`, `hub`). */
  hub?: boolean;
  /** Build an app (default true); false for a test of services on the database alone. */
  app?: boolean;
  /** Sign the four demo users in (default true; false where a test counts sign-ins). */
  signIn?: boolean;
}

/**
 * What an API test file needs, set up once for the file (beforeAll) and torn down after it (afterAll):
 * its own database with the demo sign-ins, the app, the four demo users' Authorization headers and the
 * demo parties' ids. `db`, the headers and `partyId` are the same objects before and after the set-up
 * (filled in when it runs), so a file may destructure them at its top; `app`, `hubUrl`, `dataDir` and
 * `smtp` are read through the returned object once the set-up has run.
 */
export interface ApiTest {
  db: TestDatabase;
  readonly app: App;
  /** `call(method, '/dossiers', auth, payload)` (helpers.ts `apiCaller`) against this file's app. */
  call: ReturnType<typeof apiCaller>;
  admin: Auth;
  staff: Auth;
  acme: Auth;
  globex: Auth;
  /** The same four headers by role, as helpers.ts `demoTokens` answers them. */
  tokens: Record<Role, Auth>;
  /** The seeded parties' ids by code (`ACME`, `GLOBEX`, `NORDCAR`, `BLUESEA`, and any `prepare` added). */
  partyId: PartyIds;
  hub: ReturnType<typeof hubClients>;
  readonly hubUrl: string;
  readonly dataDir: string;
  readonly smtp: SmtpCatcher;
  /** Creates a user through the users service (its rules apply) and signs them in: their Authorization header. */
  newUser(user: Omit<UserCreate, 'password'>): Promise<Auth>;
}

/** The password of the users `newUser` makes (strong enough for any password policy). */
export const NEW_USER_PASSWORD = 'Velvet-Harbor-39-Otter';

/**
 * A new area's API test file starts with:
 *
 *     const setup = apiTest({ prepare: completeCompany, files: 'fvg-offers-', hub: true });
 *     const { db, staff, acme, partyId, call, hub } = setup;
 *
 * and then reads `setup.app` where it needs the app itself.
 */
export function apiTest(options: ApiTestOptions = {}): ApiTest {
  const db = {} as TestDatabase;
  const tokens = { admin: {}, staff: {}, acme: {}, globex: {} } as Record<Role, Auth>;
  const partyId = {} as PartyIds;
  let app: App | undefined;
  let hubUrl: string | undefined;
  let dataDir: string | undefined;
  let smtp: SmtpCatcher | undefined;
  let database: TestDatabase | undefined;
  const hub = hubClients(() => must(hubUrl, 'hubUrl (hub: true)'));

  beforeAll(async () => {
    database = await createTestDatabase();
    Object.assign(db, database);
    if (options.files) dataDir = await mkdtemp(path.join(tmpdir(), options.files));
    if (options.demoCompany) {
      const store = new LocalDiskStore(path.join(must(dataDir, 'dataDir (files: prefix)'), 'files'));
      await seedFirstStart(db.db, { company: { store } });
    } else await seedDemo(db.db);
    await options.prepare?.(db.db);
    for (const p of await db.db.selectFrom('parties').select(['id', 'code']).execute()) {
      partyId[p.code] = p.id;
    }
    if (options.smtp) smtp = await startSmtpCatcher();
    if (options.app === false) return;
    app = await createTestApp(
      db,
      { ...(dataDir ? { dataDir } : {}), ...(smtp ? { smtpUrl: smtp.url } : {}), ...options.config },
      options.deps,
    );
    if (options.signIn !== false) {
      for (const [role, auth] of Object.entries(await demoTokens(app)))
        Object.assign(tokens[role as Role], auth);
    }
    if (options.hub) hubUrl = await listenForHub(app);
  });
  afterAll(async () => {
    await hub.stopAll();
    await app?.close();
    await smtp?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  return {
    db,
    get app() {
      return must(app, 'app');
    },
    call: apiCaller(() => must(app, 'app')),
    ...tokens,
    tokens,
    partyId,
    hub,
    get hubUrl() {
      return must(hubUrl, 'hubUrl (hub: true)');
    },
    get dataDir() {
      return must(dataDir, 'dataDir (files: prefix)');
    },
    get smtp() {
      return must(smtp, 'smtp (smtp: true)');
    },
    async newUser(user) {
      await usersService(db.db).create({ ...user, password: NEW_USER_PASSWORD });
      return bearer(must(app, 'app'), user.email, NEW_USER_PASSWORD);
    },
  };
}

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`apiTest: no ${what} (before beforeAll, or not asked for)`);
  return value;
}
