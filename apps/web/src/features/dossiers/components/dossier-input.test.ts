import { dossierCreateSchema } from '@fvg/contracts';
import { describe, expect, it } from 'vitest';
import { dossierInput, emptyDossierValues } from './dossier-form-values.ts';

describe('dossier form input', () => {
  const values = (packages: string) => ({
    ...emptyDossierValues(),
    type: 'export',
    mode: 'road',
    customerId: '0b7f3c1e-8a5a-4b3e-9c1d-2f3a4b5c6d7e',
    packages,
  });

  it('sends packages as a JSON number, empty as null', () => {
    expect(dossierCreateSchema.parse(dossierInput(values('12'))).packages).toBe(12);
    expect(dossierCreateSchema.parse(dossierInput(values(' '))).packages).toBeNull();
  });

  it('leaves anything but digits for the contract to refuse on the field', () => {
    for (const typed of ['0x10', '1e3', '-1', '12.5']) {
      const parsed = dossierCreateSchema.safeParse(dossierInput(values(typed)));
      expect(
        parsed.error?.issues.map((i) => i.path.join('.')),
        typed,
      ).toEqual(['packages']);
    }
  });
});
