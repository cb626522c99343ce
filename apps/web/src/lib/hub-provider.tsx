import type { HubServerEvents } from '@fvg/contracts';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { isApiError } from '../lib/api-client.ts';
import { HubClient, type HubClientOptions, type HubEventName, type HubStatus } from '../lib/hub-client.ts';
import { connectLiveUpdates } from '../lib/live-updates.ts';
import { fetchMe, onSignOut } from '../lib/session.ts';

/*
 * One HubClient per signed-in session. The provider sits inside the shell (the layout of signed-in
 * routes, which the guard only renders once `me` is loaded): it starts the hub when the user is
 * known, and stops it on logout() and when the shell goes away (the way to /logout and /login
 * leaves the shell, so the next sign-in mounts a new provider with a new client).
 */

const HubContext = createContext<HubClient | null>(null);

/** Options of the HubClient the provider creates; tests provide a fake connection through it. */
export const HubOptionsContext = createContext<HubClientOptions | undefined>(undefined);

export interface HubProviderProps {
  /** The signed-in user's id: the hub starts once it is known, and restarts if it changes. */
  userId: string | undefined;
  /** A ready client (tests); otherwise the provider creates one. */
  client?: HubClient;
  /**
   * The server refused the session after the hub closed (deactivated, password changed, token
   * expired: the server ends the hub connection then). The shell signs out.
   */
  onSessionEnded?: () => void;
  children: ReactNode;
}

export function HubProvider({ userId, client, onSessionEnded, children }: HubProviderProps) {
  const options = useContext(HubOptionsContext);
  const [hub] = useState(() => client ?? new HubClient(options));
  const queryClient = useQueryClient();
  const meId = useRef(userId);

  useEffect(() => {
    meId.current = userId;
  }, [userId]);

  useEffect(() => connectLiveUpdates(hub, queryClient, { getMeId: () => meId.current }), [hub, queryClient]);

  const sessionEnded = useRef(onSessionEnded);
  useEffect(() => {
    sessionEnded.current = onSessionEnded;
  }, [onSessionEnded]);
  // A closed hub is either the network (retried later) or the server ending the session. Ask `me`:
  // a 401 means the session is over, so sign out instead of retrying with a dead token every minute.
  useEffect(
    () =>
      hub.status.subscribe((status) => {
        if (status !== 'offline' || !meId.current) return;
        fetchMe().catch((error: unknown) => {
          if (isApiError(error) && error.status === 401) sessionEnded.current?.();
        });
      }),
    [hub],
  );

  useEffect(() => {
    if (!userId) return;
    // A failed start is on the console already and is retried later; nothing for the user to see.
    hub.start().catch(() => {});
    const offSignOut = onSignOut(() => void hub.stop());
    return () => {
      offSignOut();
      void hub.stop();
    };
  }, [hub, userId]);

  return <HubContext.Provider value={hub}>{children}</HubContext.Provider>;
}

/** The session's hub client. Only inside the signed-in shell. */
export function useHub(): HubClient {
  const hub = useContext(HubContext);
  if (!hub) throw new Error('useHub() needs a <HubProvider> (it is in the signed-in shell).');
  return hub;
}

/** The hub's status, re-rendering on change. */
export function useHubStatus(): HubStatus {
  const hub = useHub();
  return useSyncExternalStore(hub.status.subscribe, hub.status.get);
}

/** Handles a server event while the component is mounted; the latest `handler` is always used. */
export function useHubEvent<E extends HubEventName>(event: E, handler: HubServerEvents[E]): void {
  const hub = useHub();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  }, [handler]);
  useEffect(() => {
    const forward = (...args: unknown[]) => (latest.current as (...a: unknown[]) => void)(...args);
    return hub.on(event, forward as HubServerEvents[E]);
  }, [hub, event]);
}
