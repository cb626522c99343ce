/**
 * The duty and import VAT estimate of a declaration (ADR 0031): per item, duty = customs value × duty
 * rate and VAT = (customs value + duty + costs to the first destination) × VAT rate, each rounded half
 * away from zero to 2 decimals; the declaration's figures are sums of the rounded item figures, as an
 * authority assesses per item. Pure and exact (BigInt decimals of money.ts), so the API's stored
 * estimate, the screen's live one and the SAD's box 47 show the same cents. No zod here (ADR 0023).
 */
import type { DeclarationType, MethodOfPayment, TaxType } from './declarations-values.ts';
import { isDecimal, multiplyDecimal, percentOfDecimal, sumDecimal, trimDecimal } from './money.ts';

export interface EstimateInput {
  /** EUR, SAD box 46's basis; the transaction value plus costs to the Union border. */
  customsValue: string | null;
  /** Percent ('6.5', '0'). */
  dutyRate: string | null;
  /** Percent ('21'). */
  vatRate: string | null;
  /** EUR, costs from the border to the first destination in the member state (VAT directive art. 86). */
  vatCosts: string | null;
}

export interface ItemEstimate {
  customsValue: string;
  /** Shortest form ('6.5', '0'). */
  dutyRate: string;
  duty: string;
  vatCosts: string;
  vatBase: string;
  vatRate: string;
  vat: string;
  /** duty + vat */
  total: string;
}

/** A decimal the estimate can use; null for missing (null, undefined, '' as a form leaves it) or not a plain decimal. */
function present(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value).trim();
  return s !== '' && isDecimal(s) ? s : null;
}

/**
 * The estimate of one item; null unless the customs value, duty rate and VAT rate are given (vatCosts
 * missing counts as 0.00). Amounts are taken at 2 decimals (the columns' scale), so the VAT base is the
 * exact sum of its parts; only the duty and the VAT are rounded.
 */
export function itemEstimate(item: EstimateInput): ItemEstimate | null {
  const value = present(item.customsValue);
  const dutyRate = present(item.dutyRate);
  const vatRate = present(item.vatRate);
  if (value === null || dutyRate === null || vatRate === null) return null;
  const customsValue = sumDecimal([value]);
  const vatCosts = sumDecimal([present(item.vatCosts) ?? '0']);
  const duty = percentOfDecimal(customsValue, dutyRate);
  const vatBase = sumDecimal([customsValue, duty, vatCosts]);
  const vat = percentOfDecimal(vatBase, vatRate);
  return {
    customsValue,
    dutyRate: trimDecimal(dutyRate),
    duty,
    vatCosts,
    vatBase,
    vatRate: trimDecimal(vatRate),
    vat,
    total: sumDecimal([duty, vat]),
  };
}

/** What the totals read of an item: the contract's item or the form's values ('' for empty). */
export interface TotalsItem extends Partial<EstimateInput> {
  packages?: number | string | null;
  grossMassKg?: string | null;
  netMassKg?: string | null;
  invoiceValue?: string | null;
  statisticalValue?: string | null;
}

export interface DeclarationTotals {
  packages: number;
  /** 3 decimals. */
  grossMassKg: string;
  netMassKg: string;
  /** Header currency, 2 decimals. */
  invoiceValue: string;
  /** EUR. */
  customsValue: string;
  statisticalValue: string;
  /**
   * Import, and transit (the duties and taxes at stake its guarantee covers), only when at least one item
   * has an estimate; sums of the items' rounded figures.
   */
  duty: string | null;
  vatBase: string | null;
  vat: string | null;
  dutyAndVat: string | null;
}

function sumOf(values: (string | number | null | undefined)[], scale: number): string {
  return sumDecimal(
    values.map(present).filter((v): v is string => v !== null),
    scale,
  );
}

/**
 * The declaration's totals: sums of the items. Duty, VAT base, VAT and their total are null unless the
 * type is import and at least one item has an estimate; items without one add nothing to them.
 */
export function declarationTotals(type: DeclarationType, items: readonly TotalsItem[]): DeclarationTotals {
  const packages = items.reduce((n, i) => {
    const p = present(i.packages);
    return p !== null && /^\d+$/.test(p) ? n + Number(p) : n;
  }, 0);
  // An export has no duties at stake; a transit's are what its guarantee covers (declaration-rules.ts).
  const estimates =
    type !== 'export'
      ? items
          .map((i) =>
            itemEstimate({
              customsValue: i.customsValue ?? null,
              dutyRate: i.dutyRate ?? null,
              vatRate: i.vatRate ?? null,
              // A transit's VAT at stake is on value and duty: costs to a first destination are an import's.
              vatCosts: type === 'transit' ? null : (i.vatCosts ?? null),
            }),
          )
          .filter((e): e is ItemEstimate => e !== null)
      : [];
  const duty = estimates.length ? sumDecimal(estimates.map((e) => e.duty)) : null;
  const vat = estimates.length ? sumDecimal(estimates.map((e) => e.vat)) : null;
  return {
    packages,
    grossMassKg: sumOf(
      items.map((i) => i.grossMassKg),
      3,
    ),
    netMassKg: sumOf(
      items.map((i) => i.netMassKg),
      3,
    ),
    invoiceValue: sumOf(
      items.map((i) => i.invoiceValue),
      2,
    ),
    customsValue: sumOf(
      items.map((i) => i.customsValue),
      2,
    ),
    statisticalValue: sumOf(
      items.map((i) => i.statisticalValue),
      2,
    ),
    duty,
    vatBase: estimates.length ? sumDecimal(estimates.map((e) => e.vatBase)) : null,
    vat,
    dutyAndVat: duty !== null && vat !== null ? sumDecimal([duty, vat]) : null,
  };
}

/**
 * The customs value (EUR) an invoice value suggests: invoice value × exchange rate (EUR per unit of
 * the invoice currency), rounded half away from zero to 2 decimals, plus the costs of transport and
 * insurance to the Union border (EUR). The screen's hint; the clerk confirms the figure.
 */
export function customsValueFromInvoice(
  invoiceValue: string,
  exchangeRate: string,
  costsToBorder: string,
): string {
  return sumDecimal([multiplyDecimal(invoiceValue, exchangeRate, 2), present(costsToBorder) ?? '0']);
}

/** One calculated tax line (SAD box 47, DE 4/3–4/8): type, base, rate, amount and how it is paid. */
export interface TaxLine {
  type: TaxType;
  base: string;
  rate: string;
  amount: string;
  methodOfPayment: MethodOfPayment | null;
}

/**
 * An item's estimate as the tax lines a declaration carries: A00 customs duty on the customs value, B00
 * import VAT on value + duty + costs to the first destination, each with the declaration's method of
 * payment. The same figures as `itemEstimate`, so the screen, the SAD and what is lodged agree.
 */
export function taxLines(estimate: ItemEstimate, methodOfPayment: MethodOfPayment | null): TaxLine[] {
  return [
    {
      type: 'A00',
      base: estimate.customsValue,
      rate: estimate.dutyRate,
      amount: estimate.duty,
      methodOfPayment,
    },
    { type: 'B00', base: estimate.vatBase, rate: estimate.vatRate, amount: estimate.vat, methodOfPayment },
  ];
}
