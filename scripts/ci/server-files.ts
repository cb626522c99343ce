import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The API test files whose outcome depends on the PostgreSQL server the run's global setup provides
 * (embedded by default, `TEST_DATABASE_URL` in CI's second pass): those that create a test database,
 * themselves or through a module of the source tree they import (`createTestDatabase()`, e.g. via
 * `test/operations.ts`), or inject the server's address. The others (the process-level files that
 * start their own embedded PostgreSQL, the protocol and pure unit files) run exactly the same either
 * way, so CI's second pass leaves them to the first.
 */
const CALLS_SERVER = /(?<!function\s+)\bcreateTestDatabase\s*\(/;
const INJECTS_SERVER = /\binject\(\s*['"](pgAdminUrl|pgTemplate)['"]\s*\)/;
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

export function listTestFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** The files of `testFiles` (absolute paths) that use the test database server. */
export function serverTestFiles(testFiles: string[]): string[] {
  const modules = new Map<string, { direct: boolean; imports: string[] }>();
  const read = (file: string) => {
    let m = modules.get(file);
    if (!m) {
      const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
      m = {
        direct: CALLS_SERVER.test(text) || (file.endsWith('.test.ts') && INJECTS_SERVER.test(text)),
        imports: [...text.matchAll(IMPORT)].map(([, spec]) => path.resolve(path.dirname(file), spec ?? '')),
      };
      modules.set(file, m);
    }
    return m;
  };
  return testFiles.filter((file) => {
    const seen = new Set<string>();
    const queue = [file];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      if (seen.has(next)) continue;
      seen.add(next);
      const m = read(next);
      if (m.direct) return true;
      queue.push(...m.imports);
    }
    return false;
  });
}
