import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The first command, `npm install`, on this machine's system Node (issue 25 item 6, ADR 0061): npm
 * there is older than the Node 24 the project pins, and used to print ~45 EBADENGINE lines. It runs
 * here as a newcomer runs it: the system `npm` (the path without any node_modules/.bin), in a scratch
 * copy of the project's manifests and .npmrc, offline from npm's cache (`--dry-run` resolves the
 * whole tree and checks every package's engines, as an install does, without writing node_modules;
 * `--ignore-scripts`, because a dry run still runs the root postinstall, there without the pinned
 * Node it checks for: that check is tested on its own below).
 */
const root = path.resolve(import.meta.dirname, '../../..');
const manifests = [
  'package.json',
  'package-lock.json',
  '.npmrc',
  'apps/api/package.json',
  'apps/web/package.json',
  'packages/contracts/package.json',
];
const scratchDirs: string[] = [];
afterAll(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

function scratch(files: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fvg-npm-install-'));
  scratchDirs.push(dir);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    copyFileSync(path.join(root, file), path.join(dir, file));
  }
  return dir;
}

/** The environment of a fresh shell: no npm_* variables of the npm that runs this test, no node_modules on the path. */
function shellEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !dir.includes('node_modules'))
    .join(path.delimiter);
  return env;
}

function run(command: string, args: string[], cwd: string, env = shellEnv()) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 180_000 });
  return { ...result, output: `${result.stdout}${result.stderr}` };
}

describe('npm install on the system Node', () => {
  it('prints no EBADENGINE line and no warning at all', () => {
    const dir = scratch(manifests);
    const npm = run(
      'npm',
      ['install', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
      dir,
    );
    expect(npm.status, npm.output).toBe(0);
    expect(npm.output).toMatch(/added \d+ packages/);
    expect(npm.output).not.toContain('EBADENGINE');
    expect(npm.output).not.toMatch(/npm warn/i);
  }, 200_000);

  it('still shows a real install error', () => {
    const dir = scratch(manifests);
    const api = JSON.parse(readFileSync(path.join(dir, 'apps/api/package.json'), 'utf8'));
    api.dependencies['fvg-no-such-package'] = '1.0.0';
    writeFileSync(path.join(dir, 'apps/api/package.json'), JSON.stringify(api, null, 2));
    const npm = run(
      'npm',
      ['install', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
      dir,
    );
    expect(npm.status).not.toBe(0);
    expect(npm.output).toMatch(/npm error .*fvg-no-such-package/);
  }, 200_000);
});

describe('the postinstall check (scripts/node-check.mjs)', () => {
  const script = path.join(root, 'scripts/node-check.mjs');
  const npmOnNode20 = {
    ...shellEnv(),
    npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
  };

  it('runs after every install and says in one line which Node runs the app, and which runs npm', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.scripts.postinstall).toBe('node scripts/node-check.mjs');
    const check = run(process.execPath, [script], root, npmOnNode20);
    expect(check.status, check.output).toBe(0);
    expect(check.stdout.trimEnd().split('\n')).toEqual([
      `[fvg] FVG runs on Node ${process.version.slice(1)} from node_modules/node; npm runs on Node 20.20.2 — fine`,
    ]);
    // Every installed dependency with install scripts is approved or denied in allowScripts.
    expect(check.stderr).toBe('');
  });

  it('warns in one line when the Node that runs the scripts is older than engines.node', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fvg-node-check-'));
    scratchDirs.push(dir);
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ engines: { node: '>=99' } }));
    const check = run(process.execPath, [script], dir, npmOnNode20);
    expect(check.status).toBe(0); // a warning, as npm's own engines check is
    expect(check.stdout).toBe('');
    expect(check.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^\[fvg\] FVG needs Node >=99 but its scripts would run on Node \d+\.\d+\.\d+ \(.+\): /,
      ),
    ]);
  });

  it('names an installed dependency whose install scripts allowScripts leaves out (npm only warns)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fvg-node-check-'));
    scratchDirs.push(dir);
    const lock = {
      packages: {
        '': { hasInstallScript: true },
        'node_modules/builds-things': { version: '2.1.0', hasInstallScript: true },
        'node_modules/approved': { version: '1.0.0', hasInstallScript: true },
        'node_modules/@scope/other-platform': { version: '1.0.0', hasInstallScript: true, optional: true },
      },
    };
    writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(lock));
    mkdirSync(path.join(dir, 'node_modules/builds-things'), { recursive: true });
    mkdirSync(path.join(dir, 'node_modules/approved'), { recursive: true });
    const manifest = (allowScripts: Record<string, boolean>) =>
      writeFileSync(
        path.join(dir, 'package.json'),
        JSON.stringify({ engines: { node: '>=20' }, allowScripts }),
      );

    manifest({ 'approved@1.0.0': true });
    const check = run(process.execPath, [script], dir);
    expect(check.status).toBe(0);
    expect(check.stderr.trimEnd().split('\n')).toEqual([
      '[fvg] builds-things@2.1.0 has install scripts that allowScripts does not name: review them with `npm install-scripts ls`',
    ]);

    manifest({ 'approved@1.0.0': true, 'builds-things': false });
    expect(run(process.execPath, [script], dir).stderr).toBe('');
  });
});

describe('the Containerfile', () => {
  it('copies the postinstall check before each npm ci runs it', () => {
    const stages = readFileSync(path.join(root, 'Containerfile'), 'utf8')
      .split(/^FROM /m)
      .slice(1);
    const installing = stages.filter((stage) => /^RUN npm ci/m.test(stage));
    expect(installing).toHaveLength(2);
    for (const stage of installing) {
      const copied = stage.search(/^COPY scripts\/node-check\.mjs scripts\/$/m);
      expect(copied).toBeGreaterThan(-1);
      expect(copied).toBeLessThan(stage.search(/^RUN npm ci/m));
    }
  });
});
