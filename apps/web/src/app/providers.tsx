import { ANIMATION_MS } from '@fvg/contracts';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import type { AppRouter } from './router.tsx';
import { theme } from './theme.ts';

export interface ProvidersProps {
  queryClient: QueryClient;
  router: AppRouter;
}

export function Providers({ queryClient, router }: ProvidersProps) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Notifications position="top-right" transitionDuration={ANIMATION_MS} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
