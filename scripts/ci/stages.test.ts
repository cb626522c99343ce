import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCounts, parseTestNames, runStages, type Stage, summary } from './stages.ts';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fvg-stages-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A stage running a few lines of JavaScript in its own node process. */
const js = (name: string, code: string, after?: string[]): Stage => ({
  name,
  command: [process.execPath, '-e', code],
  cwd: dir,
  ...(after ? { after } : {}),
});
/** Code that leaves a marker file, then waits (30 s at most) for another stage's marker. */
const meet = (mine: string, theirs: string) => `
  const fs = require('node:fs');
  fs.writeFileSync('${mine}', '');
  const deadline = Date.now() + 30000;
  const wait = () => fs.existsSync('${theirs}') ? process.exit(0)
    : Date.now() > deadline ? (console.log('never met ${theirs}'), process.exit(1)) : setTimeout(wait, 20);
  wait();`;

describe('the stage runner', () => {
  it('runs independent stages side by side: two stages that each wait for the other both pass', async () => {
    const results = await runStages([js('a', meet('a.mark', 'b.mark')), js('b', meet('b.mark', 'a.mark'))], {
      write: () => {},
    });
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['a', 'passed'],
      ['b', 'passed'],
    ]);
  }, 60_000);

  it('starts a stage only after the ones it waits for passed, skips it when one failed, and runs the rest', async () => {
    const written: string[] = [];
    const results = await runStages(
      [
        js('first', "require('node:fs').writeFileSync('first.done', '')"),
        js('second', "process.exit(require('node:fs').existsSync('first.done') ? 0 : 1)", ['first']),
        js('broken', "console.error('the reason it failed'); process.exit(3)"),
        js('needs-broken', 'process.exit(0)', ['broken']),
        js('needs-skipped', 'process.exit(0)', ['needs-broken']),
        js('independent', 'process.exit(0)'),
      ],
      { write: (t) => written.push(t) },
    );
    expect(Object.fromEntries(results.map((r) => [r.name, r.status]))).toEqual({
      first: 'passed',
      second: 'passed',
      broken: 'failed',
      'needs-broken': 'skipped',
      'needs-skipped': 'skipped',
      independent: 'passed',
    });
    expect(results.find((r) => r.name === 'broken')?.output).toContain('the reason it failed');
    const log = written.join('');
    expect(log).toContain('needs-broken skipped: broken did not pass');
    expect(log).toContain('needs-skipped skipped: needs-broken did not pass');
  }, 60_000);

  it("prints each stage's output as one block, even when stages write at the same time", async () => {
    const chatty = (name: string) =>
      js(
        name,
        `let i = 0; const t = setInterval(() => { console.log('${name} line ' + i); if (++i === 5) clearInterval(t); }, 10)`,
      );
    const written: string[] = [];
    await runStages([chatty('left'), chatty('right')], { write: (t) => written.push(t) });
    const log = written.join('');
    for (const name of ['left', 'right']) {
      const block = log.slice(log.indexOf(`----- ${name} -----`), log.indexOf(`----- end of ${name} -----`));
      expect(block.trim().split('\n').slice(1)).toEqual([0, 1, 2, 3, 4].map((i) => `${name} line ${i}`));
    }
  }, 60_000);

  it('runs at most `slots` heavy stages at a time, the next one when a slot is free', async () => {
    const heavy = (name: string, code: string): Stage => ({ ...js(name, code), heavy: true });
    const results = await runStages(
      [
        heavy(
          'h1',
          `${meet('h1.mark', 'h2.mark')}; process.on('exit', () => require('node:fs').writeFileSync('h1.end', ''))`,
        ),
        heavy(
          'h2',
          `${meet('h2.mark', 'h1.mark')}; process.on('exit', () => require('node:fs').writeFileSync('h2.end', ''))`,
        ),
        heavy(
          'h3',
          "const fs = require('node:fs'); process.exit(fs.existsSync('h1.end') || fs.existsSync('h2.end') ? 0 : 1)",
        ),
        js('light', meet('light.mark', 'h1.mark')),
      ],
      { write: () => {}, slots: 2 },
    );
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['h1', 'passed'],
      ['h2', 'passed'],
      ['h3', 'passed'],
      ['light', 'passed'],
    ]);
  }, 60_000);

  it('refuses a stage that waits for a stage not listed before it', async () => {
    await expect(runStages([js('a', '', ['b']), js('b', '')])).rejects.toThrow(/listed before/);
  });

  it('ends with a table of stage, seconds and status, and one line of test counts', () => {
    const text = summary([
      { name: 'install', status: 'passed', seconds: 61.2, output: '' },
      {
        name: 'unit',
        status: 'passed',
        seconds: 300.4,
        output: '',
        counts: { passed: 10, failed: 0, skipped: 2 },
      },
      {
        name: 'e2e',
        status: 'failed',
        seconds: 12,
        output: '',
        counts: { passed: 3, failed: 1, skipped: 0 },
      },
      { name: 'peppol', status: 'skipped', seconds: 0, output: '' },
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^stage\s+seconds\s+status$/);
    expect(lines[1]).toMatch(/^install\s+61\s+passed$/);
    expect(lines[2]).toMatch(/^unit\s+300\s+passed \(tests: 10 passed, 0 failed, 2 skipped\)$/);
    expect(lines[3]).toMatch(/^e2e\s+12\s+failed/);
    expect(text).toContain('Not passed: e2e failed, peppol skipped');
    expect(lines.at(-2)).toBe('Tests: 13 passed, 1 failed, 2 skipped');
  });

  it('names the failed tests and those that passed only on a retry after the table, per stage', () => {
    const text = summary([
      {
        name: 'unit',
        status: 'failed',
        seconds: 700,
        output: '',
        tests: { failed: ['api a.test.ts > broken'], retried: ['web b.test.tsx > slow focus (retry x1)'] },
      },
      {
        name: 'e2e',
        status: 'passed',
        seconds: 900,
        output: '',
        tests: { failed: [], retried: ['x.spec.ts:3:1 › c'] },
      },
    ]);
    expect(text).toContain('Failed tests:\n  unit: api a.test.ts > broken\n');
    expect(text).toMatch(
      /Passed only on a retry[^\n]*:\n {2}unit: web b\.test\.tsx > slow focus \(retry x1\)\n {2}e2e: x\.spec\.ts:3:1 › c\n/,
    );
    expect(summary([{ name: 'lint', status: 'passed', seconds: 1, output: '' }])).not.toMatch(
      /Failed tests|retry/,
    );
  });
});

describe('test counts from a stage output', () => {
  it("reads Vitest's summary", () => {
    const out =
      ' Test Files  1 failed | 203 passed (204)\n      Tests  \u001b[1m2 failed\u001b[22m | 1975 passed | 3 skipped (1980)\n';
    expect(parseCounts(out)).toEqual({ passed: 1975, failed: 2, skipped: 3 });
    expect(parseCounts('      Tests  1980 passed (1980)\n')).toEqual({ passed: 1980, failed: 0, skipped: 0 });
  });

  it("reads Playwright's summary, a flaky test counting as passed", () => {
    const out =
      '  ✓  67 e2e/x.spec.ts:3:1 › a (2.0s)\n\n  1 failed\n    e2e/y.spec.ts:9:1 › b\n  2 flaky\n  64 passed (9.5m)\n';
    expect(parseCounts(out)).toEqual({ passed: 66, failed: 1, skipped: 0 });
  });

  it("names Vitest's failed tests (FAIL lines) and the retried ones (retried: lines)", () => {
    const out = [
      ' ❯ a.test.ts (3 tests | 1 failed) 16ms',
      '     × broken one 2ms (retry x1)',
      '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
      '',
      ' \u001b[31mFAIL\u001b[39m  api a.test.ts > group > broken one (initial run, 1st retry)',
      'AssertionError: expected 1 to be 2',
      '',
      'retried: web b.test.tsx > group > flaky one (retry x1)',
      '      Tests  1 failed | 2 passed (3)',
    ].join('\n');
    expect(parseTestNames(out)).toEqual({
      failed: ['api a.test.ts > group > broken one (initial run, 1st retry)'],
      retried: ['web b.test.tsx > group > flaky one (retry x1)'],
    });
  });

  it('names the tests Playwright lists under its failed and flaky lines, and nothing else', () => {
    const out = [
      '  ✓   1 e2e/a.spec.ts:3:1 › fine (2.0s)',
      '  1) e2e/y.spec.ts:9:1 › b ───────',
      '    Error: expect(locator).toBeVisible() failed',
      '',
      '  1 failed',
      '    e2e/y.spec.ts:9:1 › b ─────────',
      '  1 flaky',
      '    e2e/z.spec.ts:4:1 › c',
      '  65 passed (9.5m)',
      '    not a name',
    ].join('\n');
    expect(parseTestNames(out)).toEqual({
      failed: ['e2e/y.spec.ts:9:1 › b ─────────'],
      retried: ['e2e/z.spec.ts:4:1 › c'],
    });
  });

  it('finds none in other output', () => {
    expect(parseTestNames('Checked 854 files in 2s. No fixes applied.\n')).toEqual({
      failed: [],
      retried: [],
    });
    expect(parseCounts('Checked 854 files in 2s. No fixes applied.\n')).toBeUndefined();
  });
});

describe('npm test (scripts/test-all.ts)', () => {
  it('prints the table and exits 1 when a stage fails, here the Peppol check without its validator', async () => {
    const script = path.resolve(import.meta.dirname, '../test-all.ts');
    const failed = await run(process.execPath, [script, '--only', 'peppol', '--peppol', dir]).catch(
      (e: { code: number; stdout: string }) => e,
    );
    expect('code' in failed && failed.code).toBe(1);
    expect(failed.stdout).toContain('The Peppol validator is missing');
    expect(failed.stdout).toMatch(/^peppol\s+\d+\s+failed$/m);
    expect(failed.stdout).toMatch(/^Tests: 0 passed, 0 failed$/m);
  }, 60_000);
});
