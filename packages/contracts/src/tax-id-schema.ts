import { z } from 'zod';
import { issueParams } from './problem.ts';
import { normalizeTaxId, vatNumberExample } from './validators/tax-ids.ts';

/**
 * An optional VAT number or EORI as parties and the company settings take it: normalised, '' as
 * null, and a refusal that carries its rule code with the country and an example (field-messages).
 */
export const taxIdSchema = (check: (v: string) => string | undefined, code: 'vat_number' | 'eori') =>
  z
    .string()
    .transform(normalizeTaxId)
    .transform((s) => (s === '' ? null : s))
    .nullish()
    .superRefine((v, ctx) => {
      const problem = v ? check(v) : undefined;
      if (problem && v) {
        const country = v.slice(0, 2);
        const example = code === 'vat_number' ? vatNumberExample(country) : `${country}123456789`;
        // Well-formed but mistyped: the screen says so rather than asking for the format again.
        const checkDigits = /check digits/.test(problem);
        ctx.addIssue({
          code: 'custom',
          message: problem,
          params: issueParams(code, { country, example, ...(checkDigits ? { reason: 'check_digits' } : {}) }),
        });
      }
    });
