import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { ClientStream } from './client-stream.ts';
import {
  type HubContext,
  type HubDefinition,
  HubError,
  type HubRefusal,
  isAsyncIterable,
  SESSION_EXPIRED,
} from './hub.ts';
import type { LifetimeManager } from './lifetime.ts';
import {
  type CompletionMessage,
  checkHandshake,
  type HubMessage,
  type InvocationMessage,
  MessageType,
  ProtocolError,
  parseMessage,
  type StreamInvocationMessage,
} from './messages.ts';
import { RS, splitRecords, toRecord } from './records.ts';

export type TransportName = 'WebSockets' | 'ServerSentEvents' | 'LongPolling';

export interface HubLimits {
  keepAliveIntervalMs: number;
  clientTimeoutMs: number;
  handshakeTimeoutMs: number;
  longPollTimeoutMs: number;
  longPollDisconnectTimeoutMs: number;
  negotiateTimeoutMs: number;
  maxMessageSize: number;
  /**
   * How often every open connection's user is re-checked (HubDefinition.recheckMany / recheck) even
   * when it calls nothing: what ends a listening connection whose revocation close went missing.
   */
  recheckIntervalMs: number;
}

/** Messages a node's connections received and sent (pings left out), for its metrics. */
export interface HubStats {
  messagesIn: number;
  messagesOut: number;
}
export const newHubStats = (): HubStats => ({ messagesIn: 0, messagesOut: 0 });

/** Where a streaming transport (WebSockets, SSE) writes; long polling buffers instead. */
export interface Sink {
  write(payload: string): void;
  end(): void;
}

interface PendingPoll {
  reply: FastifyReply;
  startedAt: number;
}

const PING = toRecord({ type: MessageType.Ping });

let invocationCounter = 0;

/**
 * One logical SignalR connection: its handshake, its hub calls and streams, and what it has to send,
 * whichever transport carries it.
 */
export class HubConnection<User = unknown> {
  transport: TransportName | undefined;
  handshakeDone = false;
  closed = false;
  readonly groups = new Set<string>();
  readonly items = new Map<string, unknown>();
  readonly createdAt = Date.now();
  transportStartedAt = 0;
  lastReceivedAt = Date.now();
  lastSentAt = Date.now();
  /** The client's liveness is only checked once it has shown it pings (HubProtocol: client timeout). */
  clientPings = false;
  /** When the access token expires (ms since the epoch): the sweep closes the connection then. */
  expiresAt: number | undefined;

  private sink: Sink | undefined;
  private readonly pollBuffer: string[] = [];
  private pendingPoll: PendingPoll | undefined;
  lastPollAt = 0;

  private readonly disconnect = new AbortController();
  private readonly clientStreams = new Map<string, ClientStream>();
  private readonly serverStreams = new Map<string, AbortController>();
  private readonly pendingResults = new Map<string, { resolve(v: unknown): void; reject(e: Error): void }>();
  private invocationQueue: Promise<void> = Promise.resolve();
  private ctx: HubContext<User> | undefined;

  constructor(
    readonly connectionId: string,
    readonly token: string,
    /** The user as last re-checked (see HubDefinition.recheck). */
    public user: User,
    /** The bearer token the connection was opened with; every re-check uses it. */
    private readonly accessToken: string | undefined,
    private readonly hub: HubDefinition<User>,
    private readonly lifetime: LifetimeManager,
    private readonly limits: HubLimits,
    private readonly log: FastifyBaseLogger,
    private readonly onDisposed: (conn: HubConnection<User>) => void,
    private readonly stats: HubStats = newHubStats(),
  ) {}

  get userId(): string {
    return this.hub.userId(this.user);
  }

  // ---- transports attach here -------------------------------------------------------------------

  attachSink(transport: 'WebSockets' | 'ServerSentEvents', sink: Sink): void {
    this.transport = transport;
    this.sink = sink;
    this.transportStartedAt = Date.now();
  }

  /** A long-poll GET: answered at once when something waits, else held until data or the poll timeout. */
  poll(reply: FastifyReply): void {
    const now = Date.now();
    this.lastPollAt = now;
    if (!this.transport) {
      // The first poll answers at once with nothing: the client waits for it before its handshake.
      this.transport = 'LongPolling';
      this.transportStartedAt = now;
      void reply.status(200).type('text/plain').send('');
      return;
    }
    if (this.pendingPoll) this.endPoll(204); // a newer poll replaces a pending one
    if (this.pollBuffer.length > 0) {
      void reply.status(200).type('text/plain').send(this.pollBuffer.splice(0).join(''));
      return;
    }
    if (this.closed) {
      void reply.status(204).send();
      return;
    }
    this.pendingPoll = { reply, startedAt: now };
    reply.raw.once('close', () => {
      if (this.pendingPoll?.reply === reply) {
        this.pendingPoll = undefined;
        this.lastPollAt = Date.now();
      }
    });
  }

  private endPoll(status: 200 | 204, body = ''): void {
    const pending = this.pendingPoll;
    if (!pending) return;
    this.pendingPoll = undefined;
    this.lastPollAt = Date.now();
    if (status === 204) void pending.reply.status(204).send();
    else void pending.reply.status(200).type('text/plain').send(body);
  }

  // ---- output --------------------------------------------------------------------------------------

  /** Writes serialized records to the client (a no-op once closed). */
  write(payload: string): void {
    if (this.closed) return;
    this.lastSentAt = Date.now();
    if (payload !== PING) this.stats.messagesOut += 1;
    if (this.sink) {
      // Records written in the same turn of the event loop leave as one frame (one syscall): a burst
      // of broadcasts costs one write per connection, not one per message. The protocol allows
      // several records per frame or event.
      this.outBuffer.push(payload);
      if (this.outBuffer.length === 1) setImmediate(this.flushOut);
      return;
    }
    this.pollBuffer.push(payload);
    if (this.pendingPoll) this.endPoll(200, this.pollBuffer.splice(0).join(''));
  }

  private readonly outBuffer: string[] = [];
  private readonly flushOut = () => {
    if (this.outBuffer.length === 0) return;
    const payload = this.outBuffer.length === 1 ? (this.outBuffer[0] as string) : this.outBuffer.join('');
    this.outBuffer.length = 0;
    this.sink?.write(payload);
  };

  private send(message: object): void {
    this.write(toRecord(message));
  }

  /** The bearer token the connection was opened with, for the server's periodic re-check. */
  get bearerToken(): string | undefined {
    return this.accessToken;
  }

  /** SHA-256 (hex) of the bearer token: a sign-out ends the connections of that one token (Envelope.close). */
  get bearerTokenHash(): string | undefined {
    return this.accessToken === undefined
      ? undefined
      : createHash('sha256').update(this.accessToken).digest('hex');
  }

  /** A periodic re-check's verdict (see HubLimits.recheckIntervalMs): go on as the fresh user, or close. */
  applyRecheck(checked: { user: User } | HubRefusal): void {
    if (this.closed) return;
    if ('user' in checked) this.user = checked.user;
    else this.close(checked.error, checked.allowReconnect);
  }

  /**
   * Takes the connection out of `group` unless it belongs to one of `unlessIn` (Envelope.leave), at
   * once so nothing more of the group reaches it; the hub hears of it (onRemovedFromGroup) in order
   * with the connection's calls.
   */
  leaveGroup(group: string, unlessIn: string[]): void {
    if (this.closed || !this.groups.has(group) || unlessIn.some((g) => this.groups.has(g))) return;
    this.lifetime.removeFromGroup(this as HubConnection, group);
    const ctx = this.context(this.disconnect.signal);
    this.invocationQueue = this.invocationQueue.then(async () => {
      if (this.closed) return;
      try {
        await this.hub.onRemovedFromGroup?.(ctx, group);
      } catch (e) {
        this.log.error({ err: e, group }, 'hub onRemovedFromGroup failed');
      }
    });
  }

  // ---- liveness, run by the server's sweep ---------------------------------------------------------

  /** Returns false when the connection should be disposed. */
  tick(now: number): void {
    if (this.closed) return;
    if (this.expiresAt !== undefined && now >= this.expiresAt) {
      this.close(SESSION_EXPIRED, false);
      return;
    }
    const l = this.limits;
    if (!this.transport) {
      if (now - this.createdAt > l.negotiateTimeoutMs) this.dispose();
      return;
    }
    if (this.transport === 'LongPolling') {
      if (this.pendingPoll && now - this.pendingPoll.startedAt >= l.longPollTimeoutMs) this.endPoll(200);
      if (!this.pendingPoll && now - this.lastPollAt > l.longPollDisconnectTimeoutMs) this.dispose();
      if (!this.handshakeDone && now - this.transportStartedAt > l.handshakeTimeoutMs) this.dispose();
      return; // no pings on long polling
    }
    if (!this.handshakeDone) {
      if (now - this.transportStartedAt > l.handshakeTimeoutMs) this.dispose();
      return;
    }
    if (this.clientPings && now - this.lastReceivedAt > l.clientTimeoutMs) {
      this.close('Server timeout elapsed without receiving a message from the client.', true);
      return;
    }
    if (now - this.lastSentAt >= l.keepAliveIntervalMs) this.write(PING);
  }

  // ---- input ---------------------------------------------------------------------------------------

  /** A payload from the client: a WebSocket frame or a POST body, holding one or more whole records. */
  receive(payload: string): void {
    if (this.closed) return;
    this.lastReceivedAt = Date.now();
    const records = splitRecords(payload);
    if (!records) {
      this.failProtocol('Message is incomplete: a record does not end with the record separator.');
      return;
    }
    for (const text of records) {
      if (this.closed) return;
      if (text.length > this.limits.maxMessageSize) {
        this.close(
          `Connection closed with an error. The message of ${text.length} bytes exceeds the maximum message size of ${this.limits.maxMessageSize} bytes.`,
        );
        return;
      }
      if (!this.handshakeDone) {
        this.handshake(text);
        continue;
      }
      let message: HubMessage;
      try {
        message = parseMessage(text);
      } catch (e) {
        this.failProtocol(e instanceof ProtocolError ? e.message : 'Invalid message.');
        return;
      }
      this.dispatch(message);
    }
  }

  private handshake(text: string): void {
    const error = checkHandshake(text);
    if (error) {
      this.write(toRecord({ error }));
      this.dispose();
      return;
    }
    this.write(toRecord({}));
    this.handshakeDone = true;
    this.lifetime.add(this as HubConnection, this.userId);
    // Every user has a personal group for notifications, on every node.
    const ctx = this.context(this.disconnect.signal);
    this.invocationQueue = this.invocationQueue.then(async () => {
      try {
        // Checked after joining the lifetime manager: a revocation committed after this read reaches
        // the connection there, one committed before it is refused here.
        const refused = await this.recheck();
        if (refused) {
          this.close(refused.error, refused.allowReconnect);
          return;
        }
        await this.hub.onConnected?.(ctx);
      } catch (e) {
        this.log.error({ err: e }, 'hub onConnected failed');
        this.close('Connection closed with an error.', false);
      }
    });
  }

  private failProtocol(reason: string): void {
    this.log.debug({ connectionId: this.connectionId, reason }, 'hub protocol error');
    this.close(`Connection closed with an error. ${reason}`);
  }

  private dispatch(message: HubMessage): void {
    if (message.type !== MessageType.Ping) this.stats.messagesIn += 1;
    switch (message.type) {
      case MessageType.Invocation: {
        // Plain invocations run one at a time per connection, in order (as ASP.NET Core does).
        const streams = this.openClientStreams(message.streamIds);
        this.invocationQueue = this.invocationQueue.then(() => this.invoke(message, streams));
        break;
      }
      case MessageType.StreamInvocation:
        void this.stream(message, this.openClientStreams(message.streamIds));
        break;
      case MessageType.StreamItem:
        this.clientStreams.get(message.invocationId)?.push(message.item);
        break;
      case MessageType.Completion:
        this.complete(message);
        break;
      case MessageType.CancelInvocation:
        this.serverStreams.get(message.invocationId)?.abort();
        break;
      case MessageType.Ping:
        this.clientPings = true;
        break;
      case MessageType.Close:
        this.dispose();
        break;
      default:
        break; // Ack and Sequence: stateful reconnect is not offered
    }
  }

  private openClientStreams(ids: string[] | undefined): ClientStream[] {
    return (ids ?? []).map((id) => {
      const s = new ClientStream();
      this.clientStreams.set(id, s);
      return s;
    });
  }

  /** A client Completion ends an uploaded stream, or answers a server-to-client invocation. */
  private complete(message: CompletionMessage): void {
    const stream = this.clientStreams.get(message.invocationId);
    if (stream) {
      this.clientStreams.delete(message.invocationId);
      stream.end(message.error ? new HubError(message.error) : undefined);
      return;
    }
    const pending = this.pendingResults.get(message.invocationId);
    if (!pending) return;
    this.pendingResults.delete(message.invocationId);
    if (message.error !== undefined) pending.reject(new HubError(message.error));
    else pending.resolve(message.result ?? null);
  }

  private method(target: string) {
    const wanted = target.toLowerCase();
    for (const [name, fn] of Object.entries(this.hub.methods))
      if (name.toLowerCase() === wanted) return { name, fn };
    return undefined;
  }

  /**
   * The user as the hub sees it now (HubDefinition.recheck): undefined when the connection may go on
   * (with the fresh user), else why not.
   */
  private async recheck(): Promise<HubRefusal | undefined> {
    if (!this.hub.recheck) return undefined;
    const checked = await this.hub.recheck(this.accessToken, this.user);
    if ('user' in checked) {
      this.user = checked.user;
      return undefined;
    }
    return checked;
  }

  /**
   * A call's arguments checked against the method's parameter schemas: the parsed values, or a
   * HubError naming the parameter (bad input from the client is answered, never logged as a failure).
   */
  private argumentsFor(name: string, args: unknown[]): unknown[] {
    const parameters = this.hub.parameters?.[name];
    if (!parameters) return args;
    const entries = Object.entries(parameters);
    if (args.length !== entries.length) {
      const names = entries.map(([n]) => n).join(', ');
      throw new HubError(
        `${name} takes ${entries.length} argument${entries.length === 1 ? '' : 's'} (${names}), not ${args.length}.`,
      );
    }
    return entries.map(([parameter, schema], i) => {
      const parsed = schema.safeParse(args[i]);
      if (parsed.success) return parsed.data;
      const reason = (parsed.error.issues[0]?.message ?? 'not valid').replace(/\.$/, '');
      throw new HubError(`Invalid ${parameter} for ${name}: ${reason}.`);
    });
  }

  private errorText(target: string, e: unknown): string {
    if (e instanceof HubError) return e.message;
    this.log.error({ err: e, target }, 'hub method failed');
    return `An unexpected error occurred invoking '${target}' on the server.`;
  }

  private async invoke(message: InvocationMessage, streams: ClientStream[]): Promise<void> {
    const id = message.invocationId;
    const reply = (m: Omit<CompletionMessage, 'type' | 'invocationId'>) => {
      if (id !== undefined) this.send({ type: MessageType.Completion, invocationId: id, ...m });
    };
    try {
      const refused = await this.recheck();
      if (refused) {
        reply({ error: refused.error });
        for (const s of streams) s.end();
        this.close(refused.error, refused.allowReconnect);
        return;
      }
    } catch (e) {
      reply({ error: this.errorText(message.target, e) });
      for (const s of streams) s.end();
      return;
    }
    const method = this.method(message.target);
    if (!method) {
      reply({ error: `Unknown hub method '${message.target}'` });
      for (const s of streams) s.end();
      return;
    }
    try {
      const args = this.argumentsFor(method.name, message.arguments);
      const result = await method.fn(this.context(this.disconnect.signal), ...args, ...streams);
      if (isAsyncIterable(result)) {
        reply({
          error: `The client attempted to invoke the streaming '${message.target}' method with a non-streaming invocation.`,
        });
        return;
      }
      reply(result === undefined ? {} : { result });
    } catch (e) {
      reply({ error: this.errorText(message.target, e) });
    }
  }

  private async stream(message: StreamInvocationMessage, streams: ClientStream[]): Promise<void> {
    const id = message.invocationId;
    const fail = (error: string) => this.send({ type: MessageType.Completion, invocationId: id, error });
    try {
      const refused = await this.recheck();
      if (refused) {
        fail(refused.error);
        this.close(refused.error, refused.allowReconnect);
        return;
      }
    } catch (e) {
      fail(this.errorText(message.target, e));
      return;
    }
    const method = this.method(message.target);
    if (!method) {
      fail(`Unknown hub method '${message.target}'`);
      return;
    }
    const abort = new AbortController();
    const onDisconnect = () => abort.abort();
    this.disconnect.signal.addEventListener('abort', onDisconnect, { once: true });
    this.serverStreams.set(id, abort);
    try {
      const args = this.argumentsFor(method.name, message.arguments);
      const result = await method.fn(this.context(abort.signal), ...args, ...streams);
      if (!isAsyncIterable(result)) {
        throw new HubError(
          `The client attempted to invoke the non-streaming '${message.target}' method with a streaming invocation.`,
        );
      }
      const iterator = result[Symbol.asyncIterator]();
      // Cancellation ends the iteration even while the method waits for its next item.
      const cancelled = new Promise<IteratorResult<unknown>>((resolve) =>
        abort.signal.addEventListener('abort', () => resolve({ done: true, value: undefined }), {
          once: true,
        }),
      );
      for (;;) {
        const next = await Promise.race([iterator.next(), cancelled]);
        if (next.done || abort.signal.aborted) break;
        this.send({ type: MessageType.StreamItem, invocationId: id, item: next.value });
      }
      if (abort.signal.aborted) void iterator.return?.();
      // A cancelled stream gets no completion (the client has already settled it).
      else this.send({ type: MessageType.Completion, invocationId: id });
    } catch (e) {
      if (!abort.signal.aborted)
        this.send({
          type: MessageType.Completion,
          invocationId: id,
          error: this.errorText(message.target, e),
        });
    } finally {
      this.serverStreams.delete(id);
      this.disconnect.signal.removeEventListener('abort', onDisconnect);
    }
  }

  /** Server-to-client invocation with an id: resolves with the client's result. */
  invokeClient(target: string, args: unknown[]): Promise<unknown> {
    const invocationId = `s${++invocationCounter}`;
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new HubError('The connection is closed.'));
        return;
      }
      this.pendingResults.set(invocationId, { resolve, reject });
      this.send({ type: MessageType.Invocation, invocationId, target, arguments: args });
    });
  }

  // ---- the context a hub method sees ---------------------------------------------------------------

  private context(signal: AbortSignal): HubContext<User> {
    if (this.ctx && signal === this.disconnect.signal) return this.ctx;
    const lifetime = this.lifetime;
    const self = this as HubConnection;
    const proxy = (
      scope: 'all' | 'group' | 'user' | 'connection',
      key: string,
      exclude?: string[],
      alsoIn?: string[],
    ) => ({
      send: (target: string, ...args: unknown[]) =>
        lifetime.send({
          scope,
          key,
          payload: toRecord({ type: MessageType.Invocation, target, arguments: args }),
          ...(exclude ? { exclude } : {}),
          ...(alsoIn ? { alsoIn } : {}),
        }),
    });
    const ctx: HubContext<User> = {
      connectionId: this.connectionId,
      get user() {
        return self.user as User;
      },
      items: this.items,
      signal,
      clients: {
        caller: {
          send: async (target, ...args) =>
            this.send({ type: MessageType.Invocation, target, arguments: args }),
          invoke: (target, ...args) => this.invokeClient(target, args),
        },
        all: proxy('all', ''),
        others: proxy('all', '', [this.connectionId]),
        group: (name) => proxy('group', name),
        groupAlsoIn: (name, alsoIn) => proxy('group', name, undefined, alsoIn),
        othersInGroup: (name) => proxy('group', name, [this.connectionId]),
        user: (userId) => proxy('user', userId),
        connection: (id) => proxy('connection', id),
      },
      groups: {
        add: async (name) => lifetime.addToGroup(self, name),
        remove: async (name) => lifetime.removeFromGroup(self, name),
        has: (name) => this.groups.has(name),
      },
      close: (error, allowReconnect) => this.close(error, allowReconnect),
    };
    if (signal === this.disconnect.signal) this.ctx = ctx;
    return ctx;
  }

  // ---- ending --------------------------------------------------------------------------------------

  /** Sends a Close record (so the client knows why, and whether to reconnect), then ends the connection. */
  close(error?: string, allowReconnect?: boolean): void {
    if (this.closed) return;
    this.send({
      type: MessageType.Close,
      ...(error ? { error } : {}),
      ...(allowReconnect ? { allowReconnect: true } : {}),
    });
    this.dispose();
  }

  /** Ends the connection: transport, streams, groups, and the hub's onDisconnected. Idempotent. */
  dispose(error?: Error): void {
    if (this.closed) return;
    // Long polling: what is still buffered (e.g. the Close record) goes out with the pending poll.
    if (this.pendingPoll)
      this.endPoll(this.pollBuffer.length ? 200 : 204, this.pollBuffer.splice(0).join(''));
    this.flushOut();
    this.closed = true;
    this.sink?.end();
    this.disconnect.abort();
    for (const s of this.clientStreams.values()) s.end(new HubError('The connection was closed.'));
    this.clientStreams.clear();
    for (const p of this.pendingResults.values()) p.reject(new HubError('The connection was closed.'));
    this.pendingResults.clear();
    const wasConnected = this.handshakeDone;
    if (wasConnected) {
      const ctx = this.context(this.disconnect.signal);
      void this.invocationQueue.then(async () => {
        try {
          await this.hub.onDisconnected?.(ctx, error);
        } catch (e) {
          this.log.error({ err: e }, 'hub onDisconnected failed');
        } finally {
          this.lifetime.remove(this as HubConnection, this.userId);
        }
      });
    }
    this.onDisposed(this);
  }

  /** Whether a long-poll GET after the end should answer 204 (the buffer is drained). */
  get drained(): boolean {
    return this.pollBuffer.length === 0;
  }
}

export { RS };
