import { COUNTRY_CODES } from '@fvg/contracts';

/*
 * Countries as people read them: the parties, the company settings and the declarations all pick or
 * show one.
 */

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return undefined;
  }
})();

/** 'NL' → 'Netherlands'; codes Intl does not know (XI) stay as they are. */
export function countryName(code: string): string {
  if (code === 'XI') return 'Northern Ireland';
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

export const COUNTRY_OPTIONS = [...COUNTRY_CODES]
  .sort()
  .map((code) => ({ value: code, label: `${code} — ${countryName(code)}` }));
