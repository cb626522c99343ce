/** Incoterms 2020: any mode of transport. */
export const INCOTERMS_ANY_MODE = ['EXW', 'FCA', 'CPT', 'CIP', 'DAP', 'DPU', 'DDP'] as const;
/** Incoterms 2020: sea and inland waterway only. */
export const INCOTERMS_SEA_ONLY = ['FAS', 'FOB', 'CFR', 'CIF'] as const;
export const INCOTERMS_2020 = [...INCOTERMS_ANY_MODE, ...INCOTERMS_SEA_ONLY] as const;
export type Incoterm = (typeof INCOTERMS_2020)[number];
/** Terms of earlier editions that are no longer valid. */
export const INCOTERMS_RETIRED = ['DAF', 'DDU', 'DES', 'DEQ', 'DAT'] as const;

export function incotermProblem(term: string, mode?: string): string | undefined {
  if ((INCOTERMS_RETIRED as readonly string[]).includes(term)) {
    return `${term} is not an Incoterms 2020 rule (it was retired); use one of ${INCOTERMS_2020.join(', ')}`;
  }
  if (!(INCOTERMS_2020 as readonly string[]).includes(term)) return `${term} is not an Incoterms 2020 rule`;
  if ((INCOTERMS_SEA_ONLY as readonly string[]).includes(term) && mode && mode !== 'sea') {
    return `${term} is for sea and inland waterway transport only, not ${mode}`;
  }
  return undefined;
}
