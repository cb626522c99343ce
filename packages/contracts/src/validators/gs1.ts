/**
 * GS1 identifiers of logistic units (domain-standards.md "GS1 SSCC"): the Serial Shipping Container
 * Code, 18 digits = extension digit + GS1 company prefix + serial reference (17 together) + check
 * digit, printed after application identifier (00) in a GS1-128 barcode.
 */

/** The GS1 mod-10 check digit of `data` (digits only): weights 3,1,3,1… from the rightmost digit. */
export function gs1CheckDigit(data: string): string {
  let sum = 0;
  for (let i = 0; i < data.length; i++) {
    const digit = data.charCodeAt(data.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return String((10 - (sum % 10)) % 10);
}

/** A sentence saying what is wrong with an SSCC, or undefined when it is valid. */
export function ssccProblem(value: string): string | undefined {
  if (value === '') return 'Enter the SSCC';
  if (!/^\d+$/.test(value)) return 'An SSCC has digits only';
  if (value.length !== 18) return `An SSCC has 18 digits; this one has ${value.length}`;
  const expected = gs1CheckDigit(value.slice(0, 17));
  if (value[17] !== expected) return `The check digit should be ${expected}`;
  return undefined;
}

export function isValidSscc(value: string): boolean {
  return ssccProblem(value) === undefined;
}

/** What people type or scan: spaces, the (00) application identifier, a leading "00" of a scan of 20 digits. */
export function normalizeSscc(value: string): string {
  const digits = value.replace(/\(00\)/, '').replace(/[\s.-]/g, '');
  return digits.length === 20 && digits.startsWith('00') ? digits.slice(2) : digits;
}

/** A GS1 company prefix: 6 to 12 digits (GS1 General Specifications §1.4.3). */
export function gs1CompanyPrefixProblem(value: string): string | undefined {
  if (value === '') return 'Enter the GS1 company prefix';
  if (!/^\d+$/.test(value)) return 'A GS1 company prefix has digits only';
  if (value.length < 6 || value.length > 12)
    return 'A GS1 company prefix has 6 to 12 digits, as GS1 issued it';
  return undefined;
}

/** How many serials a company prefix leaves room for: the serial reference fills 16 − prefix digits. */
export function ssccSerialDigits(companyPrefix: string): number {
  return 16 - companyPrefix.length;
}

/**
 * The SSCC of `serial` (a non-negative integer below 10^(16 − prefix length)) under a company prefix:
 * extension digit, prefix, zero-padded serial reference, check digit.
 */
export function makeSscc(input: {
  extensionDigit: number;
  companyPrefix: string;
  serial: number | bigint;
}): string {
  const { extensionDigit, companyPrefix } = input;
  const prefixProblem = gs1CompanyPrefixProblem(companyPrefix);
  if (prefixProblem) throw new RangeError(prefixProblem);
  if (!Number.isInteger(extensionDigit) || extensionDigit < 0 || extensionDigit > 9)
    throw new RangeError('The extension digit is 0 to 9');
  const width = ssccSerialDigits(companyPrefix);
  const serial = BigInt(input.serial);
  if (serial < 0n || serial >= 10n ** BigInt(width))
    throw new RangeError(`Serial ${serial} does not fit the ${width} digits the company prefix leaves`);
  const data = `${extensionDigit}${companyPrefix}${serial.toString().padStart(width, '0')}`;
  return data + gs1CheckDigit(data);
}

/** The human-readable line under a GS1-128 SSCC barcode: `(00) 0 9528765 432101234 6`. */
export function formatSscc(sscc: string, companyPrefixLength?: number): string {
  if (sscc.length !== 18) return sscc;
  if (!companyPrefixLength) return `(00) ${sscc}`;
  const end = 1 + companyPrefixLength;
  return `(00) ${sscc[0]} ${sscc.slice(1, end)} ${sscc.slice(end, 17)} ${sscc[17]}`;
}
