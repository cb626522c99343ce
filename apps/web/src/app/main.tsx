import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import './app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { showUpdateNotification } from '../components/update-prompt.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { registerServiceWorker } from '../lib/service-worker.ts';
import { clearToken, sessionKeys } from '../lib/session.ts';
import { Providers } from './providers.tsx';
import { type AppRouter, createAppRouter } from './router.tsx';

let router: AppRouter | undefined;

const queryClient = createQueryClient({
  // The token expired or was revoked while the app was open: forget it and let the guards of the
  // current route send the user to /login (with a way back here).
  onUnauthorized: () => {
    clearToken();
    queryClient.removeQueries({ queryKey: sessionKeys.all });
    void router?.invalidate();
  },
});
router = createAppRouter(queryClient);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render the app into.');

createRoot(container).render(
  <StrictMode>
    <Providers queryClient={queryClient} router={router} />
  </StrictMode>,
);

registerServiceWorker({ onUpdateReady: showUpdateNotification });
