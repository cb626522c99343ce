import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useMemo } from 'react';
import { createAppTheme, cssVariablesResolver } from '../components/theme.ts';
import { Toasts } from '../components/toasts.tsx';
import type { HubClientOptions } from '../lib/hub-client.ts';
import { HubOptionsContext } from '../lib/hub-provider.tsx';
import { useT } from '../lib/i18n.ts';
import type { AppRouter } from './router.tsx';

export interface ProvidersProps {
  queryClient: QueryClient;
  router: AppRouter;
  /** Options of the real-time hub client of each session (tests pass a fake connection). */
  hubOptions?: HubClientOptions;
}

export function Providers({ queryClient, router, hubOptions }: ProvidersProps) {
  const t = useT('common');
  // Rebuilt when the language changes: the theme names Mantine's icon buttons.
  const theme = useMemo(() => createAppTheme({ clear: t('clear'), close: t('close') }), [t]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      {/* Placed below the header by app.css: a toast must not cover the search, bell or account menu. */}
      <Toasts />
      <QueryClientProvider client={queryClient}>
        <HubOptionsContext.Provider value={hubOptions}>
          <RouterProvider router={router} />
        </HubOptionsContext.Provider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
