import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { E2E_APPS_VARIABLE, type E2eApp } from './apps.ts';

const root = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  const srv = net.createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/**
 * A real SMTP receiver; every mail lands as a file in `dir`, where the tests read it. Written under a
 * temporary name and renamed, so a reader never finds a file half-written.
 */
async function startSmtp(dir: string) {
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const file = path.join(dir, `${Date.now()}-${++n}.json`);
        writeFile(`${file}.part`, JSON.stringify({ to, raw: Buffer.concat(chunks).toString() }))
          .then(() => rename(`${file}.part`, file))
          .then(() => callback())
          .catch(callback);
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  return { server, port: (server.server.address() as AddressInfo).port };
}

export async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the app exited with code ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the app did not become healthy within ${timeoutMs} ms`);
}

/**
 * One app as `npm start` starts it (the build ran before Playwright: npm run test:e2e), on a fresh data
 * folder of its own with its own SMTP receiver, so it seeds the demo company on its first start.
 */
async function startApp(index: number): Promise<{ app: E2eApp; stop: () => Promise<void> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `fvg-e2e-${index}-`));
  await chmod(dataDir, 0o755); // the embedded server runs as the postgres user when we are root
  const mailDir = path.join(dataDir, 'mail');
  await mkdir(mailDir);
  const smtp = await startSmtp(mailDir);
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const log: string[] = [];
  const child = spawn('npm', ['run', '-s', 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PUBLIC_URL: baseUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      LOG_LEVEL: 'warn',
      // The sandbox customs authority answers within seconds and releases without control, so the
      // declarations specs watch a whole lodgement on screen (docs/configuration.md, "SANDBOX_*").
      SANDBOX_DELAYS:
        process.env.SANDBOX_DELAYS ?? 'accept=1,control=1,release=1,exit=2,arrival=2,discharge=1,answer=1',
      SANDBOX_CONTROL_PERCENT: process.env.SANDBOX_CONTROL_PERCENT ?? '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      process.kill(-child.pid, 'SIGINT');
      await Promise.race([once(child, 'exit'), new Promise((r) => setTimeout(r, 15_000))]);
    }
    smtp.server.close();
    if (process.env.E2E_KEEP_DATA !== '1') await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, 180_000);
  } catch (e) {
    console.error(`app ${index}:\n${log.join('')}`);
    await stop();
    throw e;
  }
  return { app: { baseUrl, mailDir, dataDir }, stop };
}

/**
 * One app per worker (playwright.config.ts): a worker's specs run one after another against its own
 * app, as they all did against the one app before, so no test sees another worker's records. A
 * worker started again after a failure keeps its slot (parallelIndex), so its app.
 */
export default async function globalSetup(config: FullConfig) {
  const started = await Promise.allSettled(
    Array.from({ length: Math.max(1, config.workers) }, (_, i) => startApp(i)),
  );
  const apps = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = () => Promise.all(apps.map((a) => a.stop()));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  process.env[E2E_APPS_VARIABLE] = JSON.stringify(apps.map((a) => a.app));
  return async () => {
    await stopAll();
  };
}
