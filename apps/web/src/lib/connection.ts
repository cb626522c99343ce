import { useSyncExternalStore } from 'react';

/*
 * Whether the app can reach its server: the browser says it is offline (`navigator.onLine` and its
 * events), or the last request to the API failed without an answer (fetch threw: no network, server
 * down) and none succeeded since. The API client reports each request; the offline notice reads it.
 */

let fetchFailed = false;
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

export type ConnectionState = 'online' | 'browser-offline' | 'server-unreachable';

export function connectionState(): ConnectionState {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return 'browser-offline';
  return fetchFailed ? 'server-unreachable' : 'online';
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
