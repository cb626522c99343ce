// The root `postinstall` (ADR 0061). npm may run on an older system Node; the app and every npm script
// run on the Node the project pins (the `node` dev dependency, node_modules/.bin/node first on the
// path of every script). .npmrc shows npm's errors only, so this says in one line which Node runs the
// app, or that it is older than `engines.node`, and names dependencies whose install scripts npm
// skipped (npm's own note on them is a warning, hidden with the rest).
// Plain JavaScript with no imports beyond Node's own: it must run on any Node, the old one included.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = process.cwd();
const readJson = (file) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
const pkg = readJson('package.json');

/** `1.2.3` or `v1.2.3` → [1, 2, 3]. */
const parts = (version) => version.replace(/^v/, '').split('.').map(Number);
const atLeast = (version, minimum) => {
  const [a = 0, b = 0, c = 0] = parts(version);
  const [x = 0, y = 0, z = 0] = parts(minimum);
  return a !== x ? a > x : b !== y ? b > y : c >= z;
};

const required = pkg.engines?.node ?? '';
const minimum = required.match(/^>=\s*(\d+(?:\.\d+){0,2})$/)?.[1];
if (!minimum) {
  console.error(
    `[fvg] package.json engines.node must read ">=N" (found "${required}"): node-check cannot read it`,
  );
  process.exit(1);
}

const runtime = process.version.slice(1);
const pinned = process.execPath.startsWith(path.join(root, 'node_modules'));
const where = pinned ? 'from node_modules/node' : `(${process.execPath})`;
const npmNode = process.env.npm_config_user_agent?.match(/\bnode\/v?([\d.]+)/)?.[1];

const npmSide = npmNode && npmNode !== runtime ? `; npm runs on Node ${npmNode}` : '';
if (atLeast(runtime, minimum)) {
  console.log(`[fvg] FVG runs on Node ${runtime} ${where}${npmSide} — fine`);
} else {
  // A warning, as npm's own engines check is: the install itself is sound (npm --dry-run gets here too).
  console.error(
    `[fvg] FVG needs Node ${required} but its scripts would run on Node ${runtime} ${where}: ` +
      'node_modules/node (a dev dependency) is missing; npm install without --omit=dev puts it there',
  );
}

// Installed dependencies with install scripts that package.json's allowScripts does not name.
const allowed = new Set(Object.keys(pkg.allowScripts ?? {}).map((key) => key.replace(/(.)@.*$/, '$1')));
const lock = existsSync(path.join(root, 'package-lock.json')) ? readJson('package-lock.json') : {};
for (const [dir, entry] of Object.entries(lock.packages ?? {})) {
  const name = dir.replace(/^.*node_modules\//, '');
  if (!entry.hasInstallScript || !dir.includes('node_modules/') || allowed.has(name)) continue;
  if (!existsSync(path.join(root, dir))) continue; // an optional package of another platform
  console.error(
    `[fvg] ${name}@${entry.version} has install scripts that allowScripts does not name: ` +
      'review them with `npm install-scripts ls`',
  );
}
