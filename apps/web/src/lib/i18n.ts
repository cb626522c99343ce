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
 * labels of lib/route-table.ts, `records` the shared list/record pieces (components/records/**).
 * i18n-catalogue.test.ts checks statically that every key the code uses is in the English catalogue
 * and that no catalogue key is unused.
 *
 * A second language: locales/<lang>/*.json with the same keys (and its code in LANGUAGES of the
 * contracts, so the profile offers it). Its catalogues load when a user switches to it, never with the
 * English first paint.
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

/** The catalogues of the other languages, each a chunk of its own. */
const OTHER_LANGUAGES = import.meta.glob<{ default: Record<string, unknown> }>([
  '../locales/*/*.json',
  '!../locales/en/*.json',
]);

type CatalogueLoaders = Record<string, () => Promise<{ default: Record<string, unknown> }>>;

/** Loads a language's catalogues (`../locales/<lang>/<ns>.json`) once; false when it has none. */
export async function loadLanguage(
  language: string,
  loaders: CatalogueLoaders = OTHER_LANGUAGES,
): Promise<boolean> {
  if (i18n.hasResourceBundle(language, 'common')) return true;
  const files = Object.entries(loaders).filter(([path]) => path.split('/').at(-2) === language);
  const loaded = await Promise.all(
    files.map(
      async ([path, load]) =>
        [
          path
            .split('/')
            .at(-1)
            ?.replace(/\.json$/, '') ?? '',
          await load(),
        ] as const,
    ),
  );
  for (const [ns, catalogue] of loaded) i18n.addResourceBundle(language, ns, catalogue.default, true, true);
  return i18n.hasResourceBundle(language, 'common');
}

/**
 * Switches the language (the profile); one without a catalogue (or whose catalogue cannot load,
 * offline) falls back to English. A key a language lacks shows in English.
 */
export async function setLanguage(language: string): Promise<void> {
  const available = language !== 'en' && (await loadLanguage(language).catch(() => false));
  await i18n.changeLanguage(available ? language : 'en');
}
