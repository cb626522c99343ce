import {
  dcsaEventSchema,
  dossierCreateSchema,
  FIELD_ISSUE_CODES,
  partyCreateSchema,
  text,
  transportCreateSchema,
} from '@fvg/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldMessage, type IssueLike, labelFor, problemIssue } from './field-messages.ts';

/** The first issue of `schema` for `value`, as the form resolver sees it (with the input). */
function issueOf(schema: z.ZodType, value: unknown, path?: string): IssueLike {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) throw new Error('expected a problem');
  const issue = path ? result.error.issues.find((i) => i.path.join('.') === path) : result.error.issues[0];
  if (!issue) throw new Error(`no issue at ${path}`);
  return issue.code === 'custom' ? (issue as IssueLike) : ({ ...issue, input: issue.input } as IssueLike);
}

describe('field messages: zod issue codes', () => {
  it('too_small: negatives, minimum counts, missing text, lists', () => {
    expect(fieldMessage(issueOf(z.number().min(0), -1), 'Packages')).toBe('Packages cannot be negative');
    expect(fieldMessage(issueOf(z.number().positive(), 0), 'Weight')).toBe('Weight must be more than 0');
    expect(fieldMessage(issueOf(z.number().min(5), 2), 'Pallets')).toBe('Pallets must be at least 5');
    expect(fieldMessage(issueOf(z.string().min(3), 'ab'), 'Code')).toBe('Code needs at least 3 characters');
    expect(fieldMessage(issueOf(z.array(z.string()).min(1), []), 'Roles')).toBe('Roles: add at least one');
  });

  it('too_big: numbers, text and lists', () => {
    expect(fieldMessage(issueOf(z.number().max(100), 101), 'Packages')).toBe(
      'Packages cannot be more than 100',
    );
    expect(fieldMessage(issueOf(z.number().lt(1000), 1000), 'Weight')).toBe('Weight must be less than 1,000');
    expect(fieldMessage(issueOf(z.string().max(5), 'abcdef'), 'Voyage')).toBe(
      'Voyage can have at most 5 characters',
    );
    expect(fieldMessage(issueOf(z.array(z.string()).max(2), ['a', 'b', 'c']), 'Seals')).toBe(
      'Seals: at most 2',
    );
  });

  it('invalid_format: email, dates, regex without a message of its own', () => {
    expect(fieldMessage(issueOf(z.email(), 'nope'), 'Email')).toBe(
      'Enter an email address such as name@example.com',
    );
    expect(fieldMessage(issueOf(z.iso.datetime(), 'x'), 'Pickup from')).toBe(
      'Enter a date and time for pickup from',
    );
    expect(fieldMessage(issueOf(z.iso.date(), 'x'), 'ETD')).toBe('Enter a date for etd');
    expect(fieldMessage(issueOf(z.string().regex(/^\d+$/), 'x'), 'Phone')).toBe(
      'Phone is not in the expected format',
    );
  });

  it('invalid_type, invalid_value, not_multiple_of, unrecognized_keys', () => {
    expect(fieldMessage(issueOf(z.number(), 'x'), 'Packages')).toBe('Packages must be a number');
    expect(fieldMessage(issueOf(z.enum(['sea', 'air']), 'rail'), 'Mode')).toBe('Choose mode from the list');
    expect(fieldMessage(issueOf(z.number().multipleOf(5), 7), 'Pallets')).toBe(
      'Pallets must be a multiple of 5',
    );
    expect(fieldMessage(issueOf(z.strictObject({}), { colour: 'red' }), 'Colour')).toBe(
      'Colour is not a field of this form',
    );
  });

  it('a missing value reads "… is required" whatever check noticed it', () => {
    expect(fieldMessage(issueOf(z.string().min(1), ''), 'Name')).toBe('Name is required');
    expect(fieldMessage(issueOf(z.object({ a: z.string() }), {}), 'Customer')).toBe('Customer is required');
    expect(fieldMessage(issueOf(z.email(), '  '), 'Email')).toBe('Email is required');
    // The text() primitive's bare 'Required' names the field too.
    expect(fieldMessage(issueOf(text(200, { min: 1 }), ' '), 'Description')).toBe('Description is required');
    // …unless the contract words an empty value itself.
    expect(fieldMessage(issueOf(z.string().min(1, 'Name the integration'), ''), 'Name')).toBe(
      'Name the integration',
    );
  });

  it('keeps a message the contract wrote for people', () => {
    expect(fieldMessage(issueOf(z.string().regex(/^\d+$/, 'Use digits only'), 'x'), 'Phone')).toBe(
      'Use digits only',
    );
    const eta = issueOf(
      dossierCreateSchema,
      {
        type: 'import',
        mode: 'sea',
        customerId: '0b6f3c1e-3a52-4a8e-9d7e-2f1f6c1b9a01',
        etd: '2026-05-03',
        eta: '2026-05-01',
      },
      'eta',
    );
    expect(fieldMessage(eta, 'ETA')).toBe('ETA cannot be before ETD');
  });
});

describe('field messages: the contracts’ rules, by their stable code', () => {
  it('words the examples of the issue', () => {
    const vat = issueOf(
      partyCreateSchema,
      { code: 'AC', name: 'Acme', kinds: ['customer'], countryCode: 'PL', vatNumber: 'PL12' },
      'vatNumber',
    );
    expect(vat.message).toBe('not a valid PL VAT number format');
    expect(fieldMessage(vat, 'VAT number')).toBe('Enter a VAT number such as PL8567346215');

    const locode = issueOf(
      transportCreateSchema,
      { dossierId: 'D-1', mode: 'road', pickupLocode: 'XX1' },
      'pickupLocode',
    );
    expect(fieldMessage(locode, 'Pickup place')).toBe('Enter a UN/LOCODE such as NLRTM');

    const act = issueOf(
      dcsaEventSchema,
      {
        eventID: '0b6f3c1e-3a52-4a8e-9d7e-2f1f6c1b9a01',
        eventType: 'EQUIPMENT',
        eventClassifierCode: 'ACT',
        eventDateTime: '2026-03-08T10:00:00+01:00',
        eventCreatedDateTime: '2026-03-05T12:00:00Z',
        equipmentEventTypeCode: 'GTIN',
        equipmentReference: 'MSKU6011672',
        emptyIndicatorCode: 'LADEN',
        transportCall: { modeOfTransport: 'TRUCK', UNLocationCode: 'NLRTM' },
      },
      'eventDateTime',
    );
    expect(act.message).toContain(
      'eventDateTime of an actual (ACT) event cannot lie after eventCreatedDateTime',
    );
    expect(fieldMessage(act, 'Date and time')).toMatch(
      /^The actual time cannot be later than when the event was recorded/,
    );
  });

  it('has a sentence for every code the contracts define, none of them API-speak', () => {
    for (const code of FIELD_ISSUE_CODES) {
      const text = fieldMessage({ code: 'custom', message: 'technical', params: { code } }, 'Field');
      expect(text, code).not.toBe('technical');
      expect(text, code).not.toMatch(/is not valid$|[a-z][A-Z]|ACT|ISO/);
    }
  });

  it('words the company settings rules: IBAN by what is wrong, a series number by the last issued', () => {
    const rule = (code: string, params: Record<string, unknown>) =>
      fieldMessage({ code: 'custom', message: 'technical', params: { code, ...params } }, 'Field');
    expect(rule('iban', { problem: 'check-digits' })).toBe(
      'This IBAN has a typo: its check digits do not match',
    );
    expect(rule('iban', { problem: 'length', length: 18 })).toBe('This IBAN should have 18 characters');
    expect(rule('series_below_issued', { lastIssued: 120, year: 2026 })).toBe(
      'Number 120 is already issued in 2026; choose 121 or higher',
    );
  });

  it('falls back to a sentence with the label for a code it does not know', () => {
    expect(
      fieldMessage({ code: 'custom', message: 'x must be y', params: { code: 'hs_code' } }, 'Tariff code'),
    ).toBe('Tariff code is not valid');
    expect(fieldMessage({ code: 'some_future_code', message: 'Weird', input: 'x' }, 'Notes')).toBe('Weird');
  });
});

describe('field messages: the API’s problem errors[]', () => {
  it('words an entry with a code, keeps the server’s own sentence otherwise', () => {
    const vat = problemIssue({
      message: 'not a valid PL VAT number format',
      code: 'vat_number',
      params: { country: 'PL', example: 'PL1234567890' },
    });
    expect(fieldMessage(vat, 'VAT number')).toBe('Enter a VAT number such as PL1234567890');
    expect(fieldMessage(problemIssue({ message: 'This email is already in use' }), 'Email')).toBe(
      'This email is already in use',
    );
    expect(fieldMessage(problemIssue({ message: 'Something new', code: 'brand_new' }), 'Notes')).toBe(
      'Notes is not valid',
    );
  });
});

describe('labelFor', () => {
  it('takes the form’s label, list entries included, then shared names, then words', () => {
    const labels = { packages: 'Packages', 'containers.number': 'Container number' };
    expect(labelFor('packages', labels)).toBe('Packages');
    expect(labelFor('containers.2.number', labels)).toBe('Container number');
    expect(labelFor('transportCall.UNLocationCode')).toBe('UN/LOCODE');
    expect(labelFor('grossWeightKg')).toBe('Gross weight kg');
  });
});
