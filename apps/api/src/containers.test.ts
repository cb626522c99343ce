import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The Containerfile and docker-compose.yml offered to operators are not built in CI (no container
 * tool there); this checks that they agree with the code: the variables they set are ones config.ts
 * reads, the files they copy and mount exist, the image's production install has every package the
 * server imports, and the two nodes share one database, one Redis and one document volume.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Every environment variable config.ts reads. */
const configVariables = new Set(
  [...read('apps/api/src/config.ts').matchAll(/env\.([A-Z0-9_]+)/g)].map((m) => m[1]),
);

interface Instruction {
  op: string;
  args: string;
}
/** The Containerfile's instructions per stage (continuation lines joined, comments dropped). */
function containerfileStages(): Instruction[][] {
  const lines = read('Containerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Instruction[][] = [[]];
  for (const line of lines) {
    const [op = '', ...rest] = line.split(/\s+/);
    if (op.toUpperCase() === 'FROM') stages.push([]);
    stages.at(-1)?.push({ op: op.toUpperCase(), args: rest.join(' ') });
  }
  return stages;
}
const stages = containerfileStages();
const runStage = stages.at(-1) ?? [];
/** ENV of the run stage (`ENV A=1 B=2`). */
const imageEnv = Object.fromEntries(
  runStage
    .filter((i) => i.op === 'ENV')
    .flatMap((i) => [...i.args.matchAll(/([A-Z0-9_]+)=(\S+)/g)].map((m) => [m[1], m[2]])),
) as Record<string, string>;

function packageJson(file: string): {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  engines?: Record<string, string>;
  scripts?: Record<string, string>;
} {
  return JSON.parse(read(file));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return name === 'test' ? [] : sourceFiles(rel);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [rel] : [];
  });
}

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  profiles?: string[];
  depends_on?: Record<string, unknown> | string[];
  networks?: string[] | Record<string, { ipv4_address?: string }>;
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
  networks: Record<string, { ipam?: { config?: { subnet: string }[] } }>;
};
const nodeNames = ['node-1', 'node-2'] as const;
const node = (name: string) => compose.services[name] as ComposeService;
const env = (name: string) => node(name).environment ?? {};

describe('the Containerfile', () => {
  it('builds on the Node major the project pins and runs the server as node itself, not through npm', () => {
    const major = packageJson('package.json').devDependencies?.node?.match(/\d+/)?.[0];
    expect(major).toBeDefined();
    const image = read('Containerfile').match(/^ARG NODE_IMAGE=(\S+)$/m)?.[1];
    expect(image).toMatch(new RegExp(`^node:${major}[-.]`));
    for (const stage of stages.slice(1)) expect(stage[0]?.args).toMatch(/^\$\{NODE_IMAGE\}/);
    const cmd = JSON.parse(runStage.find((i) => i.op === 'CMD')?.args ?? '[]') as string[];
    // What `npm run serve` runs: the loader, the optional tracing's preload, the server.
    expect(cmd.join(' ')).toBe(packageJson('package.json').scripts?.serve);
    expect(cmd.slice(0, 3)).toEqual(['node', '--import', 'tsx']);
    for (const file of [cmd[4], cmd[5]]) expect(existsSync(path.join(root, file as string)), file).toBe(true);
    expect(runStage.find((i) => i.op === 'USER')?.args).toBe('node');
  });

  it('sets only variables the app reads, with no demo sign-ins by default', () => {
    for (const name of Object.keys(imageEnv).filter((n) => n !== 'NODE_ENV'))
      expect(configVariables, name).toContain(name);
    expect(imageEnv).toMatchObject({ SEED_DEMO: 'false', HOST: '0.0.0.0', DATA_DIR: '/data' });
    expect(runStage.find((i) => i.op === 'EXPOSE')?.args).toBe(imageEnv.PORT);
  });

  it('copies files that exist and that .dockerignore does not leave out', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(ignored).toContain('node_modules');
    const sources = stages
      .flat()
      .filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(5);
    for (const source of sources) {
      if (source === '.') continue;
      expect(existsSync(path.join(root, source)), source).toBe(true);
      expect(ignored, source).not.toContain(source);
    }
  });

  it('keeps in its production install (npm ci --omit=dev) every package the server imports', () => {
    expect(runStage.some((i) => i.op === 'RUN' && i.args.includes('npm ci --omit=dev'))).toBe(true);
    const production = new Set(
      ['package.json', 'apps/api/package.json', 'packages/contracts/package.json'].flatMap((f) =>
        Object.keys(packageJson(f).dependencies ?? {}),
      ),
    );
    expect(production).toContain('tsx'); // the CMD's loader
    const files = [...sourceFiles('apps/api/src'), ...sourceFiles('packages/contracts/src')];
    expect(files).toContain('apps/api/src/server.ts');
    const imported = new Set(
      files.flatMap((f) =>
        // Static imports and re-exports (`import …`/`} from` at a line's start) and dynamic `import('…')`;
        // never SQL that happens to say `from 'object'`.
        [
          ...read(f).matchAll(
            /(?:^(?:import|export|\})[^\n]*?\bfrom\s*|^import\s*|\bimport\(\s*)'((?:@[\w.-]+\/)?[\w-][\w.-]*(?:\/[\w./-]+)?)'/gm,
          ),
        ]
          .map((m) => m[1] as string)
          .map((spec) =>
            spec
              .split('/')
              .slice(0, spec.startsWith('@') ? 2 : 1)
              .join('/'),
          ),
      ),
    );
    expect(imported).toContain('fastify');
    for (const pkg of imported) expect(production, pkg).toContain(pkg);
  });
});

describe('docker-compose.yml', () => {
  it('runs two nodes of the image on one PostgreSQL and one Redis', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['node-1', 'node-2', 'postgres', 'proxy', 'redis']);
    const pg = compose.services.postgres?.environment ?? {};
    for (const name of nodeNames) {
      expect(node(name).build).toEqual({ context: '.', dockerfile: 'Containerfile' });
      // The password is compose's `${POSTGRES_PASSWORD:?…}`, not a URL part yet: compared as text.
      const db = env(name).DATABASE_URL?.match(/^postgres:\/\/([^:]+):(.+)@([\w-]+):5432\/(\w+)$/);
      expect(db?.slice(1)).toEqual([pg.POSTGRES_USER, pg.POSTGRES_PASSWORD, 'postgres', pg.POSTGRES_DB]);
      expect(new URL(env(name).REDIS_URL ?? '').hostname).toBe('redis');
      expect(Object.keys(node(name).depends_on ?? {}).sort()).toEqual(['postgres', 'redis']);
    }
    expect(env('node-1')).toEqual(env('node-2'));
  });

  it('sets only variables the app reads, each listed in docs/configuration.md, and no demo sign-ins by default', () => {
    const configuration = read('docs/configuration.md');
    for (const name of Object.keys(env('node-1'))) {
      expect(configVariables, name).toContain(name);
      expect(configuration, name).toContain(`| \`${name}\``);
    }
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own interpolation, read as text
    expect(env('node-1').SEED_DEMO).toBe('${SEED_DEMO:-false}');
  });

  it('gives each node its own port and both the same document volume', () => {
    const published = nodeNames.map((n) => node(n).ports?.[0]?.split(':'));
    expect(published.map((p) => p?.[1])).toEqual([imageEnv.PORT, imageEnv.PORT]);
    expect(new Set(published.map((p) => p?.[0])).size).toBe(2);
    const files = `${imageEnv.DATA_DIR}/files`;
    expect(read('Containerfile')).toContain(`VOLUME ["${files}"]`);
    for (const name of nodeNames) expect(node(name).volumes).toEqual([`files:${files}`]);
    expect(Object.keys(compose.volumes)).toContain('files');
  });

  it('puts the optional proxy in front of both nodes, keeping a client on one, and trusts only it', () => {
    const proxy = compose.services.proxy as ComposeService;
    expect(proxy.profiles).toEqual(['proxy']);
    const mount = proxy.volumes?.[0]?.split(':') ?? [];
    expect(mount[1]).toBe('/etc/nginx/conf.d/default.conf');
    const conf = read(mount[0] as string);
    expect(conf).toMatch(/upstream fvg_nodes \{\s*ip_hash;/);
    expect([...conf.matchAll(/^\s*server ([\w.-]+:\d+);/gm)].map((m) => m[1])).toEqual(
      nodeNames.map((n) => `${n}:${imageEnv.PORT}`),
    );
    const address = (proxy.networks as Record<string, { ipv4_address?: string }>).fvg?.ipv4_address;
    expect(env('node-1').TRUST_PROXY).toBe(address);
    const subnet = compose.networks.fvg?.ipam?.config?.[0]?.subnet ?? '';
    expect(address?.startsWith(subnet.replace(/0\/\d+$/, ''))).toBe(true);
  });
});
