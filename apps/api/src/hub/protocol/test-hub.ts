import Fastify, { type FastifyInstance } from 'fastify';
import type { HubLimits } from './connection.ts';
import { type HubDefinition, HubError } from './hub.ts';
import type { Backplane } from './lifetime.ts';
import { type HubServer, mountHub } from './server.ts';

/** A hub that exercises every protocol feature, for the conformance tests (not mounted in the app). */
export interface TestUser {
  name: string;
}

export const testHub: HubDefinition<TestUser> = {
  authenticate: async (token) => (token?.startsWith('good-') ? { name: token.slice(5) } : undefined),
  userId: (u) => u.name,
  async onConnected(ctx) {
    await ctx.clients.caller.send('Welcome', ctx.connectionId);
  },
  methods: {
    Echo: (_ctx, text: string) => text,
    Add: (_ctx, a: number, b: number) => a + b,
    Nothing: () => undefined,
    Fail: () => {
      throw new HubError('Deliberate failure');
    },
    Crash: () => {
      throw new Error('secret internal detail');
    },
    async Notify(ctx, text: string) {
      await ctx.clients.caller.send('Notified', text);
    },
    async Join(ctx, group: string) {
      await ctx.groups.add(group);
    },
    async SendToGroup(ctx, group: string, text: string) {
      await ctx.clients.group(group).send('GroupMessage', group, text);
    },
    async SendToUser(ctx, user: string, text: string) {
      await ctx.clients.user(user).send('UserMessage', text);
    },
    async Broadcast(ctx, text: string) {
      await ctx.clients.all.send('Broadcast', text);
    },
    async AskClient(ctx, question: string) {
      return ctx.clients.caller.invoke('Answer', question);
    },
    CloseMe(ctx, allowReconnect: boolean) {
      setTimeout(() => ctx.close('Closed by the server for the test.', allowReconnect), 10);
    },
    async *Counter(ctx, count: number, delayMs: number) {
      for (let i = 0; i < count; i++) {
        if (ctx.signal.aborted) return;
        yield i;
        await new Promise((r) => setTimeout(r, delayMs));
      }
    },
    async Sum(_ctx, numbers: AsyncIterable<number>) {
      let total = 0;
      for await (const n of numbers) total += n;
      return total;
    },
  },
};

/** Counts, observed by the tests. */
export const cancelled = { count: 0 };
testHub.methods.Endless = async function* (ctx) {
  let i = 0;
  try {
    while (!ctx.signal.aborted) {
      yield i++;
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    if (ctx.signal.aborted) cancelled.count++;
  }
};

export async function startTestHubServer(
  limits: Partial<HubLimits> = {},
  backplane?: Backplane,
): Promise<{ app: FastifyInstance; hub: HubServer<TestUser>; url: string; origin: string }> {
  const app = Fastify({ logger: false });
  const hub = await mountHub(app, { path: '/hub', hub: testHub, limits, backplane });
  // preClose: held polls and event streams must end before the HTTP server can close.
  app.addHook('preClose', async () => hub.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  return { app, hub, url: `${origin}/hub`, origin };
}
