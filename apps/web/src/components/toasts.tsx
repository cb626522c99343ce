import { useNotifications } from '@mantine/notifications';
import { Suspense, useEffect, useState } from 'react';
import { lazyNamed } from '../lib/lazy-component.ts';

const ToastContainer = lazyNamed(() => import('./toast-container.tsx'), 'ToastContainer');

/**
 * Where toasts show (`notifications.show` anywhere). Mantine's container (about 3 KB compressed)
 * loads with the first toast, not with the first paint (ADR 0023): the store keeps what was shown
 * meanwhile, and the container shows it when it mounts.
 */
export function Toasts() {
  const { notifications: shown, queue } = useNotifications();
  const [needed, setNeeded] = useState(ToastContainer.isLoaded());
  const any = shown.length + queue.length > 0;
  useEffect(() => {
    if (any) setNeeded(true);
  }, [any]);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  );
}
