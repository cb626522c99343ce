import { z } from 'zod';

/*
 * One place that words validation problems for people: zod issues of the contracts (client side)
 * and the API's problem `errors[]` (server side) become plain sentences naming the field by its
 * label ("Packages cannot be negative", "Enter a UN/LOCODE such as NLRTM"). Mapped by code, never
 * by parsing English: zod's issue codes with their limits, and the contracts' own rules by their
 * stable `params.code` (FIELD_ISSUE_CODES in packages/contracts). A message the contract wrote for
 * people (a custom issue without a code, a server sentence such as "This email is already in use")
 * is kept as it is.
 */

/** The parts of a zod issue or a problem `errors[]` entry this mapping reads. */
export interface IssueLike {
  code?: string | undefined;
  message: string;
  /** The value that failed (zod with `reportInput`); absent or empty reads as missing. */
  input?: unknown;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  format?: string;
  expected?: string;
  divisor?: number | bigint;
  /** A contract rule's code and details (zod custom issues), or the API's `errors[].params`. */
  params?: Record<string, unknown> | undefined;
}

/** `body.email` and `/email` are reported by some validators; the form knows the field as `email`. */
export function normalizeFieldPath(field: string): string {
  return field
    .replace(/^\/+/, '')
    .replace(/\//g, '.')
    .replace(/^(body|query|params)\./, '');
}

/** Names for the fields a form does not label itself (shared DCSA and API names). */
const COMMON_LABELS: Record<string, string> = {
  UNLocationCode: 'UN/LOCODE',
  vesselIMONumber: 'IMO number',
  vesselImo: 'IMO number',
  vatNumber: 'VAT number',
  eori: 'EORI number',
  countryCode: 'Country',
  equipmentReference: 'Container number',
  eventDateTime: 'Date and time',
  email: 'Email',
  password: 'Password',
};

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** 'grossWeightKg' → 'Gross weight kg' (the last resort for a field nobody labelled). */
function humanize(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return capital(words || 'This field');
}

/**
 * The label of a field path: the form's own label map first (full path, then without list
 * indices: `containers.0.number` → `containers.number`), then the shared names, then the last part
 * in words.
 */
export function labelFor(path: string, labels: Readonly<Record<string, string>> = {}): string {
  const general = path.replace(/\.\d+(?=\.|$)/g, '');
  const last = general.split('.').pop() ?? path;
  return labels[path] ?? labels[general] ?? labels[last] ?? COMMON_LABELS[last] ?? humanize(last);
}

const num = (v: number | bigint | undefined) => (v === undefined ? '' : Number(v).toLocaleString('en-US'));

/** Sentences for the contracts' rule codes (FIELD_ISSUE_CODES). */
const RULES: Record<string, (label: string, params: Record<string, unknown>) => string> = {
  unlocode: () => 'Enter a UN/LOCODE such as NLRTM',
  vat_number: (_l, p) =>
    p.reason === 'check_digits'
      ? `The check digits of this VAT number do not match: check it for a typo (a valid one looks like ${String(p.example)})`
      : `Enter a VAT number such as ${String(p.example ?? 'NL004495445B01')}`,
  eori: (_l, p) => `Enter an EORI number such as ${String(p.example ?? 'NL123456789')}`,
  country_code: () => 'Enter a two-letter country code such as NL',
  container_number: () => 'Enter a container number such as MSKU6011672 (4 letters, 7 digits)',
  container_check_digit: (_l, p) =>
    p.expected === undefined
      ? 'This container number has a typo: its last digit does not match'
      : `This container number has a typo: its last digit should be ${String(p.expected)}`,
  imo_number: () => 'Enter an IMO number such as 9321483 (7 digits)',
  iban: (_l, p) =>
    p.problem === 'check-digits'
      ? 'This IBAN has a typo: its check digits do not match'
      : p.problem === 'length' && p.length
        ? `This IBAN should have ${String(p.length)} characters`
        : 'Enter an IBAN such as NL91 ABNA 0417 1643 00',
  bic: () => 'Enter a BIC of 8 or 11 characters such as ABNANL2A',
  peppol_id: () => 'Use letters, digits, dots, colons, dashes or underscores only',
  peppol_endpoint: (label) =>
    label === 'Peppol scheme'
      ? 'Choose the scheme of this endpoint id'
      : 'Enter the endpoint id for this scheme',
  series_prefix: () => 'Use up to 12 letters, digits, - / or . starting with a letter or digit',
  series_below_issued: (_l, p) =>
    typeof p.lastIssued === 'number'
      ? `Number ${p.lastIssued} is already issued${p.year ? ` in ${String(p.year)}` : ''}; choose ${p.lastIssued + 1} or higher`
      : 'This number is already issued; choose a higher one',
  act_after_recorded: () =>
    'The actual time cannot be later than when the event was recorded; choose Estimated or Planned for a future time',
};

const isMissing = (input: unknown) =>
  input === undefined || input === null || (typeof input === 'string' && input.trim() === '');

const english = z.locales.en().localeError;

/** Whether `issue.message` is zod's own wording (to be replaced) rather than the contract's. */
function isZodDefault(issue: IssueLike): boolean {
  const made = english(issue as never);
  const text = typeof made === 'string' ? made : made?.message;
  return text === issue.message || /^(Invalid|Too (small|big):|Expected )/.test(issue.message);
}

function tooSmall(issue: IssueLike, label: string): string {
  const min = issue.minimum;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'number':
    case 'int':
    case 'bigint':
      if (Number(min) === 0)
        return inclusive ? `${label} cannot be negative` : `${label} must be more than 0`;
      return inclusive ? `${label} must be at least ${num(min)}` : `${label} must be more than ${num(min)}`;
    case 'string':
      return Number(min) <= 1 ? `${label} is required` : `${label} needs at least ${num(min)} characters`;
    case 'array':
    case 'set':
      return Number(min) <= 1 ? `${label}: add at least one` : `${label}: add at least ${num(min)}`;
    case 'date':
      return `${label} is too early`;
    default:
      return `${label} is too small`;
  }
}

function tooBig(issue: IssueLike, label: string): string {
  const max = issue.maximum;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'number':
    case 'int':
    case 'bigint':
      return inclusive
        ? `${label} cannot be more than ${num(max)}`
        : `${label} must be less than ${num(max)}`;
    case 'string':
      return `${label} can have at most ${num(max)} characters`;
    case 'array':
    case 'set':
      return `${label}: at most ${num(max)}`;
    case 'date':
      return `${label} is too late`;
    default:
      return `${label} is too big`;
  }
}

function badFormat(issue: IssueLike, label: string): string {
  switch (issue.format) {
    case 'email':
      return 'Enter an email address such as name@example.com';
    case 'datetime':
      return `Enter a date and time for ${label.toLowerCase()}`;
    case 'date':
      return `Enter a date for ${label.toLowerCase()}`;
    case 'url':
      return 'Enter a web address such as https://example.com';
    case 'uuid':
    case 'guid':
      return `Choose ${label.toLowerCase()} from the list`;
    default:
      return `${label} is not in the expected format`;
  }
}

/**
 * The sentence for one problem of a field labelled `label`. `issue` is a zod issue (with its
 * `input`) or a problem `errors[]` entry (`message`, optional `code` and `params`).
 */
export function fieldMessage(issue: IssueLike, label: string): string {
  const ruleCode = typeof issue.params?.code === 'string' ? issue.params.code : undefined;
  if (ruleCode) {
    const rule = RULES[ruleCode];
    // A rule this version does not know (a newer API): name the field, plainly.
    return rule ? rule(label, issue.params ?? {}) : `${label} is not valid`;
  }
  if (issue.code === 'custom' || !issue.code) return issue.message;
  if ('input' in issue && isMissing(issue.input)) {
    // The contract's own words for an empty value ('Name the integration, e.g. …') stay; any other
    // check that meets a missing value (a type, a format) reads the same plain sentence.
    // A bare 'Required' (the text() primitive's) says less than the field's own name does.
    if (issue.code === 'too_small' && !isZodDefault(issue) && issue.message !== 'Required')
      return issue.message;
    return `${label} is required`;
  }
  if (!isZodDefault(issue)) return issue.message;
  switch (issue.code) {
    case 'too_small':
      return tooSmall(issue, label);
    case 'too_big':
      return tooBig(issue, label);
    case 'invalid_format':
      return badFormat(issue, label);
    case 'invalid_type':
      return issue.expected === 'number' || issue.expected === 'int'
        ? `${label} must be a number`
        : `${label} is not valid`;
    case 'invalid_value':
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
      return `Choose ${label.toLowerCase()} from the list`;
    case 'not_multiple_of':
      return `${label} must be a multiple of ${num(issue.divisor)}`;
    case 'unrecognized_keys':
      return `${label} is not a field of this form`;
    default:
      return `${label} is not valid`;
  }
}

/** A problem `errors[]` entry as an issue: its code (a contract rule's) goes where zod keeps it. */
export function problemIssue(entry: {
  message: string;
  code?: string | undefined;
  params?: Record<string, unknown> | undefined;
}): IssueLike {
  return entry.code
    ? { message: entry.message, params: { ...entry.params, code: entry.code } }
    : { message: entry.message };
}
