import { type ChildProcess, spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';

/**
 * A small stage runner for `npm test` and `.ci/run`: stages start as soon as the stages they wait for
 * have passed (so independent ones run side by side) and, for the heavy ones, a slot is free (so the
 * cores are shared by a few, not every test stage at once), each stage's output is kept and printed as one
 * block when it ends (never interleaved with another's), and the end is a table of stage, seconds and
 * status, then one closing line with the test counts. A stage whose prerequisite failed is skipped.
 */
export interface Stage {
  name: string;
  /** The program and its arguments (no shell). */
  command: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Stages that must have passed before this one starts. */
  after?: string[];
  /** A test stage that keeps the cores busy: at most `RunOptions.slots` of them run at a time. */
  heavy?: boolean;
}

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

export type Status = 'passed' | 'failed' | 'skipped';

export interface StageResult {
  name: string;
  status: Status;
  seconds: number;
  output: string;
  counts?: Counts;
  /** The tests that failed and those that passed only on a retry, by name (see `parseTestNames`). */
  tests?: TestNames;
}

export interface TestNames {
  failed: string[];
  retried: string[];
}

export interface RunOptions {
  /** Where the progress lines and each finished stage's output go. */
  write?: (text: string) => void;
  /** The folder the stages run in unless one says otherwise. */
  cwd?: string;
  /** How many heavy stages may run at a time (the others wait, in the order listed); no limit by default. */
  slots?: number;
}

/**
 * The test counts a stage's output reports: Vitest's `Tests  2 failed | 10 passed | 1 skipped (13)`
 * line, or Playwright's summary lines (`  67 passed (9.1m)`, `  1 failed`, `  2 flaky`, `  1 skipped`;
 * a flaky test passed on its retry).
 */
export function parseCounts(output: string): Counts | undefined {
  const text = stripVTControlCharacters(output);
  const vitest = text.match(/^\s*Tests\s+(.*\(\d+\))\s*$/m);
  if (vitest?.[1]) {
    const n = (word: string) => Number(vitest[1]?.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0);
    return { passed: n('passed'), failed: n('failed'), skipped: n('skipped') + n('todo') };
  }
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  let found = false;
  for (const [, number, word] of text.matchAll(/^ {2}(\d+) (passed|failed|flaky|skipped|did not run)\b/gm)) {
    found = true;
    const value = Number(number);
    if (word === 'passed' || word === 'flaky') counts.passed += value;
    else if (word === 'failed') counts.failed += value;
    else counts.skipped += value;
  }
  return found ? counts : undefined;
}

/**
 * The names of the failed tests and of those that passed only on a retry, from a stage's output:
 * Vitest's `FAIL  file > test` lines and the `retried:` lines of scripts/ci/retried-reporter.ts, or the
 * names Playwright lists under its `  1 failed` and `  2 flaky` summary lines. A CI log is read from its
 * end, so `summary` repeats them there.
 */
export function parseTestNames(output: string): TestNames {
  const lines = stripVTControlCharacters(output).split('\n');
  const failed = new Set<string>();
  const retried = new Set<string>();
  let list: Set<string> | undefined;
  for (const line of lines) {
    const vitestFail = line.match(/^ FAIL {2}(.+?)\s*$/);
    const vitestRetried = line.match(/^retried: (.+?)\s*$/);
    const playwrightHeader = line.match(/^ {2}\d+ (failed|flaky|passed|skipped|did not run|interrupted)\b/);
    if (vitestFail?.[1]) failed.add(vitestFail[1].trim());
    else if (vitestRetried?.[1]) retried.add(vitestRetried[1].trim());
    else if (playwrightHeader)
      list =
        playwrightHeader[1] === 'failed' ? failed : playwrightHeader[1] === 'flaky' ? retried : undefined;
    else if (list && /^ {4}\S/.test(line)) list.add(line.trim());
    else list = undefined;
  }
  return { failed: [...failed], retried: [...retried] };
}

const running = new Set<ChildProcess>();

/** Ends every stage still running (its whole process group), e.g. when the runner is interrupted. */
export function stopAll(signal: NodeJS.Signals = 'SIGTERM') {
  for (const child of running) {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  }
}

function runOne(stage: Stage, cwd: string | undefined): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const [program = '', ...args] = stage.command;
    // Its own process group, so that an interrupted run can end the stage and everything it started.
    const child = spawn(program, args, {
      cwd: stage.cwd ?? cwd,
      env: { ...process.env, ...stage.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child);
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      running.delete(child);
      resolve({ code, output: Buffer.concat(chunks).toString() });
    });
  });
}

/** Runs the stages, each as soon as its prerequisites have passed; resolves with one result per stage. */
export async function runStages(stages: Stage[], options: RunOptions = {}): Promise<StageResult[]> {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const names = new Set(stages.map((s) => s.name));
  for (const stage of stages)
    for (const name of stage.after ?? [])
      if (!names.has(name) || stages.indexOf(stage) <= stages.findIndex((s) => s.name === name))
        throw new Error(`stage ${stage.name} must wait for a stage listed before it, not ${name}`);

  const results = new Map<string, StageResult>();
  const started = new Set<string>();
  let heavyRunning = 0;
  const t0 = performance.now();
  const clock = () => `${Math.round((performance.now() - t0) / 1000)} s`.padStart(6);

  return new Promise((resolve) => {
    const step = () => {
      for (const stage of stages) {
        if (started.has(stage.name)) continue;
        const prerequisites = (stage.after ?? []).map((name) => results.get(name));
        if (prerequisites.some((r) => r === undefined)) continue;
        const blocked = prerequisites.find((r) => r?.status !== 'passed');
        if (blocked) {
          started.add(stage.name);
          results.set(stage.name, { name: stage.name, status: 'skipped', seconds: 0, output: '' });
          write(`${clock()}  - ${stage.name} skipped: ${blocked.name} did not pass\n`);
          continue;
        }
        if (stage.heavy && heavyRunning >= (options.slots ?? Number.POSITIVE_INFINITY)) continue;
        started.add(stage.name);
        if (stage.heavy) heavyRunning++;
        write(`${clock()}  > ${stage.name}: ${shortCommand(stage.command)}\n`);
        const begin = performance.now();
        void runOne(stage, options.cwd).then(({ code, output }) => {
          if (stage.heavy) heavyRunning--;
          const status: Status = code === 0 ? 'passed' : 'failed';
          const seconds = (performance.now() - begin) / 1000;
          const counts = parseCounts(output);
          const tests = parseTestNames(output);
          results.set(stage.name, { name: stage.name, status, seconds, output, counts, tests });
          write(
            `${clock()}  ${status === 'passed' ? '+' : 'x'} ${stage.name} ${status} in ${Math.round(seconds)} s\n`,
          );
          write(block(stage.name, output));
          step();
        });
      }
      // A stage waits only for stages listed before it, so one pass in order also settles the skips.
      if (results.size === stages.length) resolve(stages.map((s) => results.get(s.name) as StageResult));
    };
    step();
  });
}

/** The command as a line, its argument list cut after a few (a file list can be long). */
function shortCommand(command: string[]): string {
  const more = command.length - 8;
  return more > 1 ? `${command.slice(0, 8).join(' ')} … (${more} more)` : command.join(' ');
}

function block(name: string, output: string): string {
  const body = output.endsWith('\n') || output === '' ? output : `${output}\n`;
  return `\n----- ${name} -----\n${body}----- end of ${name} -----\n\n`;
}

/** The closing table (stage, seconds, status) and the line with the test counts of every stage. */
export function summary(results: StageResult[]): string {
  const width = Math.max(5, ...results.map((r) => r.name.length));
  const rows = results.map(
    (r) => `${r.name.padEnd(width)}  ${r.seconds.toFixed(0).padStart(7)}  ${r.status}${countsText(r.counts)}`,
  );
  const total = results.reduce(
    (sum, r) => ({
      passed: sum.passed + (r.counts?.passed ?? 0),
      failed: sum.failed + (r.counts?.failed ?? 0),
      skipped: sum.skipped + (r.counts?.skipped ?? 0),
    }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  const lines = [`${'stage'.padEnd(width)}  ${'seconds'.padStart(7)}  status`, ...rows];
  const failedStages = results.filter((r) => r.status !== 'passed').map((r) => `${r.name} ${r.status}`);
  if (failedStages.length) lines.push('', `Not passed: ${failedStages.join(', ')}`);
  for (const [kind, title] of [
    ['failed', 'Failed tests'],
    ['retried', 'Passed only on a retry (flaky: name them in the closing note)'],
  ] as const) {
    const named = results.flatMap((r) => (r.tests?.[kind] ?? []).map((t) => `  ${r.name}: ${t}`));
    if (named.length) lines.push('', `${title}:`, ...named);
  }
  const skipped = total.skipped ? `, ${total.skipped} skipped` : '';
  lines.push('', `Tests: ${total.passed} passed, ${total.failed} failed${skipped}`);
  return `${lines.join('\n')}\n`;
}

function countsText(counts: Counts | undefined): string {
  if (!counts) return '';
  const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
  return ` (tests: ${counts.passed} passed, ${counts.failed} failed${skipped})`;
}
