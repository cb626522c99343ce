import type { Reporter, TestModule } from 'vitest/node';

/**
 * A Vitest reporter beside the default one: at the end of a run it names every test that passed only on
 * a retry (CI allows one, see vitest.config.ts), one `retried:` line each, so a flaky test is named in
 * the log and in `npm test`'s closing summary (scripts/ci/stages.ts) instead of hiding in a green run.
 * A test that failed every attempt is already named by Vitest's own `FAIL` lines.
 */
export default class RetriedReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const lines = retriedTests(testModules).map((name) => `retried: ${name}`);
    if (lines.length) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}

/** `project file > suite > test (retry xN)` for each test that passed after at least one failed attempt. */
export function retriedTests(testModules: ReadonlyArray<TestModule>): string[] {
  const names: string[] = [];
  for (const module of testModules)
    for (const test of module.children.allTests()) {
      const retries = test.diagnostic()?.retryCount ?? 0;
      if (retries > 0 && test.result().state === 'passed')
        names.push(
          `${[module.project.name, module.relativeModuleId].filter(Boolean).join(' ')} > ${test.fullName} (retry x${retries})`,
        );
    }
  return names;
}
