import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The import rules of .dependency-cruiser.cjs (ADR 0056) on a scratch tree laid out like the project:
 * every rule fails on the back edge it forbids, the edges the layers allow pass, and `depcruise` (what
 * `npm run lint` runs) exits non-zero on a back edge. The real tree is checked by `npm run lint` itself.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
/** The command line `npm run lint` runs. */
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

/** A scratch file and what it imports (paths from the tree's root). */
type Files = Record<string, string[]>;

/** Each rule with a file that breaks it: `from` imports `to`. */
const BACK_EDGES: { rule: string; from: string; to: string }[] = [
  { rule: 'web-lib-is-a-leaf', from: 'apps/web/src/lib/format.ts', to: 'apps/web/src/app/router.tsx' },
  {
    rule: 'web-lib-is-a-leaf',
    from: 'apps/web/src/lib/session.ts',
    to: 'apps/web/src/components/toasts.tsx',
  },
  {
    rule: 'web-components-below-features',
    from: 'apps/web/src/components/screen-frame.tsx',
    to: 'apps/web/src/features/dossiers/index.ts',
  },
  {
    rule: 'web-features-below-routes',
    from: 'apps/web/src/features/dossiers/components/dossier-detail.tsx',
    to: 'apps/web/src/app/router.tsx',
  },
  {
    rule: 'web-features-below-routes',
    from: 'apps/web/src/features/search/components/search-page.test.tsx',
    to: 'apps/web/src/routes/search.tsx',
  },
  {
    rule: 'web-routes-below-app',
    from: 'apps/web/src/routes/dossiers.tsx',
    to: 'apps/web/src/app/shell.tsx',
  },
  {
    rule: 'web-feature-public-entry',
    from: 'apps/web/src/features/shipments/components/shipment-detail.tsx',
    to: 'apps/web/src/features/stock/api/stock-api.ts',
  },
  {
    rule: 'test-code-only-from-tests',
    from: 'apps/web/src/features/stock/components/stock-list.tsx',
    to: 'apps/web/src/test/render-route.tsx',
  },
  { rule: 'no-circular', from: 'apps/web/src/lib/cycle-a.ts', to: 'apps/web/src/lib/cycle-b.ts' },
  {
    rule: 'api-db-is-the-foundation',
    from: 'apps/api/src/db/open.ts',
    to: 'apps/api/src/features/jobs/jobs.ts',
  },
  { rule: 'api-db-is-the-foundation', from: 'apps/api/src/db/schema.ts', to: 'apps/api/src/hub/hub.ts' },
  {
    rule: 'api-features-below-seed',
    from: 'apps/api/src/features/dossiers/dossiers.service.ts',
    to: 'apps/api/src/seed/demo.ts',
  },
  {
    rule: 'contracts-import-no-app',
    from: 'packages/contracts/src/dossiers.ts',
    to: 'apps/web/src/lib/format.ts',
  },
];

/** Edges the layers allow: a tree of only these has no violation. */
const ALLOWED: Files = {
  'apps/web/src/app/main.tsx': ['apps/web/src/app/router.tsx', 'apps/web/src/components/toasts.tsx'],
  'apps/web/src/app/router.tsx': ['apps/web/src/routes/dossiers.tsx', 'apps/web/src/lib/route-table.ts'],
  'apps/web/src/routes/dossiers.tsx': ['apps/web/src/features/dossiers/components/dossier-list.tsx'],
  'apps/web/src/routes/search.tsx': ['apps/web/src/features/search/components/search-page.tsx'],
  'apps/web/src/routes/search.test.tsx': [
    'apps/web/src/routes/search.tsx',
    'apps/web/src/test/render-route.tsx',
  ],
  'apps/web/src/features/search/components/search-page.tsx': ['apps/web/src/components/screen-frame.tsx'],
  'apps/web/src/features/dossiers/components/dossier-list.tsx': [
    'apps/web/src/components/screen-frame.tsx',
    'apps/web/src/features/stock/index.ts',
    'apps/web/src/lib/route-table.ts',
  ],
  'apps/web/src/features/dossiers/components/dossier-list.test.tsx': [
    'apps/web/src/features/dossiers/components/dossier-list.tsx',
    'apps/web/src/test/render-route.tsx',
    'apps/web/src/test/render-app.tsx',
  ],
  'apps/web/src/features/stock/index.ts': ['apps/web/src/features/stock/api/stock-api.ts'],
  'apps/web/src/components/screen-frame.tsx': ['apps/web/src/lib/route-table.ts'],
  'apps/web/src/components/toasts.tsx': [],
  'apps/web/src/lib/route-table.ts': ['packages/contracts/src/index.ts'],
  'apps/web/src/test/render-app.tsx': ['apps/web/src/app/router.tsx'],
  'apps/web/src/test/render-route.tsx': ['apps/web/src/components/toasts.tsx'],
  'apps/api/src/seed/demo.ts': [
    'apps/api/src/features/dossiers/dossiers.service.ts',
    'apps/api/src/db/schema.ts',
  ],
  'apps/api/src/features/dossiers/dossiers.service.ts': [
    'apps/api/src/db/schema.ts',
    'packages/contracts/src/index.ts',
  ],
  'apps/api/src/db/schema.ts': [],
  'packages/contracts/src/index.ts': [],
};

/** A cycle closed by a type import or by a lazily loaded chunk runs no module twice: allowed. */
const ALLOWED_SOURCES: Record<string, string> = {
  'apps/web/src/components/records/record-modal.tsx':
    "export const closeTopOnEscape = 1;\nexport const load = () => import('./record-modal-dialog.tsx');\n",
  'apps/web/src/components/records/record-modal-dialog.tsx':
    "import { closeTopOnEscape } from './record-modal.tsx';\nexport const dialog = closeTopOnEscape;\n",
  'apps/api/src/hub/protocol/connection.ts':
    "import type { Lifetime } from './lifetime.ts';\nexport interface Connection { lifetime: Lifetime }\n",
  'apps/api/src/hub/protocol/lifetime.ts':
    "import type { Connection } from './connection.ts';\nexport interface Lifetime { connection: Connection }\n",
};

function specifier(from: string, to: string) {
  const s = path.posix.relative(path.posix.dirname(from), to);
  return s.startsWith('.') ? s : `./${s}`;
}

/** Writes `files` (each importing its targets, every target existing) under `dir`. */
function writeTree(dir: string, files: Files, sources: Record<string, string> = {}) {
  const all = new Map<string, string[]>();
  for (const [from, targets] of Object.entries(files)) {
    all.set(from, [...(all.get(from) ?? []), ...targets]);
    for (const to of targets) if (!all.has(to)) all.set(to, []);
  }
  for (const [file, targets] of all) {
    mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    const imports = targets.map((to, i) => `import * as m${i} from '${specifier(file, to)}';\n`).join('');
    const uses = targets.map((_, i) => `m${i}`).join(', ');
    writeFileSync(path.join(dir, file), `${imports}export const used = [${uses}];\n`);
  }
  for (const [file, text] of Object.entries(sources)) {
    mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'ESNext',
        moduleResolution: 'Bundler',
        allowImportingTsExtensions: true,
        noEmit: true,
      },
    }),
  );
}

let options: ICruiseOptions;
let ruleNames: string[];
const scratch: string[] = [];

function scratchDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'fvg-depcruise-'));
  scratch.push(dir);
  return dir;
}

async function violations(dir: string) {
  const { output } = await cruise(['apps', 'packages'], { ...options, baseDir: dir });
  return (output as ICruiseResult).summary.violations.map((v) => ({
    rule: v.rule.name,
    from: v.from,
    to: v.to,
  }));
}

beforeAll(async () => {
  const fromConfig = await extractDepcruiseOptions(CONFIG);
  ruleNames = (fromConfig.ruleSet?.forbidden ?? []).map((rule) => rule.name ?? '');
  // The scratch tree resolves the imports as written (with their extension): no tsconfig lookup.
  const { tsConfig: _unused, ...rest } = fromConfig;
  options = { ...rest, validate: true };
});

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

// A cruise takes a second or two; on a loaded shared machine (and for the CLI's start) far longer.
describe('the import rules (.dependency-cruiser.cjs)', { timeout: 90_000 }, () => {
  it('pass a tree that keeps the layers, with its allowed type-only and lazy cycles', async () => {
    const dir = scratchDir();
    writeTree(dir, ALLOWED, ALLOWED_SOURCES);
    expect(await violations(dir)).toEqual([]);
  });

  it('fail on each back edge, under the rule that forbids it', async () => {
    const dir = scratchDir();
    const files: Files = { ...ALLOWED };
    for (const { from, to } of BACK_EDGES) files[from] = [...(files[from] ?? []), to];
    files['apps/web/src/lib/cycle-b.ts'] = ['apps/web/src/lib/cycle-a.ts'];
    writeTree(dir, files, ALLOWED_SOURCES);
    const found = await violations(dir);
    for (const edge of BACK_EDGES) {
      expect(found, `${edge.from} -> ${edge.to}`).toContainEqual(
        edge.rule === 'no-circular' ? expect.objectContaining({ rule: edge.rule, from: edge.from }) : edge,
      );
    }
    // Nothing else: the allowed edges stay allowed beside the bad ones (a cycle is reported once per member).
    const expected = new Set(BACK_EDGES.map((e) => e.rule));
    expect(found.filter((v) => !expected.has(v.rule))).toEqual([]);
    // Every rule of the config has a back edge here, so a new rule comes with its case.
    expect([...expected].sort()).toEqual([...ruleNames].sort());
  });

  it('make depcruise (npm run lint) exit non-zero on a back edge and name the rule', () => {
    const dir = scratchDir();
    writeTree(dir, {
      ...ALLOWED,
      'apps/web/src/lib/format.ts': ['apps/web/src/app/router.tsx'],
    });
    const run = spawnSync(process.execPath, [DEPCRUISE, 'apps', 'packages', '--config', CONFIG], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain('web-lib-is-a-leaf');
    expect(run.stdout).toContain('apps/web/src/lib/format.ts → apps/web/src/app/router.tsx');
  });
});
