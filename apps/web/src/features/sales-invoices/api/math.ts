/*
 * TEMPORARY: documentTotals and defaultVat as model.md fixes them, until fix/invoice-math lands
 * packages/contracts/src/invoice-math.ts and vat-rules.ts; then this file re-exports them.
 */
import {
  type DOSSIER_TYPES,
  multiplyDecimal,
  sumDecimal,
  type VatCode,
  type VatExemptionReason,
} from '@fvg/contracts';

type DossierType = (typeof DOSSIER_TYPES)[number];

export interface MathLine {
  quantity: string;
  unitPrice: string;
  vatCode: VatCode;
  vatRate: string | null;
}
export interface VatGroup {
  vatCode: VatCode;
  vatRate: string | null;
  taxableAmount: string;
  vatAmount: string;
  exemptionReason: VatExemptionReason | null;
}
export interface DocumentTotals {
  lineNets: string[];
  lineExtensionAmount: string;
  vatGroups: VatGroup[];
  taxExclusiveAmount: string;
  vatTotal: string;
  taxInclusiveAmount: string;
  payableAmount: string;
}

export const lineNet = (quantity: string, unitPrice: string) => multiplyDecimal(quantity, unitPrice, 2);

const ORDER: Record<VatCode, number> = { S: 0, Z: 1, E: 2, AE: 3, O: 4 };

export function documentTotals(
  lines: MathLine[],
  exemptionReasonOf: (code: VatCode) => VatExemptionReason | null = () => null,
): DocumentTotals {
  const lineNets = lines.map((l) => lineNet(l.quantity, l.unitPrice));
  const groups = new Map<string, { vatCode: VatCode; vatRate: string | null; nets: string[] }>();
  lines.forEach((l, i) => {
    const key = `${l.vatCode}/${l.vatRate === null ? '' : Number(l.vatRate)}`;
    const group = groups.get(key) ?? { vatCode: l.vatCode, vatRate: l.vatRate, nets: [] };
    group.nets.push(lineNets[i] as string);
    groups.set(key, group);
  });
  const vatGroups = [...groups.values()]
    .sort((a, b) => ORDER[a.vatCode] - ORDER[b.vatCode] || Number(b.vatRate ?? 0) - Number(a.vatRate ?? 0))
    .map((g) => {
      const taxableAmount = sumDecimal(g.nets);
      return {
        vatCode: g.vatCode,
        vatRate: g.vatRate,
        taxableAmount,
        vatAmount: multiplyDecimal(taxableAmount, multiplyDecimal(g.vatRate ?? '0', '0.01', 6), 2),
        exemptionReason: exemptionReasonOf(g.vatCode),
      };
    });
  const lineExtensionAmount = sumDecimal(lineNets);
  const vatTotal = sumDecimal(vatGroups.map((g) => g.vatAmount));
  const taxInclusiveAmount = sumDecimal([lineExtensionAmount, vatTotal]);
  return {
    lineNets,
    lineExtensionAmount,
    vatGroups,
    taxExclusiveAmount: lineExtensionAmount,
    vatTotal,
    taxInclusiveAmount,
    payableAmount: taxInclusiveAmount,
  };
}

export const toBaseCurrency = (amount: string, exchangeRate: string) =>
  multiplyDecimal(amount, exchangeRate, 2);

const EU: Record<string, string> = {
  AT: '20',
  BE: '21',
  BG: '20',
  CY: '19',
  CZ: '21',
  DE: '19',
  DK: '25',
  EE: '22',
  ES: '21',
  FI: '25.5',
  FR: '20',
  GR: '24',
  HR: '25',
  HU: '27',
  IE: '23',
  IT: '22',
  LT: '21',
  LU: '17',
  LV: '21',
  MT: '18',
  NL: '21',
  PL: '23',
  PT: '23',
  RO: '21',
  SE: '25',
  SI: '22',
  SK: '23',
};
export const isEuCountry = (code: string) => code.toUpperCase() in EU;

export function defaultVat(input: {
  dossierType: DossierType | null;
  sellerCountry: string;
  buyerCountry: string;
  buyerVatNumber: string | null;
}): { vatCode: VatCode; vatRate: string | null; exemptionReason: VatExemptionReason | null } {
  if (input.dossierType === 'export')
    return { vatCode: 'E', vatRate: '0', exemptionReason: 'VATEX-EU-146-1E' };
  if (input.dossierType === 'import') return { vatCode: 'E', vatRate: '0', exemptionReason: 'VATEX-EU-144' };
  const seller = input.sellerCountry.toUpperCase();
  const buyer = input.buyerCountry.toUpperCase();
  if (buyer !== seller && isEuCountry(buyer) && input.buyerVatNumber)
    return { vatCode: 'AE', vatRate: '0', exemptionReason: 'VATEX-EU-AE' };
  if (!isEuCountry(buyer)) return { vatCode: 'O', vatRate: null, exemptionReason: 'VATEX-EU-O' };
  return { vatCode: 'S', vatRate: EU[seller] ?? '21', exemptionReason: null };
}
