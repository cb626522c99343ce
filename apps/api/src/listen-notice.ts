import os from 'node:os';

/** Whether `host` lets only this machine in (the default since ADR 0051). */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * The start-up lines that say where the app can be opened (ADR 0051): on the loopback default, that
 * only this machine can, and how to open it to the office network — after the demo's published
 * passwords are changed, or on a database started with SEED_DEMO=false.
 */
export function listenNotice(host: string, port: number): string[] {
  if (isLoopback(host))
    return [
      `FVG is running on http://localhost:${port} (this machine only: HOST=${host})`,
      'to open it to the office network, start it with HOST=0.0.0.0 (every interface) or HOST=<this server’s address>;',
      'first change the passwords of the demo sign-ins, which are published, or start a new database with SEED_DEMO=false',
    ];
  const wildcard = host === '0.0.0.0' || host === '::' || host === '[::]';
  const name = wildcard ? os.hostname() : host.includes(':') ? `[${host}]` : host;
  return [
    `FVG is running on http://${name}:${port} (${wildcard ? 'every network interface' : `HOST=${host}`}; http://localhost:${port} on this machine${wildcard ? '' : ' if it listens there'})`,
  ];
}
