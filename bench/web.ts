/**
 * `npm run bench:web`: what a cold start of `/dossiers`, signed in as the demo staff user, downloads
 * in Chromium — the JavaScript and CSS as counted from the network, against the budget of 250 KB of
 * JavaScript. The budget counts the compressed bodies the browser received: Chrome DevTools Protocol
 * `Network.loadingFinished.encodedDataLength` (all bytes off the wire for the response) minus
 * `Network.responseReceived` `response.encodedDataLength` (the bytes received until the headers were
 * complete: the status line and headers). Each body is checked against the response's Content-Length
 * (the precompressed file served); the transfer bytes with headers are printed and kept alongside.
 *
 * - the app: built if `apps/web/dist` has no precompressed build yet, then started as `npm run serve`
 *   starts it (the e2e global setup's helpers) on a temporary data folder and a free port;
 * - each load is a new browser context (empty cache, service workers blocked so only the page's own
 *   requests count), the bearer token put in local storage before the first script runs;
 * - the same run loads the page a second time with `Accept-Encoding: identity`: the uncompressed
 *   baseline (the encodings seen are recorded, so a baseline that was compressed after all shows).
 * Prints both; writes bench/results/web-latest.json; exits 1 when the JavaScript is over budget.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { freePort, waitForHealth } from '../e2e/global-setup.ts';
import playwrightConfig from '../e2e/playwright.config.ts';

const root = path.resolve(import.meta.dirname, '..');
const BUDGET_JS_KB = 250;
const KB = 1024;
const STAFF = { email: 'staff@fvg.local', password: 'staff-demo-2026' };

interface Totals {
  requests: number;
  /** Off the wire, response headers included. */
  transferBytes: number;
  /** Off the wire, the (compressed) body only: what the budget counts. */
  encodedBodyBytes: number;
  /** Decoded (uncompressed) body bytes. */
  bodyBytes: number;
  /** Responses that came with a Content-Encoding, by encoding. */
  encodings: Record<string, number>;
}
type Kind = 'js' | 'css' | 'other';
interface FileLoad {
  url: string;
  kind: Kind;
  transferBytes: number;
  encodedBodyBytes: number;
}
type Load = Record<Kind, Totals> & { files: FileLoad[]; contentLengthMismatches: string[] };

function kindOf(type: string | undefined, mime: string): Kind {
  if (type === 'Script' || /javascript/.test(mime)) return 'js';
  if (type === 'Stylesheet' || mime === 'text/css') return 'css';
  return 'other';
}

/** One cold load of `/dossiers` in a fresh context; `compressed: false` accepts no content encoding. */
async function coldLoad(browser: Browser, baseUrl: string, token: string, compressed: boolean) {
  const context = await browser.newContext({
    baseURL: baseUrl,
    serviceWorkers: 'block',
    // This Chromium has no CDP Network.setAcceptedEncodings; a request header replaces its own.
    ...(compressed ? {} : { extraHTTPHeaders: { 'accept-encoding': 'identity' } }),
  });
  await context.addInitScript((t) => localStorage.setItem('bearerToken', t), token);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

  const seen = new Map<
    string,
    { kind: Kind; url: string; encoding?: string; headerBytes: number; contentLength?: number }
  >();
  const load: Load = {
    js: { requests: 0, transferBytes: 0, encodedBodyBytes: 0, bodyBytes: 0, encodings: {} },
    css: { requests: 0, transferBytes: 0, encodedBodyBytes: 0, bodyBytes: 0, encodings: {} },
    other: { requests: 0, transferBytes: 0, encodedBodyBytes: 0, bodyBytes: 0, encodings: {} },
    files: [],
    contentLengthMismatches: [],
  };
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    seen.set(requestId, {
      kind: kindOf(type, response.mimeType),
      url: response.url,
      encoding: headers['content-encoding'],
      // Bytes received up to and including the headers (HTTP/1.1 here: status line and headers).
      headerBytes: response.encodedDataLength,
      contentLength: headers['content-length'] ? Number(headers['content-length']) : undefined,
    });
  });
  cdp.on('Network.dataReceived', ({ requestId, dataLength }) => {
    const r = seen.get(requestId);
    if (r) load[r.kind].bodyBytes += dataLength;
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const r = seen.get(requestId);
    if (!r) return;
    const t = load[r.kind];
    t.requests += 1;
    const encodedBodyBytes = encodedDataLength - r.headerBytes;
    t.transferBytes += encodedDataLength;
    t.encodedBodyBytes += encodedBodyBytes;
    if (r.encoding) t.encodings[r.encoding] = (t.encodings[r.encoding] ?? 0) + 1;
    if (r.kind === 'other') return;
    load.files.push({ url: r.url, kind: r.kind, transferBytes: encodedDataLength, encodedBodyBytes });
    // The body counted must be the file served: a difference means the header split went wrong.
    if (r.contentLength !== undefined && r.contentLength !== encodedBodyBytes) {
      load.contentLengthMismatches.push(
        `${r.url}: counted ${encodedBodyBytes}, Content-Length ${r.contentLength}`,
      );
    }
  });

  await page.goto('/dossiers', { waitUntil: 'networkidle' });
  // Signed in and the list screen rendered: its lazy chunks are in.
  await page.getByTestId('new-dossier').waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  if (!page.url().endsWith('/dossiers')) throw new Error(`ended on ${page.url()}, not /dossiers`);
  await context.close();
  return load;
}

const kb = (bytes: number) => Math.round((bytes / KB) * 10) / 10;
const summary = (load: Load) => ({
  /** Compressed bodies: what the budget counts. */
  jsKB: kb(load.js.encodedBodyBytes),
  cssKB: kb(load.css.encodedBodyBytes),
  /** The same responses with their headers (informational). */
  jsWithHeadersKB: kb(load.js.transferBytes),
  cssWithHeadersKB: kb(load.css.transferBytes),
  jsRequests: load.js.requests,
  cssRequests: load.css.requests,
  jsDecodedKB: kb(load.js.bodyBytes),
  cssDecodedKB: kb(load.css.bodyBytes),
  allTransferKB: kb(load.js.transferBytes + load.css.transferBytes + load.other.transferBytes),
  contentLengthMismatches: load.contentLengthMismatches,
  encodings: { js: load.js.encodings, css: load.css.encodings },
  /** Every JavaScript and CSS file, largest first: where to look when over budget. */
  files: load.files
    .sort((a, b) => b.encodedBodyBytes - a.encodedBodyBytes)
    .map((f) => ({
      file: new URL(f.url).pathname,
      kb: kb(f.encodedBodyBytes),
      withHeadersKB: kb(f.transferBytes),
    })),
});

const dist = path.join(root, 'apps/web/dist');
if (!existsSync(path.join(dist, 'index.html.br'))) {
  console.log('building the web app (no precompressed build in apps/web/dist) …');
  execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fvg-bench-web-'));
chmodSync(dataDir, 0o755); // the embedded server runs as the postgres user when we are root
const port = await freePort();
const baseUrl = `http://localhost:${port}`;
const log: string[] = [];
const server: ChildProcess = spawn('npm', ['run', '-s', 'serve'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
server.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
server.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
let browser: Browser | undefined;
try {
  await waitForHealth(baseUrl, server, 120_000).catch((e) => {
    console.error(log.join(''));
    throw e;
  });
  const login = await fetch(`${baseUrl}/api/auth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(STAFF),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const { Token } = (await login.json()) as { Token: string };

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: playwrightConfig.use?.launchOptions?.args ?? [],
  });
  const compressed = summary(await coldLoad(browser, baseUrl, Token, true));
  const identity = summary(await coldLoad(browser, baseUrl, Token, false));
  const version = browser.version();

  const row = (name: string, s: ReturnType<typeof summary>) =>
    `${name.padEnd(14)} JS ${String(s.jsKB).padStart(7)} KB (${s.jsRequests} files; ${s.jsWithHeadersKB} with headers)   CSS ${String(s.cssKB).padStart(6)} KB (${s.cssRequests}; ${s.cssWithHeadersKB})   all with headers ${s.allTransferKB} KB`;
  console.log(
    `cold load of /dossiers as ${STAFF.email}, Chromium ${version}, bodies as sent (compressed), 1 KB = 1024 B:`,
  );
  console.log(row('compressed', compressed), JSON.stringify(compressed.encodings));
  console.log(row('uncompressed', identity), JSON.stringify(identity.encodings));
  console.log(
    `largest (compressed): ${compressed.files
      .slice(0, 10)
      .map((f) => `${f.file.replace('/assets/', '')} ${f.kb}`)
      .join(', ')}`,
  );
  for (const m of [...compressed.contentLengthMismatches, ...identity.contentLengthMismatches]) {
    console.warn(`body bytes differ from Content-Length: ${m}`);
  }
  const within = compressed.jsKB <= BUDGET_JS_KB;
  console.log(
    `JavaScript budget ${BUDGET_JS_KB} KB: ${compressed.jsKB} KB, ${within ? 'within' : 'OVER'} (${Math.round((compressed.jsKB / BUDGET_JS_KB) * 100)} %)`,
  );

  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
  writeFileSync(
    path.join(root, 'bench/results/web-latest.json'),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: {
          cores: os.cpus().length,
          cpu: os.cpus()[0]?.model,
          platform: `${os.type()} ${os.release()}`,
        },
        node: process.version,
        chromium: version,
        commit,
        page: '/dossiers',
        user: STAFF.email,
        unit: 'KB = 1024 bytes; jsKB/cssKB/kb: encoded (compressed) body bytes = CDP Network.loadingFinished.encodedDataLength − responseReceived response.encodedDataLength (headers), checked against Content-Length; *WithHeadersKB and allTransferKB: transfer bytes with headers',
        budget: { jsKB: BUDGET_JS_KB, withinBudget: within },
        compressed,
        uncompressed: identity,
      },
      null,
      2,
    )}\n`,
  );
  console.log('wrote bench/results/web-latest.json');
  if (!within) process.exitCode = 1;
} finally {
  await browser?.close();
  if (server.pid && server.exitCode === null) {
    process.kill(-server.pid, 'SIGINT');
    await Promise.race([once(server, 'exit'), new Promise((r) => setTimeout(r, 15_000))]);
  }
  rmSync(dataDir, { recursive: true, force: true });
}
