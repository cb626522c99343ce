import path from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * A Vitest reporter beside the default one: at the end of a run it names every test that passed only on
 * a retry (CI allows one, see vitest.config.ts), one `retried:` line each with what its first failed
 * attempt threw, so a flaky test is named and diagnosable from the log and from `npm test`'s closing
 * summary (scripts/ci/stages.ts) instead of hiding in a green run: Vitest's own output shows nothing of
 * an attempt that a retry made good. A test that failed every attempt is already named by Vitest's own
 * `FAIL` lines, with its error.
 */
export default class RetriedReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const lines = retriedTests(testModules).map((name) => `retried: ${name}`);
    if (lines.length) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}

/**
 * `project file > suite > test (retry xN): first failure: Error: message (file:line)` for each test that
 * passed after at least one failed attempt.
 */
export function retriedTests(testModules: ReadonlyArray<TestModule>): string[] {
  const names: string[] = [];
  for (const module of testModules)
    for (const test of module.children.allTests()) {
      const retries = test.diagnostic()?.retryCount ?? 0;
      if (retries > 0 && test.result().state === 'passed') {
        const name = `${[module.project.name, module.relativeModuleId].filter(Boolean).join(' ')} > ${test.fullName} (retry x${retries})`;
        const failure = firstFailure(test, module.project.config.root);
        names.push(failure ? `${name}: first failure: ${failure}` : name);
      }
    }
  return names;
}

/** The first error of the first failed attempt, on one line: its kind, message and where it was thrown. */
function firstFailure(test: TestCase, root: string): string | undefined {
  const error = test.attempts().find((a) => a.state === 'failed')?.errors?.[0];
  if (!error) return undefined;
  const message = (error.message ?? '').replace(/\s+/g, ' ').trim();
  const cut = message.length > 240 ? `${message.slice(0, 239)}…` : message;
  const frame = error.stacks?.[0];
  const where = frame ? ` (${path.relative(root, frame.file)}:${frame.line})` : '';
  return `${error.name ?? 'Error'}: ${cut}${where}`;
}
