/**
 * The arithmetic of offers, invoices and credit notes, as EN 16931 checks it (ADR 0029): a line's
 * net is quantity × unit price rounded to 2 decimals; the VAT of each (category, rate) group is
 * computed once from the group's net, not summed from rounded line VATs; every total is a sum.
 * Pure and exact (BigInt decimals of money.ts, half away from zero), so the API, the screens' live
 * totals, the PDF and the UBL all show the same cents. No zod here (ADR 0023).
 */
import {
  compareDecimal,
  multiplyDecimal,
  percentOfDecimal,
  subtractDecimal,
  sumDecimal,
  trimDecimal,
} from './money.ts';
import type { VatCode, VatExemptionReason } from './sales-values.ts';

export interface MathLine {
  quantity: string;
  unitPrice: string;
  vatCode: VatCode;
  /** Percent ('21', '9', '0'); null for O. '21.00' and '21' are the same rate. */
  vatRate: string | null;
  /** When present, the group's exemption reason (BT-120/121) comes from its lines. */
  exemptionReason?: VatExemptionReason | null;
}

/** q × p, rounded half away from zero to 2 decimals (BT-131; Peppol R120 with a base quantity of 1). */
export function lineNet(quantity: string, unitPrice: string): string {
  return multiplyDecimal(quantity, unitPrice, 2);
}

export interface VatGroup {
  vatCode: VatCode;
  /** In its shortest form ('21', '5.5', '0'); null for O. */
  vatRate: string | null;
  taxableAmount: string;
  vatAmount: string;
  exemptionReason: VatExemptionReason | null;
}

export interface DocumentTotals {
  /** Per line, 2 decimals, in the lines' order. */
  lineNets: string[];
  /** BT-106 = Σ line nets (BR-CO-10). */
  lineExtensionAmount: string;
  /** One per (vatCode, vatRate), S by descending rate, then Z, E, AE, O. */
  vatGroups: VatGroup[];
  /** BT-109 = BT-106 (BR-CO-13; the product has no document-level allowances or charges). */
  taxExclusiveAmount: string;
  /** BT-110 = Σ group VAT (BR-CO-14). */
  vatTotal: string;
  /** BT-112 = BT-109 + BT-110 (BR-CO-15). */
  taxInclusiveAmount: string;
  /** BT-115 = BT-112 − paid (BR-CO-16 with prepaid BT-113 = 0: payments are recorded, not prepaid). */
  payableAmount: string;
}

const CODE_ORDER: Readonly<Record<VatCode, number>> = { S: 0, Z: 1, E: 2, AE: 3, K: 4, G: 5, O: 6 };

/** The only reason a code can have, where there is only one (VATEX-EU-AE, -IC, -G, -O). */
const SOLE_REASON: Readonly<Partial<Record<VatCode, VatExemptionReason>>> = {
  AE: 'VATEX-EU-AE',
  K: 'VATEX-EU-IC',
  G: 'VATEX-EU-G',
  O: 'VATEX-EU-O',
};

/** S and Z groups never carry a reason (BR-S-10, BR-Z-10); O carries no rate (BR-O-05). */
function groupRate(line: MathLine): string | null {
  if (line.vatCode === 'O' || line.vatRate === null) return line.vatCode === 'O' ? null : '0';
  return trimDecimal(line.vatRate);
}

/**
 * The totals of a document. `exemptionReasonOf` names each exempt group's reason; without it a
 * group takes the first reason its lines carry, else the code's only reason (AE, O), else none.
 */
export function documentTotals(
  lines: readonly MathLine[],
  exemptionReasonOf?: (code: VatCode) => VatExemptionReason | null,
  paidAmount = '0',
): DocumentTotals {
  const lineNets = lines.map((l) => lineNet(l.quantity, l.unitPrice));
  const groups = new Map<
    string,
    { line: MathLine; rate: string | null; nets: string[]; reason: VatExemptionReason | null }
  >();
  lines.forEach((line, i) => {
    const rate = groupRate(line);
    const key = `${line.vatCode}|${rate ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      group = { line, rate, nets: [], reason: null };
      groups.set(key, group);
    }
    group.nets.push(lineNets[i] as string);
    if (!group.reason && line.exemptionReason) group.reason = line.exemptionReason;
  });

  const vatGroups: VatGroup[] = [...groups.values()].map(({ line, rate, nets, reason }) => {
    const taxableAmount = sumDecimal(nets);
    const exempt = line.vatCode !== 'S' && line.vatCode !== 'Z';
    const exemptionReason = exempt
      ? ((exemptionReasonOf ? exemptionReasonOf(line.vatCode) : reason) ?? SOLE_REASON[line.vatCode] ?? null)
      : null;
    return {
      vatCode: line.vatCode,
      vatRate: rate,
      taxableAmount,
      // BR-CO-17: the group's VAT from its own net, rounded once.
      vatAmount: rate === null ? '0.00' : percentOfDecimal(taxableAmount, rate),
      exemptionReason,
    };
  });
  vatGroups.sort((a, b) => {
    const byCode = CODE_ORDER[a.vatCode] - CODE_ORDER[b.vatCode];
    if (byCode !== 0) return byCode;
    if (a.vatRate === null || b.vatRate === null)
      return a.vatRate === b.vatRate ? 0 : a.vatRate === null ? 1 : -1;
    return compareDecimal(b.vatRate, a.vatRate);
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
    payableAmount: subtractDecimal(taxInclusiveAmount, paidAmount),
  };
}

export interface CurrencyTotal {
  currency: string;
  net: string;
  /** VAT per rate group of this currency's lines; '0.00' for lines that carry no VAT code. */
  vat: string;
  gross: string;
}

/**
 * An offer's totals, one per currency in the order the currencies first appear (an offer may quote
 * freight in USD and handling in EUR; amounts of different currencies are never added up).
 */
export function totalsPerCurrency(
  lines: readonly {
    quantity: string;
    unitPrice: string;
    currency: string;
    vatCode?: VatCode;
    vatRate?: string | null;
  }[],
): CurrencyTotal[] {
  const byCurrency = new Map<string, MathLine[]>();
  for (const l of lines) {
    const currency = l.currency.trim().toUpperCase();
    const list = byCurrency.get(currency) ?? [];
    // A line without a VAT code counts at 0 % so `net` stays right for callers that only need it.
    list.push({
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      vatCode: l.vatCode ?? 'Z',
      vatRate: l.vatCode ? (l.vatRate ?? null) : '0',
    });
    byCurrency.set(currency, list);
  }
  return [...byCurrency].map(([currency, ls]) => {
    const t = documentTotals(ls);
    return { currency, net: t.lineExtensionAmount, vat: t.vatTotal, gross: t.taxInclusiveAmount };
  });
}

/** An amount in the base currency: amount × exchange rate (base per unit), 2 decimals (art. 230). */
export function toBaseCurrency(amount: string, exchangeRate: string): string {
  return multiplyDecimal(amount, exchangeRate, 2);
}
