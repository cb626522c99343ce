/**
 * Goods under the carbon border adjustment mechanism (Regulation (EU) 2023/956, Annex I) by CN code,
 * and the document codes an import of them cites (TARIC, DE 2/3 additional references): from 2026 only
 * an authorised CBAM declarant imports them (art. 25), unless the importer's CBAM goods stay within 50
 * tonnes a year (art. 2a, de minimis; not for electricity and hydrogen).
 */

export type CbamCategory = 'cement' | 'electricity' | 'fertilisers' | 'iron-steel' | 'aluminium' | 'hydrogen';

export const CBAM_CATEGORY_LABELS: Readonly<Record<CbamCategory, string>> = {
  cement: 'cement',
  electricity: 'electricity',
  fertilisers: 'fertilisers',
  'iron-steel': 'iron and steel',
  aluminium: 'aluminium',
  hydrogen: 'hydrogen',
};

/** Annex I by CN prefix (the longest listed prefix of a code decides). */
const ANNEX_I: readonly [string, CbamCategory][] = [
  ['25070080', 'cement'],
  ['252310', 'cement'],
  ['252321', 'cement'],
  ['252329', 'cement'],
  ['252330', 'cement'],
  ['252390', 'cement'],
  ['27160000', 'electricity'],
  ['28080000', 'fertilisers'],
  ['2814', 'fertilisers'],
  ['28342100', 'fertilisers'],
  ['3102', 'fertilisers'],
  ['3105', 'fertilisers'],
  ['28041000', 'hydrogen'],
  ['26011200', 'iron-steel'],
  ['7201', 'iron-steel'],
  ['720211', 'iron-steel'],
  ['720219', 'iron-steel'],
  ['720241', 'iron-steel'],
  ['720249', 'iron-steel'],
  ['720260', 'iron-steel'],
  ['7203', 'iron-steel'],
  ['7205', 'iron-steel'],
  ['7206', 'iron-steel'],
  ['7207', 'iron-steel'],
  ['7208', 'iron-steel'],
  ['7209', 'iron-steel'],
  ['7210', 'iron-steel'],
  ['7211', 'iron-steel'],
  ['7212', 'iron-steel'],
  ['7213', 'iron-steel'],
  ['7214', 'iron-steel'],
  ['7215', 'iron-steel'],
  ['7216', 'iron-steel'],
  ['7217', 'iron-steel'],
  ['7218', 'iron-steel'],
  ['7219', 'iron-steel'],
  ['7220', 'iron-steel'],
  ['7221', 'iron-steel'],
  ['7222', 'iron-steel'],
  ['7223', 'iron-steel'],
  ['7224', 'iron-steel'],
  ['7225', 'iron-steel'],
  ['7226', 'iron-steel'],
  ['7227', 'iron-steel'],
  ['7228', 'iron-steel'],
  ['7229', 'iron-steel'],
  ['7301', 'iron-steel'],
  ['7302', 'iron-steel'],
  ['730300', 'iron-steel'],
  ['7304', 'iron-steel'],
  ['7305', 'iron-steel'],
  ['7306', 'iron-steel'],
  ['7307', 'iron-steel'],
  ['7308', 'iron-steel'],
  ['730900', 'iron-steel'],
  ['7310', 'iron-steel'],
  ['731100', 'iron-steel'],
  ['7318', 'iron-steel'],
  ['7326', 'iron-steel'],
  ['7601', 'aluminium'],
  ['7603', 'aluminium'],
  ['7604', 'aluminium'],
  ['7605', 'aluminium'],
  ['7606', 'aluminium'],
  ['7607', 'aluminium'],
  ['7608', 'aluminium'],
  ['76090000', 'aluminium'],
  ['7610', 'aluminium'],
  ['76110000', 'aluminium'],
  ['7612', 'aluminium'],
  ['76130000', 'aluminium'],
  ['7614', 'aluminium'],
  ['7616', 'aluminium'],
];

/** 3105 60 00 (fertilisers with phosphorus and potassium only) is the one Annex I leaves out of 3105. */
const EXCLUDED = ['31056000'];

/** The CN prefixes of Annex I (for a database filter: `commodity_code like prefix%`). */
export const CBAM_PREFIXES: readonly string[] = ANNEX_I.map(([prefix]) => prefix);

/** The CBAM category of a CN code (8 or 10 digits), or null for goods outside Annex I. */
export function cbamCategoryOf(commodityCode: string | null | undefined): CbamCategory | null {
  const code = (commodityCode ?? '').replace(/[\s.]/g, '');
  if (!/^\d{6,10}$/.test(code) || EXCLUDED.some((x) => code.startsWith(x))) return null;
  let found: [string, CbamCategory] | null = null;
  for (const entry of ANNEX_I)
    if (code.startsWith(entry[0]) && (!found || entry[0].length > found[0].length)) found = entry;
  return found ? found[1] : null;
}

/** Electricity and hydrogen have no de minimis threshold (art. 2a). */
export const cbamWithoutDeMinimis = (category: CbamCategory) =>
  category === 'electricity' || category === 'hydrogen';

/**
 * The requested procedures that release goods for free circulation (40, 42, 43, 44, 61, 63): CBAM's
 * "importation" (Regulation (EU) 2023/956, art. 3(12)). Entry into customs warehousing (71) is not; the
 * goods count when they leave the warehouse into free circulation.
 */
export const CBAM_RELEASE_PROCEDURES = ['40', '42', '43', '44', '61', '63'] as const;
export const isCbamImportation = (procedureCode: string | null | undefined) =>
  (CBAM_RELEASE_PROCEDURES as readonly string[]).includes((procedureCode ?? '').trim().slice(0, 2));

/** The yearly net mass per importer under which CBAM goods may enter without authorisation (art. 2a). */
export const CBAM_THRESHOLD_KG = '50000';

/** The TARIC document codes an import of CBAM goods cites (supporting documents, DE 2/3). */
export const CBAM_DOCUMENT_TYPES = ['Y128', 'Y137', 'Y237', 'Y134'] as const;
export type CbamDocumentType = (typeof CBAM_DOCUMENT_TYPES)[number];
