import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';
import { reportDatabaseBack, reportServerReached } from '../lib/connection.ts';
import { resetDisplayPreferences } from '../lib/display-preferences.ts';
import { setNumberFormat } from '../lib/number-format.ts';

// jsdom lacks the layout APIs Mantine asks for; these stand-ins are enough for components to mount.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', {
    writable: true,
    configurable: true,
    value: ResizeObserverStub,
  });
}

// Mantine's autosizing Textarea listens for web fonts loading; jsdom has no FontFaceSet.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
}

if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};

// jsdom logs "Not implemented" for scrolling, which the router's scroll restoration calls.
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// The web files share their worker's modules (vitest.config.ts, ADR 0065): after each file, the app's
// module-level state goes back to a first start's — the profile's display and number preferences, the
// connection state — so no file sees what another set.
afterAll(() => {
  vi.unstubAllEnvs();
  resetDisplayPreferences();
  setNumberFormat(null);
  reportServerReached();
  reportDatabaseBack();
  sessionStorage.clear();
  document.body.innerHTML = '';
  document.title = '';
});
