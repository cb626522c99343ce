import { ANIMATION_MS } from '@fvg/contracts';
import { Notifications } from '@mantine/notifications';

/** Mantine's toast container, loaded by toasts.tsx with the first toast. */
export function ToastContainer() {
  return <Notifications position="top-right" transitionDuration={ANIMATION_MS} />;
}
