import { compareDecimal, isDecimal, multiplyDecimal, subtractDecimal, sumDecimal } from './money.ts';

/**
 * The customs value built from the invoice (UCC art. 70–72; issue 26 item 2): each item's price at the
 * declaration's exchange rate (EUR per unit of the invoice currency, DE 4/15), plus its share of the
 * additions the price does not hold (transport and insurance to the place of entry into the Union,
 * commissions, packing: art. 71), minus its share of what the price holds but the value must not
 * (transport after entry, import duties: art. 72), the consignment's amounts apportioned to the items by
 * their value or by their net mass. Pure decimal arithmetic on strings, to the cent: the shares of an
 * amount always sum to it exactly.
 */

export const APPORTIONMENTS = ['value', 'mass'] as const;
export type Apportionment = (typeof APPORTIONMENTS)[number];

/** The consignment's additions and deductions, in EUR (DE 4/9), each null or '' when none. */
export interface ValuationAdjustments {
  additionTransportInsurance?: string | null;
  additionCommissions?: string | null;
  additionPacking?: string | null;
  deductionTransportAfterEntry?: string | null;
  deductionDuties?: string | null;
}

export const ADDITION_FIELDS = [
  'additionTransportInsurance',
  'additionCommissions',
  'additionPacking',
] as const;
export const DEDUCTION_FIELDS = ['deductionTransportAfterEntry', 'deductionDuties'] as const;

/** An amount of 0 or more; anything else (empty, still being typed, negative) counts as missing. */
const amountOf = (v: string | null | undefined): string | null => {
  const t = v?.trim() ?? '';
  return t !== '' && isDecimal(t) && compareDecimal(t, '0') >= 0 ? t : null;
};

/** Whether any addition or deduction is entered: only then is a build-up asked for. */
export function hasAdjustments(a: ValuationAdjustments): boolean {
  return [...ADDITION_FIELDS, ...DEDUCTION_FIELDS].some((f) => {
    const v = amountOf(a[f]);
    return v !== null && compareDecimal(v, '0') !== 0;
  });
}

/** `'12.5'` at `scale` decimals → 1250n (for scale 2); the value must be a decimal string. */
function units(value: string, scale: number): bigint {
  const negative = value.startsWith('-');
  const [whole = '0', frac = ''] = value.replace(/^[-+]/, '').split('.');
  const n = BigInt(whole + frac.padEnd(scale, '0').slice(0, scale));
  return negative ? -n : n;
}

function cents(n: bigint): string {
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const s = abs.toString().padStart(3, '0');
  return `${negative ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
}

/**
 * Splits `total` (EUR) over the items in proportion to `weights` (decimal strings, 0 or more), to the
 * cent, so the shares sum to `total` exactly: each share rounded down, then the cents left over go to
 * the largest remainders (the first item first on a tie). Null when the weights sum to nothing.
 */
export function apportion(total: string, weights: readonly string[]): string[] | null {
  const scale = Math.max(0, ...weights.map((w) => (w.split('.')[1] ?? '').length));
  const w = weights.map((x) => units(x, scale));
  const sum = w.reduce((a, b) => a + b, 0n);
  if (sum <= 0n || w.some((x) => x < 0n)) return null;
  const t = units(total, 2);
  const negative = t < 0n;
  const abs = negative ? -t : t;
  const base = w.map((x) => (abs * x) / sum);
  const rest = w.map((x, i) => ({ i, r: (abs * x) % sum }));
  let left = abs - base.reduce((a, b) => a + b, 0n);
  rest.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of rest) {
    if (left <= 0n) break;
    base[i] = (base[i] as bigint) + 1n;
    left -= 1n;
  }
  return base.map((x) => cents(negative ? -x : x));
}

export interface BuildUpItem {
  /** In the invoice currency (DE 4/14). */
  invoiceValue?: string | null;
  netMassKg?: string | null;
}

/** One item's customs value, step by step (what the screen and the SAD show). */
export interface BuildUpLine {
  price: string;
  rate: string;
  /** price × rate, to the cent. */
  priceEur: string;
  additions: string;
  deductions: string;
  /** priceEur + additions − deductions. */
  customsValue: string;
}

/**
 * Every item's customs value built from its price (null when an item lacks its price, the rate is
 * unknown, or the chosen key has nothing to apportion by: a mass missing, all values nil).
 */
export function customsValueBuildUp(
  items: readonly BuildUpItem[],
  exchangeRate: string | null,
  adjustments: ValuationAdjustments,
  by: Apportionment,
): BuildUpLine[] | null {
  const rate = amountOf(exchangeRate);
  if (!rate || compareDecimal(rate, '0') <= 0 || items.length === 0) return null;
  const prices = items.map((i) => amountOf(i.invoiceValue));
  if (prices.some((p) => p === null)) return null;
  const priceEur = (prices as string[]).map((p) => multiplyDecimal(p, rate, 2));
  const weights = by === 'value' ? priceEur : items.map((i) => amountOf(i.netMassKg));
  if (weights.some((w) => w === null)) return null;
  const split = (fields: readonly (keyof ValuationAdjustments)[]) => {
    const total = sumDecimal(fields.map((f) => amountOf(adjustments[f]) ?? '0'));
    return compareDecimal(total, '0') === 0 ? items.map(() => '0.00') : apportion(total, weights as string[]);
  };
  const additions = split(ADDITION_FIELDS);
  const deductions = split(DEDUCTION_FIELDS);
  if (!additions || !deductions) return null;
  return items.map((_, i) => {
    const eur = priceEur[i] as string;
    const add = additions[i] as string;
    const ded = deductions[i] as string;
    return {
      price: prices[i] as string,
      rate,
      priceEur: eur,
      additions: add,
      deductions: ded,
      customsValue: subtractDecimal(sumDecimal([eur, add]), ded),
    };
  });
}
