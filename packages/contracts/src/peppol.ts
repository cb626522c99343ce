/**
 * Peppol electronic addresses (BT-34 seller, BT-49 buyer) and whether a document can go out as a
 * Peppol BIS Billing 3.0 file (ADR 0043). Pure, no zod (ADR 0023): the API refuses the UBL with it, the
 * invoice screen warns with it before issuing and says why there is no e-invoice after.
 */
import type { IssueProblem } from './vat-rules.ts';

/**
 * The Electronic Address Scheme codes (EAS code list, Peppol BIS 3.0) a party's endpoint may use: the
 * registers and the national VAT schemes of Europe and the other Peppol countries.
 */
export const EAS_SCHEMES = [
  '0002',
  '0007',
  '0009',
  '0037',
  '0060',
  '0088',
  '0096',
  '0097',
  '0106',
  '0130',
  '0135',
  '0142',
  '0151',
  '0183',
  '0184',
  '0188',
  '0190',
  '0191',
  '0192',
  '0193',
  '0195',
  '0196',
  '0198',
  '0199',
  '0200',
  '0201',
  '0202',
  '0204',
  '0208',
  '0209',
  '0210',
  '0211',
  '0212',
  '0213',
  '0215',
  '0216',
  '0218',
  '0221',
  '0230',
  '9910',
  '9913',
  '9914',
  '9915',
  '9918',
  '9919',
  '9920',
  '9922',
  '9923',
  '9924',
  '9925',
  '9926',
  '9927',
  '9928',
  '9929',
  '9930',
  '9931',
  '9932',
  '9933',
  '9934',
  '9935',
  '9936',
  '9937',
  '9938',
  '9939',
  '9940',
  '9941',
  '9942',
  '9943',
  '9944',
  '9945',
  '9946',
  '9947',
  '9948',
  '9949',
  '9950',
  '9951',
  '9952',
  '9953',
  '9957',
  '9959',
] as const;
export type EasScheme = (typeof EAS_SCHEMES)[number];

export const isEasScheme = (v: string): v is EasScheme => (EAS_SCHEMES as readonly string[]).includes(v);

/** An endpoint id as Peppol takes it: letters, digits and . : _ - (no spaces), at most 50. */
export const PEPPOL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9.:_-]{0,49}$/;

/**
 * The EAS scheme of a country's VAT number as a Peppol electronic address (BT-34/BT-49). Countries
 * whose VAT number is no EAS scheme of its own (SE, DK, FI use their organisation numbers) are absent.
 */
export const VAT_ENDPOINT_SCHEMES: Readonly<Record<string, string>> = {
  AD: '9922',
  AL: '9923',
  AT: '9914',
  BA: '9924',
  BE: '9925',
  BG: '9926',
  CH: '9927',
  CY: '9928',
  CZ: '9929',
  DE: '9930',
  EE: '9931',
  ES: '9920',
  FR: '9957',
  GB: '9932',
  GR: '9933',
  EL: '9933',
  HR: '9934',
  HU: '9910',
  IE: '9935',
  IT: '0211',
  LI: '9936',
  LT: '9937',
  LU: '9938',
  LV: '9939',
  MC: '9940',
  ME: '9941',
  MK: '9942',
  MT: '9943',
  NL: '9944',
  PL: '9945',
  PT: '9946',
  RO: '9947',
  RS: '9948',
  SI: '9949',
  SK: '9950',
  SM: '9951',
  TR: '9952',
  VA: '9953',
};

export interface EndpointParty {
  vatNumber?: string | null;
  peppolScheme?: string | null;
  peppolId?: string | null;
}

/** The party's Peppol address: its own scheme/id, else its VAT number under its country's VAT scheme. */
export function endpointOf(party: EndpointParty): { scheme: string; id: string } | null {
  if (party.peppolScheme && party.peppolId) return { scheme: party.peppolScheme, id: party.peppolId };
  const vat = party.vatNumber?.replace(/\s+/g, '').toUpperCase();
  if (!vat) return null;
  const scheme = VAT_ENDPOINT_SCHEMES[vat.slice(0, 2)] ?? null;
  return scheme ? { scheme, id: vat } : null;
}

/**
 * Why a document cannot be offered as a Peppol BIS file although it is a valid invoice: an electronic
 * address is what Peppol needs to deliver it (PEPPOL-EN16931-R010 buyer, R020 seller), not what the law
 * needs (art. 226). Issuing is not refused for it; the screen warns and the UBL download says what to enter.
 */
export function eInvoiceProblems(doc: { seller: EndpointParty; buyer: EndpointParty }): IssueProblem[] {
  const problems: IssueProblem[] = [];
  if (!endpointOf(doc.seller))
    problems.push({
      field: 'seller.peppolId',
      message:
        'The company has no electronic address for Peppol: enter its Peppol scheme and endpoint id, or a VAT number, in the company settings',
      code: 'PEPPOL-EN16931-R020',
    });
  if (!endpointOf(doc.buyer))
    problems.push({
      field: 'buyer.peppolId',
      message:
        "The customer has no electronic address for Peppol: enter its Peppol scheme and endpoint id (or a VAT number of a country with a Peppol VAT scheme) on the customer's record",
      code: 'PEPPOL-EN16931-R010',
    });
  return problems;
}
