import type { Db } from '../../db/database.ts';

/**
 * The company data an invoice needs to be issued (the demo company's): a database seeded with the
 * sign-ins only has the safe defaults, which issuing rightly refuses (no VAT number, no address).
 */
export async function completeCompany(db: Db): Promise<void> {
  await db
    .updateTable('company_settings')
    .set({
      legal_name: 'FVG Forwarding B.V.',
      street: 'Waalhaven Zuidzijde 19',
      postal_code: '3089 JH',
      city: 'Rotterdam',
      country_code: 'NL',
      vat_number: 'NL859437218B01',
      registration_number: '24481234',
      iban: 'NL91ABNA0417164300',
      bic: 'ABNANL2A',
      email: 'accounts@fvg-forwarding.example',
      peppol_scheme: '0106',
      peppol_id: '24481234',
      payment_terms_days: 30,
      invoice_footer: 'Please pay within the agreed term quoting the invoice number.',
    })
    .execute();
}

/** A line of a draft from scratch: domestic, 21 % unless told otherwise. */
export function line(over: Record<string, unknown> = {}) {
  return {
    chargeCode: 'FREIGHT',
    description: 'Ocean freight Rotterdam – Shanghai',
    quantity: '1',
    unit: 'LS',
    unitPrice: '1000',
    vatCode: 'S',
    vatRate: '21',
    ...over,
  };
}

/** The body of a draft from scratch for `customerId`. */
export function draftBody(customerId: string, over: Record<string, unknown> = {}) {
  return { customerId, currency: 'EUR', lines: [line()], ...over };
}
