import { companyFieldsSchema } from '@fvg/contracts';
import { COMPANY_ID } from '../../features/company/company.service.ts';
import { audit, type DemoContext, valid } from './context.ts';

/** The demo forwarder's own data (also the seller of the print fixtures). */
export const DEMO_COMPANY_FIELDS = {
  legalName: 'FVG Forwarding B.V.',
  street: 'Waalhaven Zuidzijde 19',
  postalCode: '3089 JH',
  city: 'Rotterdam',
  countryCode: 'NL',
  vatNumber: 'NL859437218B01',
  eori: 'NL859437215',
  registrationNumber: '24481234',
  iban: 'NL91ABNA0417164300',
  bic: 'ABNANL2A',
  email: 'accounts@fvg-forwarding.example',
  peppolScheme: '0106',
  peppolId: '24481234',
  baseCurrency: 'EUR',
  paymentTermsDays: 30,
  invoiceFooter:
    'All services are rendered under the Dutch Forwarding Conditions (FENEX), latest version. Please pay within the agreed term quoting the invoice number.',
} as const;

/**
 * The forwarder's own data as an admin would have entered it in the first week (the row itself exists
 * from migration 0016 with safe defaults). The number series keep their defaults: no offer or invoice
 * of the demo has a number yet, and the areas that issue them bump `last_issued` as they do.
 */
export async function seedCompany(ctx: DemoContext) {
  const c = valid(companyFieldsSchema, { ...DEMO_COMPANY_FIELDS, series: [] }, 'company settings');
  const { series: _none, ...fields } = c;
  await ctx.db
    .updateTable('company_settings')
    .set({
      legal_name: fields.legalName,
      street: fields.street ?? null,
      postal_code: fields.postalCode ?? null,
      city: fields.city ?? null,
      country_code: fields.countryCode,
      vat_number: fields.vatNumber ?? null,
      eori: fields.eori ?? null,
      registration_number: fields.registrationNumber ?? null,
      iban: fields.iban ?? null,
      bic: fields.bic ?? null,
      email: fields.email ?? null,
      peppol_scheme: fields.peppolScheme ?? null,
      peppol_id: fields.peppolId ?? null,
      base_currency: fields.baseCurrency,
      payment_terms_days: fields.paymentTermsDays,
      invoice_footer: fields.invoiceFooter ?? null,
      version: 2,
      updated_by: ctx.users.admin,
    })
    .execute();
  audit(ctx, {
    kind: 'company',
    id: COMPANY_ID,
    action: 'updated',
    actorId: ctx.users.admin,
    changes: Object.entries(fields).map(([field, to]) => ({ field, from: null, to })),
    at: new Date(ctx.today.getTime() - 60 * 86_400_000),
  });
  return { legalName: fields.legalName };
}
