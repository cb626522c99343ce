import i18next, { type TFunction } from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import common from '../locales/en/common.json';
import dashboard from '../locales/en/dashboard.json';
import profile from '../locales/en/profile.json';
import search from '../locales/en/search.json';

/*
 * The one i18n layer (docs/adr/0038-i18n.md): every string the user reads comes from a catalogue
 * (locales/<language>/<namespace>.json) through `t`/`useT`, so a second language is a new folder of
 * catalogues, not a rewrite. English is bundled and initialised synchronously: the first render
 * already has its words. Namespaces are per area; `common` holds what several share.
 */

export const resources = { en: { common, dashboard, profile, search } } as const;
export type Namespace = keyof (typeof resources)['en'];

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources,
  lng: 'en',
  fallbackLng: 'en',
  defaultNS: 'common',
  ns: Object.keys(resources.en),
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
});

/** The words of one namespace, re-rendering when the language changes. */
export function useT(ns: Namespace = 'common'): TFunction {
  return useTranslation(ns, { i18n }).t;
}

/** Outside React (route titles, toasts): the same catalogue. */
export function t(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, options) as string;
}

/** Switches the language (the profile); unknown ones fall back to English. */
export async function setLanguage(language: string): Promise<void> {
  await i18n.changeLanguage(language in resources ? language : 'en');
}
