import { Alert } from '@mantine/core';
import { IconDatabaseOff, IconWifiOff } from '@tabler/icons-react';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import {
  reportDatabaseBack,
  reportDatabaseLost,
  reportServerReached,
  useConnectionState,
} from '../lib/connection.ts';
import { useHubEvent, useHubStatus } from '../lib/hub-provider.tsx';
import { useT } from '../lib/i18n.ts';

/** While the server is unreachable but the browser thinks it is online, ask again this often. */
const PROBE_MS = 15_000;
/** While the server has lost its database, as often as its Retry-After says (5 s). */
const DATABASE_PROBE_MS = 5_000;

/** Loads that failed for want of a connection, asked again (a screen's "Try again", done for it). */
function retryFailedLoads(queryClient: QueryClient) {
  return queryClient.refetchQueries({ type: 'active', predicate: (query) => query.state.status === 'error' });
}

/**
 * The shell's notice of a lost connection (the browser is offline, requests get no answer, or the
 * server has lost its database for a while): what it means for the user's work, instead of screens
 * that wait forever or errors on every screen. When the connection is back
 * (the browser's `online`, a request answered, the hub connected again) it goes and the loads that
 * failed meanwhile run again.
 */
export function OfflineNotice() {
  const t = useT('shell');
  const state = useConnectionState();
  const hub = useHubStatus();
  const queryClient = useQueryClient();
  const wasLost = useRef(false);

  // The hub reaching the server proves it is reachable again.
  useEffect(() => {
    if (hub === 'connected') reportServerReached();
  }, [hub]);
  // The server says when it loses its database and when it has it back.
  useHubEvent('ServiceStatus', (status) => {
    if (status.database === 'down') reportDatabaseLost();
    else reportDatabaseBack();
  });

  useEffect(() => {
    if (state === 'online') {
      if (wasLost.current) void retryFailedLoads(queryClient);
      wasLost.current = false;
      return;
    }
    wasLost.current = true;
    if (state === 'browser-offline') return;
    // No browser event will say when the server is back: ask now and then.
    const timer = window.setInterval(
      () => void retryFailedLoads(queryClient),
      state === 'database-lost' ? DATABASE_PROBE_MS : PROBE_MS,
    );
    return () => window.clearInterval(timer);
  }, [state, queryClient]);

  if (state === 'online') return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={state === 'database-lost' ? <IconDatabaseOff aria-hidden /> : <IconWifiOff aria-hidden />}
      role="status"
      aria-live="polite"
      mb="md"
      data-testid="offline-notice"
    >
      {state === 'database-lost' ? t('databaseLost') : t('offline')}
    </Alert>
  );
}
