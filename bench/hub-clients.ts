/**
 * Load clients for the hub bench: a minimal raw SignalR JSON-protocol client over `ws` (the official
 * client is too heavy for thousands of connections), and socket.io-client wrappers for the baseline.
 */
import { io, type Socket } from 'socket.io-client';
import { type RawData, WebSocket } from 'ws';

const RS = '\u001e';
const HANDSHAKE = `{"protocol":"json","version":1}${RS}`;

/** What every broadcast carries: which phase, which message, and the driver's send time. */
export interface BenchPayload {
  phase: number;
  seq: number;
  /** performance.now() in the driver when the broadcast was sent. */
  t: number;
  body: string;
}

export type OnPayload = (payload: BenchPayload) => void;

/** One load connection; closing is silent (no events reach the bench afterwards). */
export interface LoadClient {
  readonly open: boolean;
  close(): void;
}

/** The driver's control connection: it triggers broadcasts the way an application client would. */
export interface Sender {
  join(group: string): void;
  broadcastGroup(group: string, payload: BenchPayload): void;
  broadcastAll(payload: BenchPayload): void;
  groupSize(group: string): Promise<number>;
  close(): void;
}

export interface BenchTarget {
  /** Connects one load client; resolves once it can receive (SignalR handshake done / socket.io connected). */
  connect(index: number, onPayload: OnPayload, timeoutMs: number): Promise<LoadClient & Sender>;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ---- SignalR JSON protocol over a raw WebSocket ---------------------------------------------------

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** skipNegotiation style: WebSocket straight to the hub URL, handshake, then hub messages. */
export class RawSignalRClient implements LoadClient, Sender {
  private readonly ws: WebSocket;
  private handshakeDone = false;
  private closedByUs = false;
  private nextInvocationId = 0;
  private readonly pending = new Map<string, Pending>();
  private readonly ready: Promise<void>;
  /** Ping and Close records seen from the server (sanity counters). */
  pings = 0;
  closeRecords = 0;

  constructor(url: string, onPayload: OnPayload) {
    this.ws = new WebSocket(url, { perMessageDeflate: false });
    this.ready = new Promise<void>((resolve, reject) => {
      this.ws.on('open', () => this.ws.send(HANDSHAKE));
      this.ws.on('error', (e) => {
        if (!this.handshakeDone) reject(e);
      });
      this.ws.on('close', () => {
        if (!this.handshakeDone) reject(new Error('closed before the handshake'));
        for (const p of this.pending.values()) p.reject(new Error('connection closed'));
        this.pending.clear();
      });
      this.ws.on('message', (data: RawData) => {
        if (this.closedByUs) return;
        const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
        for (const record of text.split(RS)) {
          if (record.length === 0) continue;
          const message = JSON.parse(record) as {
            type?: number;
            target?: string;
            arguments?: unknown[];
            invocationId?: string;
            result?: unknown;
            error?: string;
          };
          if (!this.handshakeDone) {
            if (message.error) {
              reject(new Error(`handshake refused: ${message.error}`));
              return;
            }
            this.handshakeDone = true;
            resolve();
            continue;
          }
          switch (message.type) {
            case 1:
              if (message.target === 'Message') onPayload(message.arguments?.[0] as BenchPayload);
              break;
            case 3: {
              const id = message.invocationId ?? '';
              const p = this.pending.get(id);
              this.pending.delete(id);
              if (message.error !== undefined) p?.reject(new Error(message.error));
              else p?.resolve(message.result);
              break;
            }
            case 6:
              this.pings++;
              break;
            case 7:
              this.closeRecords++;
              break;
          }
        }
      });
    });
    // Nobody may be listening yet when a connection fails: keep the rejection handled.
    this.ready.catch(() => {});
  }

  waitReady(timeoutMs: number): Promise<void> {
    return withTimeout(this.ready, timeoutMs, 'SignalR connect');
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN && this.handshakeDone;
  }

  /** Fire-and-forget invocation (no invocationId: the server never answers). */
  send(target: string, args: unknown[]): void {
    this.ws.send(JSON.stringify({ type: 1, target, arguments: args }) + RS);
  }

  /** Invocation with an id: resolves with the server's Completion. */
  invoke(target: string, args: unknown[], timeoutMs = 10_000): Promise<unknown> {
    const invocationId = String(++this.nextInvocationId);
    const result = new Promise<unknown>((resolve, reject) => {
      this.pending.set(invocationId, { resolve, reject });
    });
    this.ws.send(JSON.stringify({ type: 1, invocationId, target, arguments: args }) + RS);
    return withTimeout(result, timeoutMs, `invoke ${target}`);
  }

  join(group: string): void {
    this.send('Join', [group]);
  }
  broadcastGroup(group: string, payload: BenchPayload): void {
    this.send('BroadcastGroup', [group, payload]);
  }
  broadcastAll(payload: BenchPayload): void {
    this.send('BroadcastAll', [payload]);
  }
  async groupSize(group: string): Promise<number> {
    return Number(await this.invoke('GroupSize', [group]));
  }
  close(): void {
    this.closedByUs = true;
    this.ws.terminate();
  }
}

export function signalRTarget(port: number): BenchTarget {
  return {
    async connect(index, onPayload, timeoutMs) {
      // A distinct token per client: a distinct user, as in the app (every user has a personal group).
      const client = new RawSignalRClient(`ws://127.0.0.1:${port}/hub?access_token=u${index}`, onPayload);
      try {
        await client.waitReady(timeoutMs);
      } catch (e) {
        client.close();
        throw e;
      }
      return client;
    },
  };
}

// ---- socket.io --------------------------------------------------------------------------------------

class SocketIoClient implements LoadClient, Sender {
  constructor(private readonly socket: Socket) {}
  get open(): boolean {
    return this.socket.connected;
  }
  join(group: string): void {
    this.socket.emit('join', group);
  }
  broadcastGroup(group: string, payload: BenchPayload): void {
    this.socket.emit('broadcastGroup', group, payload);
  }
  broadcastAll(payload: BenchPayload): void {
    this.socket.emit('broadcastAll', payload);
  }
  async groupSize(group: string): Promise<number> {
    return Number(await this.socket.timeout(10_000).emitWithAck('groupSize', group));
  }
  close(): void {
    this.socket.removeAllListeners();
    this.socket.io.removeAllListeners();
    this.socket.on('error', () => {}); // late errors stay silent
    this.socket.disconnect();
  }
}

export function socketIoTarget(port: number): BenchTarget {
  return {
    async connect(_index, onPayload, timeoutMs) {
      const socket = io(`http://127.0.0.1:${port}`, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        timeout: timeoutMs,
      });
      socket.on('msg', onPayload);
      const client = new SocketIoClient(socket);
      try {
        await withTimeout(
          new Promise<void>((resolve, reject) => {
            socket.once('connect', () => resolve());
            socket.once('connect_error', (e) => reject(e));
          }),
          timeoutMs,
          'socket.io connect',
        );
      } catch (e) {
        client.close();
        throw e;
      }
      return client;
    },
  };
}
