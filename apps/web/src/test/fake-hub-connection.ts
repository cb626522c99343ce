import { vi } from 'vitest';
import { HubClient, type HubConnectionLike } from '../lib/hub-client.ts';

/*
 * A stand-in for @microsoft/signalr's HubConnection that behaves like it where HubClient cares:
 * `invoke`/`send` reject unless the state is Connected (the library does not queue), `start` only
 * from Disconnected, `stop` fails a pending start and fires onclose only for a started connection.
 * The test drives everything else: when a start succeeds or fails, drops, reconnects, gives up.
 */

export interface FakeCall {
  kind: 'invoke' | 'send';
  method: string;
  args: unknown[];
}

export class FakeHubConnection implements HubConnectionLike {
  state = 'Disconnected';
  /** Calls that reached the "server", in the order they were sent. */
  readonly sent: FakeCall[] = [];
  startCount = 0;
  stopCount = 0;
  /** Answers invocations; the default echoes the method and arguments. */
  answer: (method: string, args: unknown[]) => unknown = (method, args) => ({ method, args });
  /** When true, start() succeeds at once. */
  autoStart: boolean;
  /** When true, stop() of a live connection stays 'Disconnecting' until finishStop() (as over a network). */
  manualStop = false;

  private pendingStart: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  private pendingStop: (() => void) | undefined;
  private started = false;
  private readonly handlers = new Map<string, Array<(...args: unknown[]) => void>>();
  private readonly closeCallbacks: Array<(error?: Error) => void> = [];
  private readonly reconnectingCallbacks: Array<(error?: Error) => void> = [];
  private readonly reconnectedCallbacks: Array<(connectionId?: string) => void> = [];

  constructor(options: { autoStart?: boolean } = {}) {
    this.autoStart = options.autoStart ?? false;
  }

  get startPending(): boolean {
    return this.pendingStart !== undefined;
  }

  start(): Promise<void> {
    this.startCount++;
    if (this.state !== 'Disconnected') {
      return Promise.reject(
        new Error("Cannot start a HubConnection that is not in the 'Disconnected' state."),
      );
    }
    this.state = 'Connecting';
    if (this.autoStart) {
      this.state = 'Connected';
      this.started = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.pendingStart = {
        resolve: () => {
          this.state = 'Connected';
          this.started = true;
          resolve();
        },
        reject: (error) => {
          this.state = 'Disconnected';
          reject(error);
        },
      };
    });
  }

  /** Completes the pending start. */
  resolveStart(): void {
    const pending = this.take();
    pending.resolve();
  }

  /** Fails the pending start. */
  rejectStart(error: unknown = new Error('Failed to complete negotiation with the server')): void {
    const pending = this.take();
    pending.reject(error);
  }

  stop(): Promise<void> {
    this.stopCount++;
    if (this.pendingStart) {
      this.take().reject(new Error('The connection was stopped during negotiation.'));
      return Promise.resolve();
    }
    if (this.state === 'Disconnected') return Promise.resolve();
    if (!this.manualStop) {
      this.close();
      return Promise.resolve();
    }
    this.state = 'Disconnecting';
    return new Promise<void>((resolve) => {
      this.pendingStop = () => {
        // As in the library, onclose runs before stop() resolves.
        this.close();
        resolve();
      };
    });
  }

  /** Completes a manual stop. */
  finishStop(): void {
    const finish = this.pendingStop;
    if (!finish) throw new Error('No stop is pending.');
    this.pendingStop = undefined;
    finish();
  }

  invoke(method: string, ...args: unknown[]): Promise<unknown> {
    if (this.state !== 'Connected') return Promise.reject(this.notConnected());
    this.sent.push({ kind: 'invoke', method, args });
    try {
      return Promise.resolve(this.answer(method, args));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  send(method: string, ...args: unknown[]): Promise<void> {
    if (this.state !== 'Connected') return Promise.reject(this.notConnected());
    this.sent.push({ kind: 'send', method, args });
    return Promise.resolve();
  }

  on(methodName: string, handler: (...args: unknown[]) => void): void {
    const name = methodName.toLowerCase();
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler]);
  }

  onclose(callback: (error?: Error) => void): void {
    this.closeCallbacks.push(callback);
  }

  onreconnecting(callback: (error?: Error) => void): void {
    this.reconnectingCallbacks.push(callback);
  }

  onreconnected(callback: (connectionId?: string) => void): void {
    this.reconnectedCallbacks.push(callback);
  }

  /** The server sends an event (names match case-insensitively, as in the library). */
  emit(event: string, ...args: unknown[]): void {
    for (const handler of this.handlers.get(event.toLowerCase()) ?? []) handler(...args);
  }

  /** Number of library-level handlers for an event (HubClient registers one dispatcher per name). */
  handlerCount(event: string): number {
    return this.handlers.get(event.toLowerCase())?.length ?? 0;
  }

  /** The transport dropped; the automatic reconnect begins. */
  drop(error: Error = new Error('WebSocket closed with status code: 1006')): void {
    this.state = 'Reconnecting';
    for (const callback of this.reconnectingCallbacks) callback(error);
  }

  /** An automatic reconnect attempt succeeded. */
  reconnect(connectionId = 'connection-2'): void {
    this.state = 'Connected';
    for (const callback of this.reconnectedCallbacks) callback(connectionId);
  }

  /** The automatic reconnect gave up (or the server closed the connection for good). */
  close(error?: Error): void {
    this.state = 'Disconnected';
    if (!this.started) return;
    this.started = false;
    for (const callback of this.closeCallbacks) callback(error);
  }

  private take() {
    const pending = this.pendingStart;
    if (!pending) throw new Error('No start is pending.');
    this.pendingStart = undefined;
    return pending;
  }

  private notConnected(): Error {
    return new Error("Cannot send data if the connection is not in the 'Connected' State.");
  }
}

/** The app's HubClient over a fake connection: quiet console, no wake-up listener, restarts at once. */
export function fakeHub(options: { autoStart?: boolean } = {}) {
  const connection = new FakeHubConnection(options);
  const hub = new HubClient({
    createConnection: () => connection,
    console: { warn: vi.fn(), error: vi.fn() },
    wakeTarget: null,
    restartDelayMs: 0,
  });
  return { hub, connection };
}
