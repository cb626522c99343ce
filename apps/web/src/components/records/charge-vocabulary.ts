import { SALES_CHARGE_CODE_LABELS, SALES_CHARGE_CODES, SALES_UNIT_LABELS, SALES_UNITS } from '@fvg/contracts';

/*
 * The one charge vocabulary (issue 27 item 4) as the line editors offer it: offer lines, a dossier's
 * charges and invoice lines pick from the same list by name, and say units the same way.
 */

/** In a line's narrow cell "Terminal handling (THC)" would be cut: the code's long name stays for the PDF. */
export const CHARGE_CODE_OPTIONS = SALES_CHARGE_CODES.map((c) => ({
  value: c,
  label: c === 'THC' ? 'Terminal handling' : SALES_CHARGE_CODE_LABELS[c],
}));

export const UNIT_OPTIONS = SALES_UNITS.map((u) => ({ value: u, label: SALES_UNIT_LABELS[u] }));
