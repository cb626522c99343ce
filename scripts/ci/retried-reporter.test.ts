import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTestNames } from './stages.ts';

const run = promisify(execFile);
const vitest = path.resolve(import.meta.dirname, '../../node_modules/vitest/vitest.mjs');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fvg-retried-'));
  await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
  await writeFile(
    path.join(dir, 'scratch.test.ts'),
    `import { describe, expect, it } from 'vitest';
let attempts = 0;
describe('group', () => {
  it('passes on its second attempt', () => { attempts++; expect(attempts).toBe(2); });
  it('fails every attempt', () => { expect(1).toBe(2); });
  it('passes at once', () => {});
});
`,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the retried-tests reporter', () => {
  it('names the test that passed only on its retry and what its failed attempt threw; the one that failed twice is a FAIL line', async () => {
    const reporter = path.join(import.meta.dirname, 'retried-reporter.ts');
    const args = [
      vitest,
      'run',
      '--root',
      dir,
      '--retry',
      '1',
      '--reporter',
      'default',
      '--reporter',
      reporter,
    ];
    const result = await run(process.execPath, args, { env: { ...process.env, CI: 'true' } }).catch(
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect('code' in result && result.code).toBe(1);
    // Vitest writes its FAIL lines to stderr; a stage keeps both streams.
    expect(parseTestNames(result.stdout + result.stderr)).toEqual({
      failed: ['scratch.test.ts > group > fails every attempt (initial run, 1st retry)'],
      retried: [
        'scratch.test.ts > group > passes on its second attempt (retry x1): first failure: ' +
          'AssertionError: expected 1 to be 2 // Object.is equality (scratch.test.ts:4)',
      ],
    });
  }, 60_000);
});
