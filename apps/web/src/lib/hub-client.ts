import type { HubClientMethods, HubServerEvents } from '@fvg/contracts';
import { HUB_LOG_PREFIX, type HubConsole } from './hub-logger.ts';

/*
 * The real-time hub of the specification (§7–9), from the app's side: one HubClient per signed-in
 * session wraps one @microsoft/signalr HubConnection and adds what the library does not do:
 *
 * - Calls made before the hub has started wait for it (the library rejects them at once). Every
 *   `invoke`/`send` waits for the current start or automatic reconnect, then goes out; calls leave
 *   in the order they were made. A start that fails, or a reconnect that gives up, rejects the
 *   waiting calls; the next call starts the connection again.
 * - After the library's automatic reconnect has given up (0, 2, 10, 30 s, then closed), the client
 *   tries again later: when the browser comes back online, when the window gets the focus, every
 *   minute while the page is visible, and on the next call.
 * - Event handlers can be added before the connection exists and are kept across reconnects.
 * - A status for the UI ('connected' | 'connecting' | 'reconnecting' | 'offline'). Errors are
 *   written to the console only, never shown.
 *
 * This file does not import @microsoft/signalr: the default connection factory loads it with a
 * dynamic import on the first start, so the shell paints without it.
 */

export type HubStatus = 'connected' | 'connecting' | 'reconnecting' | 'offline';

export type HubMethodName = keyof HubClientMethods;
export type HubMethodArgs<K extends HubMethodName> = HubClientMethods[K]['args'];
export type HubMethodResult<K extends HubMethodName> = HubClientMethods[K]['result'];
export type HubEventName = keyof HubServerEvents;

/**
 * The part of @microsoft/signalr's HubConnection the client uses. `state` is one of the library's
 * HubConnectionState values: 'Disconnected', 'Connecting', 'Connected', 'Disconnecting', 'Reconnecting'.
 */
export interface HubConnectionLike {
  readonly state: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  invoke(methodName: string, ...args: unknown[]): Promise<unknown>;
  send(methodName: string, ...args: unknown[]): Promise<void>;
  on(methodName: string, handler: (...args: unknown[]) => void): void;
  onclose(callback: (error?: Error) => void): void;
  onreconnecting(callback: (error?: Error) => void): void;
  onreconnected(callback: (connectionId?: string) => void): void;
}

/** Where the client listens for "worth trying again" moments: `online` and `focus`. */
export type HubWakeTarget = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

export interface HubClientOptions {
  /** Builds the connection, once per HubClient. Default: the real one, loaded lazily. */
  createConnection?: () => HubConnectionLike | Promise<HubConnectionLike>;
  /** Where warnings and errors go; the console by default. */
  console?: HubConsole;
  /** Delay of the periodic restart while closed after a failure; 0 disables the timer. */
  restartDelayMs?: number;
  /** Source of `online` and `focus` events; `window` by default, null for none. */
  wakeTarget?: HubWakeTarget | null;
  /** Whether the page is visible (the periodic restart skips hidden pages). */
  isPageVisible?: () => boolean;
}

/** Delay between restarts once the automatic reconnect has given up (or a start failed). */
export const HUB_RESTART_DELAY_MS = 60_000;

/** A call that was waiting when the client was stopped (sign-out), or a call made after that. */
export class HubStoppedError extends Error {
  override readonly name = 'HubStoppedError';
  constructor() {
    super('The real-time connection was stopped.');
  }
}

/** The connection closed (the automatic reconnect gave up) while the call was waiting. */
export class HubClosedError extends Error {
  override readonly name = 'HubClosedError';
  constructor(cause?: unknown) {
    super('The real-time connection closed.', cause === undefined ? undefined : { cause });
  }
}

/** A value with change notifications; `subscribe` and `get` suit React's useSyncExternalStore. */
export interface ReadonlyObservable<T> {
  get(): T;
  subscribe(listener: (value: T) => void): () => void;
}

class Observable<T> implements ReadonlyObservable<T> {
  private value: T;
  private readonly listeners = new Set<(value: T) => void>();

  constructor(initial: T) {
    this.value = initial;
  }

  readonly get = (): T => this.value;

  readonly subscribe = (listener: (value: T) => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  set(value: T): void {
    if (Object.is(value, this.value)) return;
    this.value = value;
    for (const listener of [...this.listeners]) listener(value);
  }
}

/** One call (or start() waiter) waiting for the connection. */
interface Waiting {
  run(connection: HubConnectionLike): void;
  fail(error: unknown): void;
}

interface ReconnectListener {
  callback: () => void;
  /** Set when calls the feature made may have been lost (connection lost, start failed, stop). */
  due: boolean;
}

type AnyHandler = (...args: unknown[]) => void;

function noop(): void {}

async function loadDefaultConnection(): Promise<HubConnectionLike> {
  const { createHubConnection } = await import('./hub-connection.ts');
  return createHubConnection();
}

function defaultWakeTarget(): HubWakeTarget | null {
  return typeof window === 'undefined' ? null : window;
}

function defaultPageVisible(): boolean {
  return typeof document === 'undefined' || document.visibilityState !== 'hidden';
}

export class HubClient {
  /** 'connected' | 'connecting' | 'reconnecting' | 'offline'. */
  readonly status: ReadonlyObservable<HubStatus>;

  private readonly statusValue = new Observable<HubStatus>('offline');
  private readonly createConnection: () => HubConnectionLike | Promise<HubConnectionLike>;
  private readonly log: HubConsole;
  private readonly restartDelayMs: number;
  private readonly wakeTarget: HubWakeTarget | null;
  private readonly isPageVisible: () => boolean;

  private connection: HubConnectionLike | undefined;
  private connectionPromise: Promise<HubConnectionLike> | undefined;
  private startPromise: Promise<void> | undefined;
  private stopPromise: Promise<void> | undefined;
  private stopped = true;
  /** Bumped by stop(): a start that began before it must not touch the state any more. */
  private generation = 0;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private waiting: Waiting[] = [];
  private readonly handlers = new Map<string, Set<AnyHandler>>();
  private readonly wired = new Set<string>();
  private readonly reconnectListeners = new Set<ReconnectListener>();

  constructor(options: HubClientOptions = {}) {
    this.status = this.statusValue;
    this.createConnection = options.createConnection ?? loadDefaultConnection;
    this.log = options.console ?? console;
    this.restartDelayMs = options.restartDelayMs ?? HUB_RESTART_DELAY_MS;
    this.wakeTarget = options.wakeTarget === undefined ? defaultWakeTarget() : options.wakeTarget;
    this.isPageVisible = options.isPageVisible ?? defaultPageVisible;
  }

  /**
   * Starts the connection; idempotent. Resolves once connected, rejects if this attempt fails (the
   * error is also on the console; callers may ignore it). After stop(), start() enables the client
   * again.
   */
  start(): Promise<void> {
    if (this.stopped) {
      this.stopped = false;
      this.wakeTarget?.addEventListener('online', this.wake);
      this.wakeTarget?.addEventListener('focus', this.wake);
    }
    return this.ensureStarted();
  }

  /**
   * Stops the connection (sign-out): calls waiting at that moment reject with HubStoppedError; calls
   * made while stopped wait for the next start(). No restart is attempted while stopped.
   */
  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.wakeTarget?.removeEventListener('online', this.wake);
      this.wakeTarget?.removeEventListener('focus', this.wake);
    }
    this.generation++;
    this.startPromise = undefined;
    this.clearRestartTimer();
    this.failWaiting(new HubStoppedError());
    this.markReconnectListenersDue();
    this.statusValue.set('offline');
    const connection = this.connection;
    if (!connection || connection.state === 'Disconnected') return this.stopPromise;
    this.stopPromise ??= connection
      .stop()
      .catch((error: unknown) => this.log.warn(HUB_LOG_PREFIX, 'stopping the connection failed', error))
      .finally(() => {
        this.stopPromise = undefined;
      });
    return this.stopPromise;
  }

  /**
   * Calls a hub method and resolves with its result. Waits for the current start or reconnect
   * (starting the connection again when it is down; before start() it waits for start()); calls go
   * out in the order they were made. Rejects when that start fails, the reconnect gives up, stop()
   * is called, or the server answers with an error.
   */
  invoke<K extends HubMethodName>(method: K, ...args: HubMethodArgs<K>): Promise<HubMethodResult<K>> {
    return this.call((connection) => connection.invoke(method, ...args) as Promise<HubMethodResult<K>>);
  }

  /** Sends a hub method without waiting for its result (fire and forget), with the same queueing. */
  send<K extends HubMethodName>(method: K, ...args: HubMethodArgs<K>): Promise<void> {
    return this.call((connection) => connection.send(method, ...args));
  }

  /** Handles a server event; returns the unsubscribe function. Handlers survive reconnects. */
  on<E extends HubEventName>(event: E, handler: HubServerEvents[E]): () => void {
    let set = this.handlers.get(event);
    if (!set) {
      set = new Set();
      this.handlers.set(event, set);
    }
    // A wrapper per registration: the same function added twice is two subscriptions.
    const entry: AnyHandler = (...args) => (handler as AnyHandler)(...args);
    set.add(entry);
    if (this.connection) this.wire(this.connection, event);
    return () => {
      this.handlers.get(event)?.delete(entry);
    };
  }

  /**
   * Runs `callback` when a connection is established after calls the feature made may have been
   * lost, so it can rebuild server-side state (rejoin a dossier chat group…): after an automatic
   * reconnect (each one is a new connection id, without the old groups), and after a restart that
   * follows a failed start, a give-up or a stop(). Not for a connection that the feature's own
   * calls were queued onto, whether they were made before or after registering: the pattern is to
   * make the call and register the same call here, in either order. Returns the unsubscribe.
   */
  onReconnected(callback: () => void): () => void {
    const listener: ReconnectListener = { callback, due: false };
    this.reconnectListeners.add(listener);
    return () => {
      this.reconnectListeners.delete(listener);
    };
  }

  /** The current status; the same as `status.get()`. */
  getStatus(): HubStatus {
    return this.statusValue.get();
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────

  private call<T>(run: (connection: HubConnectionLike) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Waiting = {
        run: (connection) => {
          let result: Promise<T>;
          try {
            result = run(connection);
          } catch (error) {
            result = Promise.reject(error);
          }
          result.then(resolve, reject);
        },
        fail: reject,
      };
      const connection = this.connection;
      if (connection?.state === 'Connected' && !this.startPromise && this.waiting.length === 0) {
        entry.run(connection);
        return;
      }
      this.waiting.push(entry);
      this.kick();
    });
  }

  /** Makes sure something will eventually run or fail the waiting calls. */
  private kick(): void {
    if (this.stopped || this.startPromise) return;
    const state = this.connection?.state;
    if (state === 'Reconnecting') return; // onreconnected or onclose settles them
    if (state === 'Connected') {
      this.flush();
      return;
    }
    this.ensureStarted().catch(noop); // the failure reaches the waiting calls and the console
  }

  private ensureStarted(): Promise<void> {
    if (this.stopped) return Promise.reject(new HubStoppedError());
    if (this.startPromise) return this.startPromise;
    const state = this.connection?.state;
    if (state === 'Connected') return Promise.resolve();
    if (state === 'Reconnecting') {
      return new Promise<void>((resolve, reject) => {
        this.waiting.push({ run: () => resolve(), fail: reject });
      });
    }
    const promise = this.runStart(this.generation).finally(() => {
      if (this.startPromise === promise) this.startPromise = undefined;
    });
    this.startPromise = promise;
    return promise;
  }

  private async runStart(generation: number): Promise<void> {
    this.clearRestartTimer();
    this.statusValue.set('connecting');
    const current = () => generation === this.generation && !this.stopped;
    try {
      const connection = await this.getConnection();
      if (!current()) throw new HubStoppedError();
      // A stop() of a previous session may still be closing the connection.
      while (this.stopPromise) await this.stopPromise;
      if (!current()) throw new HubStoppedError();
      await connection.start();
      if (!current()) throw new HubStoppedError();
    } catch (error) {
      if (!current()) throw error instanceof HubStoppedError ? error : new HubStoppedError();
      this.log.warn(HUB_LOG_PREFIX, 'could not connect; will try again later', error);
      this.statusValue.set('offline');
      this.failWaiting(error);
      this.markReconnectListenersDue();
      this.scheduleRestart();
      throw error;
    }
    this.connected();
  }

  private getConnection(): Promise<HubConnectionLike> {
    this.connectionPromise ??= Promise.resolve()
      .then(() => this.createConnection())
      .then((connection) => {
        this.attach(connection);
        return connection;
      });
    // A factory that failed (say, the chunk could not be loaded offline) is asked again next time.
    this.connectionPromise.catch(() => {
      this.connectionPromise = undefined;
    });
    return this.connectionPromise;
  }

  private attach(connection: HubConnectionLike): void {
    this.connection = connection;
    for (const event of this.handlers.keys()) this.wire(connection, event);
    connection.onreconnecting((error) => {
      if (this.stopped || this.stopPromise) return;
      this.markReconnectListenersDue();
      this.log.warn(HUB_LOG_PREFIX, 'connection lost; reconnecting', error);
      this.statusValue.set('reconnecting');
    });
    connection.onreconnected(() => {
      if (this.stopped || this.stopPromise) return;
      this.connected();
    });
    connection.onclose((error) => {
      // Our own stop(), or a close during a start (the start reports it): nothing to do here.
      if (this.stopped || this.stopPromise || this.startPromise) return;
      this.log.warn(HUB_LOG_PREFIX, 'connection closed; will try again later', error);
      this.statusValue.set('offline');
      this.failWaiting(new HubClosedError(error));
      this.markReconnectListenersDue();
      this.scheduleRestart();
    });
  }

  /** One dispatcher per event name, registered once on the connection; it fans out to the handlers. */
  private wire(connection: HubConnectionLike, event: string): void {
    if (this.wired.has(event)) return;
    this.wired.add(event);
    connection.on(event, (...args: unknown[]) => {
      for (const handler of [...(this.handlers.get(event) ?? [])]) {
        try {
          handler(...args);
        } catch (error) {
          this.log.error(HUB_LOG_PREFIX, `a handler of ${event} failed`, error);
        }
      }
    });
  }

  private connected(): void {
    this.clearRestartTimer();
    this.statusValue.set('connected');
    this.flush();
    for (const listener of [...this.reconnectListeners]) {
      if (!listener.due || !this.reconnectListeners.has(listener)) continue;
      listener.due = false;
      try {
        listener.callback();
      } catch (error) {
        this.log.error(HUB_LOG_PREFIX, 'a reconnect listener failed', error);
      }
    }
  }

  /** Sends every waiting call, oldest first, while the connection stays up. */
  private flush(): void {
    const connection = this.connection;
    while (connection?.state === 'Connected' && this.waiting.length > 0) {
      this.waiting.shift()?.run(connection);
    }
  }

  private markReconnectListenersDue(): void {
    for (const listener of this.reconnectListeners) listener.due = true;
  }

  private failWaiting(error: unknown): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const entry of waiting) entry.fail(error);
  }

  private scheduleRestart(): void {
    if (this.stopped || this.restartDelayMs <= 0 || this.restartTimer !== undefined) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.isPageVisible()) this.wake();
      else this.scheduleRestart();
    }, this.restartDelayMs);
  }

  private clearRestartTimer(): void {
    if (this.restartTimer === undefined) return;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  /** `online`, `focus` and the restart timer: start again if the connection is down for good. */
  private readonly wake = (): void => {
    if (this.stopped || this.startPromise || this.stopPromise) return;
    const state = this.connection?.state;
    if (state !== undefined && state !== 'Disconnected') return;
    this.ensureStarted().catch(noop);
  };
}
