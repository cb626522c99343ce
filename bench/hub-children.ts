/**
 * Server child processes for the hub bench: started with this Node and the tsx loader, tracked, and
 * always killed (on success, failure, Ctrl-C or an uncaught error).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerStats } from './hub-server-common.ts';

const children = new Set<ChildProcess>();

export function killAllChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

process.on('exit', killAllChildren);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAllChildren();
    process.exit(130);
  });
}

export interface ServerChild {
  name: string;
  port: number;
  pid: number;
  stats(gc?: boolean): Promise<ServerStats>;
  kill(): Promise<void>;
}

/** Spawns `node --expose-gc --import tsx <script>` and waits for its `LISTENING <port>` line. */
export async function startServerChild(
  name: string,
  script: string,
  timeoutMs = 20_000,
): Promise<ServerChild> {
  const scriptPath = fileURLToPath(new URL(script, import.meta.url));
  const tsx = import.meta.resolve('tsx');
  // HUB_BENCH_CPU_PROF=<dir> writes a V8 CPU profile of every server process there (on graceful exit).
  const profileDir = process.env.HUB_BENCH_CPU_PROF;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, ['--expose-gc', ...profile, '--import', tsx, scriptPath], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin?.on('error', () => {}); // the child may be gone already when we end the pipe

  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      reject(new Error(`${name}: no LISTENING line within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name}: exited early (code ${code}, signal ${signal})`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /LISTENING (\d+)/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
        buffered = '';
      }
    });
  }).catch((e: unknown) => {
    child.kill('SIGKILL');
    children.delete(child);
    throw e;
  });

  return {
    name,
    port,
    pid: child.pid ?? 0,
    async stats(gc = false) {
      const response = await fetch(`http://127.0.0.1:${port}/bench/stats${gc ? '?gc=1' : ''}`, {
        signal: AbortSignal.timeout(15_000),
      });
      if (!response.ok) throw new Error(`${name}: stats answered ${response.status}`);
      return (await response.json()) as ServerStats;
    },
    /** Ends the stdin pipe (the child exits by itself), then SIGKILL if it is still there after 3 s. */
    async kill() {
      const running = () => child.exitCode === null && child.signalCode === null;
      if (running()) child.stdin?.end();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
      if (running()) child.kill('SIGKILL');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000))]);
      children.delete(child);
    },
  };
}
