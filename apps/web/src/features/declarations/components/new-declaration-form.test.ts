import { describe, expect, it } from 'vitest';
import { newDeclarationInput } from './new-declaration-form.tsx';

const DOSSIER = '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d';
const CUSTOMER = 'c0000000-0000-4000-8000-000000000001';

describe('a new declaration as the API takes it', () => {
  it('names the dossier (which names the customer) when there is one', () => {
    expect(
      newDeclarationInput({ type: 'export', category: '', dossierId: DOSSIER, customerId: CUSTOMER }),
    ).toEqual({
      type: 'export',
      dossierId: DOSSIER,
    });
  });

  it('names the customer without a dossier, and the category only when one was chosen', () => {
    expect(
      newDeclarationInput({ type: 'transit', category: 'T2', dossierId: '', customerId: CUSTOMER }),
    ).toEqual({
      type: 'transit',
      category: 'T2',
      customerId: CUSTOMER,
    });
    expect(
      newDeclarationInput({ type: 'import', category: '', dossierId: '', customerId: CUSTOMER }),
    ).toEqual({
      type: 'import',
      customerId: CUSTOMER,
    });
  });
});
