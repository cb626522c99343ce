import type { Presence, PresenceUser } from '@fvg/contracts';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { useHub, useHubEvent } from '../../../lib/hub-provider.tsx';
import { useMe } from '../../../lib/session.ts';
import { PresenceAvatars } from './chat-panel.tsx';

const RoomContext = createContext<PresenceUser[]>([]);

/**
 * Being in a dossier's room while its screen is open: joins (by number or id) on mount and again after
 * every reconnect, leaves on unmount, and keeps the presence list the hub announces.
 */
/**
 * A hub method's refusal: the server's answer in words (`Dossier not found.`), as opposed to its
 * "An unexpected error occurred invoking …" and to errors of the connection itself.
 */
function isRefusal(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const m = e.message;
  return (
    m !== '' && !m.startsWith('An unexpected error') && !/connection|disconnect|WebSocket|stopped/i.test(m)
  );
}

export function DossierRoom({ dossierKey, children }: { dossierKey: string; children: ReactNode }) {
  const hub = useHub();
  const [room, setRoom] = useState<{ id: string; users: PresenceUser[] } | null>(null);

  useEffect(() => {
    let active = true;
    let joinedId: string | null = null;
    const join = () =>
      hub
        .invoke('JoinDossier', dossierKey)
        .then((p) => {
          joinedId = p.dossierId;
          if (active) setRoom({ id: p.dossierId, users: p.users });
        })
        // A dossier that does not exist or that the user may not see is the detail screen's error to
        // show (its 404), not a fault: the room stays empty and the console quiet (issue 27 item 8).
        // What the server did not answer as a refusal (its unexpected errors, a lost connection) is one.
        .catch((e: unknown) => {
          if (!isRefusal(e)) console.error('[hub] JoinDossier failed', e);
        });
    void join();
    const off = hub.onReconnected(() => void join());
    return () => {
      active = false;
      off();
      if (joinedId) void hub.invoke('LeaveDossier', joinedId).catch(() => {});
    };
  }, [hub, dossierKey]);

  useHubEvent('Presence', (p: Presence) => {
    setRoom((r) => (r && r.id === p.dossierId ? { id: r.id, users: p.users } : r));
  });

  return <RoomContext.Provider value={room?.users ?? []}>{children}</RoomContext.Provider>;
}

/** Avatars of the others in the current dossier's room. */
export function DossierPresence() {
  const users = useContext(RoomContext);
  const me = useMe();
  return <PresenceAvatars users={users} meId={me.data?.id} />;
}
