/** ISO 6346 letter values: A=10 upwards, skipping multiples of 11 (11, 22, 33). */
function letterValue(ch: string): number {
  let v = 10;
  for (let c = 65; c < ch.charCodeAt(0); c++) {
    v++;
    if (v % 11 === 0) v++;
  }
  return v;
}

const values: Record<string, number> = {};
for (let c = 65; c <= 90; c++) values[String.fromCharCode(c)] = letterValue(String.fromCharCode(c));
for (let d = 0; d <= 9; d++) values[String(d)] = d;

/** The value of each character in ISO 6346 check sums (A10 B12 … Z38, digits themselves); MRNs use the same table. */
export const ISO6346_VALUES: Readonly<Record<string, number>> = Object.freeze(values);

/** The ISO 6346 check character of `body` (weights 2^i from the left, mod 11, 10 → 0); also used by MRNs. */
export function iso6346CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const v = ISO6346_VALUES[body[i] as string];
    if (v === undefined) throw new Error(`invalid character "${body[i]}"`);
    sum += v * 2 ** i;
  }
  return (sum % 11) % 10;
}

export const CONTAINER_NUMBER_PATTERN = /^[A-Z]{3}[UJZ]\d{6}\d$/;

export type ContainerNumberProblem = 'format' | 'check-digit';

/** Why a container number is invalid, or undefined when it is valid. Expects upper case, no spaces. */
export function containerNumberProblem(value: string): ContainerNumberProblem | undefined {
  if (!CONTAINER_NUMBER_PATTERN.test(value)) return 'format';
  return iso6346CheckDigit(value.slice(0, 10)) === Number(value[10]) ? undefined : 'check-digit';
}

export function isValidContainerNumber(value: string): boolean {
  return containerNumberProblem(value) === undefined;
}

/** Upper case without spaces, dashes or dots: `msku 601167-2` → `MSKU6011672`. */
export function normalizeContainerNumber(value: string): string {
  return value.toUpperCase().replace(/[\s.-]/g, '');
}
