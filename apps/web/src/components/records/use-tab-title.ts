import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';

/**
 * A screen's own tab title while it is on screen (null: the route's, as the router gives it): for what
 * the route's title does not say, a credit note on the sales invoice route, a print view with its data.
 * The router titles every screen once it resolves; a screen that had its data first keeps its own.
 */
export function useTabTitle(title: string | null) {
  const router = useRouter();
  useEffect(() => {
    if (!title) return;
    const apply = () => {
      document.title = title;
    };
    apply();
    return router.subscribe('onResolved', apply);
  }, [title, router]);
}
