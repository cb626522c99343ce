import { t } from '../lib/i18n.ts';
import type { RouteName } from './route-table.ts';

/*
 * The words of the route table, from the catalogue (locales/<lang>/routes.json). Components that
 * must re-render when the language changes read the same keys through useT('routes'); these are for
 * code outside React (the tab title).
 */

/** The screen title of a route: heading and tab title. */
export function routeTitle(name: RouteName): string {
  return t(`routes:title.${name}`);
}
