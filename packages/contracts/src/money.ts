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
