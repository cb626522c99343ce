import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  const srv = net.createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** A real SMTP receiver; every mail lands as a file in `dir`, where the tests read it. */
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
        writeFile(
          path.join(dir, `${Date.now()}-${++n}.json`),
          JSON.stringify({ to, raw: Buffer.concat(chunks).toString() }),
        )
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

export default async function globalSetup() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fvg-e2e-'));
  await chmod(dataDir, 0o755); // the embedded server runs as the postgres user when we are root
  const mailDir = path.join(dataDir, 'mail');
  await mkdir(mailDir);
  const smtp = await startSmtp(mailDir);
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const log: string[] = [];
  // `npm start` is `npm run build && npm run serve`; the build ran before Playwright (npm run test:e2e).
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
  try {
    await waitForHealth(baseUrl, child, 120_000);
  } catch (e) {
    console.error(log.join(''));
    throw e;
  }
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_DATA_DIR = dataDir;

  return async () => {
    if (child.pid && child.exitCode === null) {
      process.kill(-child.pid, 'SIGINT');
      await Promise.race([once(child, 'exit'), new Promise((r) => setTimeout(r, 15_000))]);
    }
    smtp.server.close();
    if (process.env.E2E_KEEP_DATA !== '1') await rm(dataDir, { recursive: true, force: true });
  };
}
