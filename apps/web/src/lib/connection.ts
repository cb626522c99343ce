import { DATABASE_UNAVAILABLE_PROBLEM } from '@fvg/contracts';
import { useSyncExternalStore } from 'react';

/*
 * Whether the app can reach its server: the browser says it is offline (`navigator.onLine` and its
 * events), or the last request to the API failed without an answer (fetch threw: no network, server
 * down) and none succeeded since; or the server answers but has lost its database for a while (it
 * answers 503 `/problems/database-unavailable`, and its hub says `ServiceStatus` down, until it is
 * back). The API client reports each request; the offline notice reads it.
 */

let fetchFailed = false;
/** The server answers but has lost its database (a 503 of that type, or the hub said so). */
let databaseLost = false;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** A request to the API got no answer at all (fetch threw, not aborted). */
export function reportFetchFailed(): void {
  if (fetchFailed) return;
  fetchFailed = true;
  notify();
}

/** The server answered (any status), or the hub connected: it is reachable. */
export function reportServerReached(): void {
  if (!fetchFailed) return;
  fetchFailed = false;
  notify();
}

/** The server says it cannot reach its database (a 503 of that problem type, or the hub's ServiceStatus). */
export function reportDatabaseLost(): void {
  if (databaseLost) return;
  databaseLost = true;
  notify();
}

/** The server has its database again (the hub said so, or a request was answered otherwise). */
export function reportDatabaseBack(): void {
  if (!databaseLost) return;
  databaseLost = false;
  notify();
}

/** Reports what an API answer says about the server and its database. */
export function reportAnswer(status: number, problemType: string | undefined): void {
  reportServerReached();
  if (status === 503 && problemType === DATABASE_UNAVAILABLE_PROBLEM) reportDatabaseLost();
  else reportDatabaseBack();
}

export type ConnectionState = 'online' | 'browser-offline' | 'server-unreachable' | 'database-lost';

export function connectionState(): ConnectionState {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return 'browser-offline';
  if (fetchFailed) return 'server-unreachable';
  return databaseLost ? 'database-lost' : 'online';
}

export function subscribeConnection(listener: () => void): () => void {
  // The browser's network is back: believe it until a request says otherwise (the loads that failed
  // run again at once, and a failure brings the notice back).
  const online = () => {
    fetchFailed = false;
    listener();
  };
  listeners.add(listener);
  window.addEventListener('online', online);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', online);
    window.removeEventListener('offline', listener);
  };
}

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(subscribeConnection, connectionState, () => 'online');
}
