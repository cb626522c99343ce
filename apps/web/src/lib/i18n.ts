import i18next, { type TFunction } from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import common from '../locales/en/common.json';
import dashboard from '../locales/en/dashboard.json';
import profile from '../locales/en/profile.json';
import records from '../locales/en/records.json';
import routes from '../locales/en/routes.json';
import search from '../locales/en/search.json';
import shell from '../locales/en/shell.json';

/*
 * The one i18n layer (docs/adr/0038-i18n.md): every string the user reads comes from a catalogue
 * (locales/<language>/<namespace>.json) through `t`/`useT`, so a second language is a new folder of
 * catalogues, not a rewrite. English is bundled and initialised synchronously: the first render
 * already has its words. Namespaces are per area; `common` holds what several share, `shell` the
 * frame (app/**, the screen-level components), `routes` the screen titles, descriptions and navbar
 * labels of app/route-table.ts, `records` the shared list/record pieces (components/records/**).
 * i18n.test.ts checks statically that every key the code uses is in the English catalogue and that
 * no catalogue key is unused.
 *
 * A second language: locales/<lang>/*.json with the same keys, and one line below.
 */

export const resources = {
  en: { common, dashboard, profile, records, routes, search, shell },
} as const;
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
// "This {{what, lowercase}} could not be loaded": English lowercases a screen title inside a sentence;
// a language that does not (German nouns) leaves the format out of its catalogue entry.
i18n.services.formatter?.add('lowercase', (value: unknown, lng: string | undefined) =>
  String(value).toLocaleLowerCase(lng),
);

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
  await i18n.changeLanguage(i18n.hasResourceBundle(language, 'common') ? language : 'en');
}
