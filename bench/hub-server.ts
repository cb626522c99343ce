/**
 * Bench server process: our SignalR protocol server (`mountHub`) with a bench hub, on Fastify at a
 * loopback port. Started by `bench/hub.ts`; not part of the app.
 */
import Fastify from 'fastify';
import type { HubDefinition } from '../apps/api/src/hub/protocol/hub.ts';
import { type HubServer, mountHub } from '../apps/api/src/hub/protocol/server.ts';
import { addStatsRoute, BENCH_GROUP, listenForDriver } from './hub-server-common.ts';

interface BenchUser {
  id: string;
}

let server: HubServer<BenchUser> | undefined;

const benchHub: HubDefinition<BenchUser> = {
  // Any token is good: the bench measures fan-out, not authentication.
  authenticate: async (token) => ({ id: token ?? 'anonymous' }),
  userId: (user) => user.id,
  methods: {
    async Join(ctx, group: string) {
      await ctx.groups.add(group);
    },
    async BroadcastGroup(ctx, group: string, payload: unknown) {
      await ctx.clients.group(group).send('Message', payload);
    },
    async BroadcastAll(ctx, payload: unknown) {
      await ctx.clients.all.send('Message', payload);
    },
    GroupSize: (_ctx, group: string) => server?.lifetime.groupSize(group) ?? 0,
  },
};

const app = Fastify({ logger: false });
server = await mountHub(app, { path: '/hub', hub: benchHub });
const hub = server;
addStatsRoute(app, () => ({
  connections: hub.lifetime.size,
  groupSize: hub.lifetime.groupSize(BENCH_GROUP),
}));
await listenForDriver(app);
