import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * db/ is the foundation (ADR 0057): connection, schema, migrations, the embedded server. It imports
 * nothing from the layers that stand on it; seeding, which calls the features' services, lives in seed/.
 */
const ABOVE = ['features', 'seed', 'http', 'plugins', 'hub', 'jobs'];
const src = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** `from '…'` and `import('…')` specifiers that leave the file's folder, resolved against src/. */
function importsAbove(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (m) => m[1] as string,
  );
  return specs
    .map((s) => path.relative(src, path.resolve(path.dirname(file), s)).split(path.sep))
    .filter((parts) => ABOVE.includes(parts[0] as string))
    .map((parts) => `${path.relative(src, file)} imports ${parts.join('/')}`);
}

describe('db/ depends on nothing above it', () => {
  it('no source file under db/ imports features/, seed/, http/, plugins/, hub/ or jobs/', () => {
    const files = sources(path.join(src, 'db'));
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap(importsAbove)).toEqual([]);
  });
});
