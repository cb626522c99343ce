/**
 * Exact decimal arithmetic on strings through BigInt (no binary floating point anywhere money goes).
 * Rounding is half away from zero, as PostgreSQL's numeric round() does.
 */
function parse(d: string): { int: bigint; scale: number } {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(d.trim());
  if (!m) throw new Error(`not a decimal: "${d}"`);
  const frac = m[3] ?? '';
  const int = BigInt(`${m[2]}${frac}`) * (m[1] ? -1n : 1n);
  return { int, scale: frac.length };
}

function format(int: bigint, scale: number): string {
  const neg = int < 0n;
  const digits = (neg ? -int : int).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const frac = scale ? `.${digits.slice(digits.length - scale)}` : '';
  return `${neg && int !== 0n ? '-' : ''}${whole}${frac}`;
}

function rescale(int: bigint, from: number, to: number): bigint {
  if (to >= from) return int * 10n ** BigInt(to - from);
  const div = 10n ** BigInt(from - to);
  const q = int / div;
  const r = int % div;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= div) return int < 0n ? q - 1n : q + 1n;
  return q;
}

/** a × b, rounded half away from zero to `scale` decimals. */
export function multiplyDecimal(a: string, b: string, scale = 2): string {
  const x = parse(a);
  const y = parse(b);
  return format(rescale(x.int * y.int, x.scale + y.scale, scale), scale);
}

/** The sum of decimals, at `scale` decimals (each term rounded first). */
export function sumDecimal(values: string[], scale = 2): string {
  let total = 0n;
  for (const v of values) {
    const p = parse(v);
    total += rescale(p.int, p.scale, scale);
  }
  return format(total, scale);
}

export function subtractDecimal(a: string, b: string, scale = 2): string {
  const x = parse(a);
  const y = parse(b);
  return format(rescale(x.int, x.scale, scale) - rescale(y.int, y.scale, scale), scale);
}

/**
 * a ÷ b, rounded half away from zero to `scale` decimals; exact (BigInt), never through a float.
 * Throws on a zero divisor like on a malformed decimal: both are a caller's bug.
 */
export function divideDecimal(a: string, b: string, scale = 2): string {
  const x = parse(a);
  const y = parse(b);
  if (y.int === 0n) throw new Error('division by zero');
  // (x.int / 10^x.scale) / (y.int / 10^y.scale) × 10^scale, as one integer fraction.
  let num = x.int * 10n ** BigInt(y.scale + scale);
  let den = y.int * 10n ** BigInt(x.scale);
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const q = num / den;
  const r = num % den;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= den) return format(num < 0n ? q - 1n : q + 1n, scale);
  return format(q, scale);
}

/** `percent` % of `amount` (amount × percent ÷ 100), rounded half away from zero once, at the end. */
export function percentOfDecimal(amount: string, percent: string, scale = 2): string {
  const x = parse(amount);
  const y = parse(percent);
  return format(rescale(x.int * y.int, x.scale + y.scale + 2, scale), scale);
}

/** -1, 0 or 1 as a is below, equal to or above b, whatever their decimals ('21' equals '21.00'). */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  const l = rescale(x.int, x.scale, scale);
  const r = rescale(y.int, y.scale, scale);
  return l < r ? -1 : l > r ? 1 : 0;
}

/** Whether `value` is a plain decimal the helpers here accept ('12', '-0.5'; not '1e3', '', '1,5'). */
export function isDecimal(value: string): boolean {
  return /^-?\d+(?:\.\d+)?$/.test(value.trim());
}

/** The shortest form of a decimal: '21.00' → '21', '5.50' → '5.5', '-0.0' → '0'. */
export function trimDecimal(value: string): string {
  const p = parse(value);
  let { int, scale } = p;
  while (scale > 0 && int % 10n === 0n) {
    int /= 10n;
    scale -= 1;
  }
  return format(int, scale);
}

/**
 * The currencies whose amounts do not have 2 decimals (ISO 4217 "minor unit"); every other currency
 * has 2. The one table the web's money inputs, amount formatting and totals read.
 */
const MINOR_UNITS: Readonly<Record<string, number>> = Object.freeze({
  // No decimals.
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  // Three decimals (fils, baisa, millimes).
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  // Four (units of account).
  CLF: 4,
  UYW: 4,
});

/** The decimals an amount in `currency` has: JPY 0, EUR 2, BHD 3; 2 for a code not (yet) complete. */
export function minorUnitsOf(currency: string): number {
  return MINOR_UNITS[currency.trim().toUpperCase()] ?? 2;
}

/**
 * Why `amount` (a plain decimal string) has more decimals than `currency` has, or undefined when it
 * does not; trailing zeros do not count (`1200.00` yen is fine, `12.50` yen is not). The sentence the
 * money inputs show and the API answers.
 */
export function currencyDecimalsProblem(amount: string, currency: string): string | undefined {
  const m = /^-?\d+(?:\.(\d+))?$/.exec(amount.trim());
  if (!m) return undefined;
  const code = currency.trim().toUpperCase();
  const units = minorUnitsOf(code);
  const decimals = (m[1] ?? '').replace(/0+$/, '').length;
  if (decimals <= units) return undefined;
  const name = /^[A-Z]{3}$/.test(code) ? `${code} amounts` : 'Amounts';
  return units === 0 ? `${name} have no decimals` : `${name} have at most ${units} decimals`;
}
