import { addMonths, companyFieldsSchema, divideDecimal } from '@fvg/contracts';
import { COMPANY_ID } from '../../features/company/company.service.ts';
import { customsMonthOf } from '../../features/company/customs-rates.ts';
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
  const rates = await seedCustomsRates(ctx);
  return { legalName: fields.legalName, customsRates: rates };
}

/**
 * Units of each currency per euro around which the demo's monthly customs rates move (late-2026
 * levels): the Commission publishes them so, and the table keeps their inverse, EUR per unit.
 */
const UNITS_PER_EUR = { USD: '1.0812', CNY: '7.8120', GBP: '0.8460', JPY: '162.85', CHF: '0.9380' } as const;
export type DemoRateCurrency = keyof typeof UNITS_PER_EUR;

/**
 * The demo's customs rate of a currency in a month (EUR per unit, 6 decimals): the published units per
 * euro moved by a small step that repeats every 11 months, inverted. Deterministic, so the demo's
 * declarations are converted at exactly the rate the table holds for the month they were lodged in.
 */
export function demoCustomsRate(currency: DemoRateCurrency, month: string): string {
  const [y, m] = month.split('-').map(Number);
  const step = ((((y ?? 0) * 12 + (m ?? 0)) * 7) % 11) - 5;
  const base = UNITS_PER_EUR[currency];
  const scale = base.split('.')[1]?.length ?? 0;
  const perEur = (Number(base) * (1 + step * 0.004)).toFixed(scale);
  return divideDecimal('1', perEur, 6);
}

/** The last twelve months' and this month's rates, each month entered by the staff member on its 1st. */
async function seedCustomsRates(ctx: DemoContext): Promise<number> {
  const now = customsMonthOf(ctx.now);
  const months = Array.from({ length: 13 }, (_, i) => addMonths(now, i - 12));
  const currencies = Object.keys(UNITS_PER_EUR) as DemoRateCurrency[];
  const rows = months.flatMap((month) =>
    currencies.map((currency) => ({
      month: `${month}-01`,
      currency,
      rate: demoCustomsRate(currency, month),
      updated_by: ctx.users.staff,
      updated_at: new Date(`${month}-01T08:30:00Z`),
    })),
  );
  await ctx.db.insertInto('customs_exchange_rates').values(rows).execute();
  for (const month of months)
    audit(ctx, {
      kind: 'company',
      id: COMPANY_ID,
      action: 'updated',
      actorId: ctx.users.staff,
      changes: currencies.map((c) => ({
        field: `customsRates.${month}.${c}`,
        from: null,
        to: demoCustomsRate(c, month),
      })),
      at: new Date(`${month}-01T08:30:00Z`),
    });
  return rows.length;
}
