import { type ComponentType, type LazyExoticComponent, lazy, useState } from 'react';

/** A component loaded on first render, which a caller can also start loading early (on intent). */
export type LazyComponent<P> = LazyExoticComponent<ComponentType<P>> & {
  preload: () => Promise<unknown>;
  /** True once its module is in: it renders without suspending. */
  isLoaded: () => boolean;
};

/**
 * One named export of a module, loaded when it first renders: what a list screen's dialogs and forms
 * are made of (the first paint of a list needs none of react-hook-form, the date pickers or the form
 * fields; ADR 0023). Render it under a Suspense boundary (RecordModal has one); `preload()` on hover
 * or focus of what opens it hides the load.
 */
export function lazyNamed<M, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): M[K] extends ComponentType<infer P> ? LazyComponent<P> : never {
  let pending: Promise<M> | undefined;
  let loaded = false;
  const once = () => {
    pending ??= load()
      .then((module) => {
        loaded = true;
        return module;
      })
      .catch((error: unknown) => {
        // A failed load (offline) may be retried by the next render or hover.
        pending = undefined;
        throw error;
      });
    return pending;
  };
  const component = lazy(async () => ({ default: (await once())[name] as ComponentType<unknown> }));
  return Object.assign(component, { preload: once, isLoaded: () => loaded }) as never;
}

/**
 * A lazy part of the shell that shows a stand-in until a user reaches for it (ADR 0023): the account
 * menu, the notification list. `intent` (spread on the stand-in) starts the load on pointer-over or
 * focus, `want()` (its click) asks for the real one; `active` is true from then on, or from the start
 * once the module is in. Render the real one under Suspense with the stand-in as its fallback.
 */
export function useLoadOnIntent(component: Pick<LazyComponent<never>, 'preload' | 'isLoaded'>) {
  const [wanted, setWanted] = useState(false);
  // A failed preload is retried by the real render (and by the next pointer-over).
  const preload = () => void component.preload().catch(() => undefined);
  return {
    active: wanted || component.isLoaded(),
    wanted,
    want: () => setWanted(true),
    intent: { onPointerEnter: preload, onFocus: preload },
  };
}
