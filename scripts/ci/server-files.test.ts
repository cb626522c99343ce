import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listTestFiles, serverTestFiles } from './server-files.ts';

const root = path.resolve(import.meta.dirname, '../..');
const apiSrc = path.join(root, 'apps/api/src');
let scratch: string | undefined;
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("the API test files CI's external-server pass runs", () => {
  const all = listTestFiles(apiSrc);
  const chosen = new Set(serverTestFiles(all).map((f) => path.relative(apiSrc, f)));

  it('takes the files that use the test server, directly or through a module they import', () => {
    expect(all.length).toBeGreaterThan(50);
    for (const file of [
      'features/dossiers/dossiers.test.ts', // createTestDatabase() itself
      'test/access-matrix.test.ts', // through test/operations.ts
      'test/malformed-input.test.ts',
      'observability/observability.test.ts', // inject('pgAdminUrl') for a database of its own
      'cli.test.ts',
      'hub/scale-out.test.ts',
    ])
      expect(chosen, file).toContain(file);
  });

  it('leaves out the files that start their own PostgreSQL or use none', () => {
    for (const file of [
      'crash-restart.test.ts',
      'backup/backup.test.ts',
      'db-outage.test.ts',
      'lifecycle.test.ts',
      'db/embedded.test.ts',
      'hub/protocol/conformance.test.ts',
      'jobs/jobs-outage.test.ts', // imports test/helpers.ts, but only for testConfig and waitUntil
      'e-invoice/ubl.test.ts',
    ])
      expect(chosen, file).not.toContain(file);
  });

  it('follows imports through helper modules, and a definition of createTestDatabase is not a use', async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'fvg-server-files-'));
    await mkdir(path.join(scratch, 'deep'));
    const files: Record<string, string> = {
      'helpers.ts':
        "export async function createTestDatabase() { return inject('pgAdminUrl'); }\nexport const wait = 1;",
      'deep/world.ts':
        "import { createTestDatabase } from '../helpers.ts';\nexport const w = () => createTestDatabase();",
      'support.ts': "export { w } from './deep/world.ts';",
      'through.test.ts': "import { w } from './support.ts';\nimport { x } from './cycle.ts';",
      'cycle.ts': "import './cycle-b.ts';\nexport const x = 1;",
      'cycle-b.ts': "import { x } from './cycle.ts';",
      'own.test.ts': "import { wait } from './helpers.ts';\nimport { x } from './cycle.ts';",
      'lazy.test.ts': "const m = await import('./support.ts');",
    };
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(scratch, name), text);
    const dir = scratch;
    const picked = serverTestFiles(listTestFiles(dir)).map((f) => path.relative(dir, f));
    expect(picked).toEqual(['lazy.test.ts', 'through.test.ts']);
  });
});
