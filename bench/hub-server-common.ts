/**
 * Shared by the two bench server processes (our SignalR hub and the socket.io baseline): the stats
 * the driver reads over HTTP, the LISTENING line it waits for, and exit when the driver goes away.
 */
import type { FastifyInstance } from 'fastify';

/** The group every load client joins. */
export const BENCH_GROUP = 'g1';

export interface ServerStats {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** process.cpuUsage() of the server, in microseconds. */
  cpuUserUs: number;
  cpuSystemUs: number;
  /** Connections the server holds (after the handshake / namespace connect). */
  connections: number;
  groupSize: number;
}

/** GET /bench/stats (`?gc=1` collects garbage first, when the process runs with --expose-gc). */
export function addStatsRoute(
  app: FastifyInstance,
  counts: () => { connections: number; groupSize: number },
) {
  app.get('/bench/stats', async (request) => {
    const query = request.query as Record<string, string | undefined>;
    if (query.gc === '1' && typeof globalThis.gc === 'function') {
      globalThis.gc();
      await new Promise((r) => setTimeout(r, 50));
      globalThis.gc();
    }
    const mem = process.memoryUsage();
    const cpu = process.cpuUsage();
    const stats: ServerStats = {
      rss: mem.rss,
      heapUsed: mem.heapUsed,
      heapTotal: mem.heapTotal,
      external: mem.external,
      arrayBuffers: mem.arrayBuffers,
      cpuUserUs: cpu.user,
      cpuSystemUs: cpu.system,
      ...counts(),
    };
    return stats;
  });
}

/** Listens on a loopback port, prints `LISTENING <port>`, and exits when the driver's stdin pipe ends. */
export async function listenForDriver(app: FastifyInstance): Promise<void> {
  await app.listen({ port: 0, host: '127.0.0.1', backlog: 2048 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`LISTENING ${port}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
}
