import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { listTestFiles, serverTestFiles } from './ci/server-files.ts';
import { runStages, type Stage, type StageResult, stopAll, summary } from './ci/stages.ts';

/**
 * `npm test`: every check of the project, independent stages side by side, then a table of the time
 * each took. Without options it runs on the embedded PostgreSQL only (a fresh machine needs nothing
 * else); `.ci/run` adds the second API pass on an external server and the Peppol check of the UBL:
 *
 *   node scripts/test-all.ts [--database-url URL] [--peppol DIR] [--ncts DIR] [--times FILE] [--only a,b] [--slots N]
 *
 *   --database-url  run the API test files that use the test server once more against this server
 *   --peppol        validate test-results/ubl with DIR/validate.mjs (the official Peppol BIS rules)
 *   --ncts          validate test-results/ncts with DIR/validate.sh (Debian's xmllint, the NCTS phase 6 XSDs)
 *   --times         a file of `stage<TAB>seconds<TAB>status` lines timed before (CI's installs)
 *   --only          run only these stages (and nothing they wait for)
 *   --slots         how many test stages (unit, e2e, api-on-server) run at a time, 1 by default (see docs/ci.md)
 */
const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    peppol: { type: 'string' },
    ncts: { type: 'string' },
    times: { type: 'string' },
    only: { type: 'string' },
    // One test stage at a time on this project's 2-core machines: they are CPU-bound (ADR 0062).
    slots: { type: 'string', default: '1' },
  },
});

const npm = (script: string) => ['npm', 'run', '-s', script];

/** The stages and what each waits for; see docs/ci.md for why they are laid out this way. */
const stages: Stage[] = [
  { name: 'lint', command: npm('lint') },
  { name: 'typecheck', command: npm('typecheck') },
  { name: 'unit', command: npm('test:unit'), heavy: true },
  // The build, then Playwright; its output folder is test-results/e2e, as Playwright empties it at its
  // start and the API tests' UBL (test-results/ubl, for the Peppol check) must stay.
  { name: 'e2e', command: [...npm('test:e2e'), '--', '--output', 'test-results/e2e'], heavy: true },
];

if (values['database-url']) {
  const files = serverTestFiles(listTestFiles(path.join(root, 'apps/api/src')));
  stages.push({
    name: 'api-on-server',
    command: [...npm('test:api'), '--', ...files.map((f) => path.relative(root, f))],
    env: { TEST_DATABASE_URL: values['database-url'] },
    heavy: true,
  });
}

if (values.peppol) {
  stages.push({
    name: 'peppol',
    command: [process.execPath, path.join(import.meta.dirname, 'ci/peppol.ts'), path.resolve(values.peppol)],
    after: stages.some((s) => s.name === 'api-on-server') ? ['unit', 'api-on-server'] : ['unit'],
  });
}

if (values.ncts) {
  // The IE015 messages the API tests built, once more against the conformance folder's own copy of the
  // schemas with Debian's xmllint (the tests validate them in-process with the same libxml2).
  stages.push({
    name: 'ncts',
    command: [
      'bash',
      path.join(path.resolve(values.ncts), 'validate.sh'),
      path.join(root, 'test-results/ncts'),
    ],
    after: stages.some((s) => s.name === 'api-on-server') ? ['unit', 'api-on-server'] : ['unit'],
  });
}

const only = values.only?.split(',').map((s) => s.trim());
const selected = only
  ? stages
      .filter((s) => only.includes(s.name))
      .map((s) => ({ ...s, after: s.after?.filter((n) => only.includes(n)) }))
  : stages;

const before: StageResult[] = values.times
  ? readFileSync(values.times, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name = '', seconds = '0', status = 'passed'] = line.split('\t');
        return {
          name,
          seconds: Number(seconds),
          status: status === 'passed' ? 'passed' : 'failed',
          output: '',
        };
      })
  : [];

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });

const results = [...before, ...(await runStages(selected, { cwd: root, slots: Number(values.slots) }))];
process.stdout.write(summary(results));
process.exit(results.every((r) => r.status === 'passed') ? 0 : 1);
