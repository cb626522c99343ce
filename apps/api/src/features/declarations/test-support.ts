import { addMonths } from '@fvg/contracts';
import type { Db } from '../../db/database.ts';
import { customsMonthOf } from '../company/customs-rates.ts';
import { completeCompany } from '../sales-invoices/test-support.ts';
import type { CustomsGateway } from './gateway.ts';

/** The customs exchange rate the tests' USD invoices are converted at (EUR per USD). */
export const TEST_USD_RATE = '0.92';

/**
 * The USD customs rate of this month, the one before and the one after (a run that crosses midnight at a
 * month's end still finds it): what lodging the tests' USD declarations needs.
 */
export async function usdCustomsRates(db: Db): Promise<void> {
  const month = customsMonthOf();
  await db
    .insertInto('customs_exchange_rates')
    .values(
      [addMonths(month, -1), month, addMonths(month, 1)].map((m) => ({
        month: `${m}-01`,
        currency: 'USD',
        rate: TEST_USD_RATE,
      })),
    )
    .onConflict((oc) => oc.columns(['month', 'currency']).doUpdateSet({ rate: TEST_USD_RATE }))
    .execute();
}

/** The forwarder's settings as a declarant needs them: complete, with its own EORI and USD rates (test `prepare`). */
export async function declarantCompany(db: Db): Promise<void> {
  await completeCompany(db);
  await db.updateTable('company_settings').set({ eori: 'NL859437215' }).execute();
  await usdCustomsRates(db);
}

/**
 * A gateway that only records what it was asked, for the tests of the routes alone (access matrix,
 * the API's checks). The lifecycle against a real authority is the sandbox's own tests' (ADR 0033).
 */
export function recordingGateway() {
  const calls: {
    op: 'lodge' | 'amend' | 'cancel';
    declarationId: string;
    userId: string | null;
    reason?: string;
    proposed?: unknown;
  }[] = [];
  const gateway: CustomsGateway = {
    label: 'Recording gateway (tests)',
    sandbox: true,
    async lodge(_trx: Db, r) {
      calls.push({ op: 'lodge', declarationId: r.declarationId, userId: r.userId });
    },
    async amend(_trx: Db, r) {
      calls.push({ op: 'amend', ...r });
    },
    async cancel(_trx: Db, r) {
      calls.push({ op: 'cancel', ...r });
    },
  };
  return { gateway, calls };
}

/** A party of a declaration. */
export function party(over: Record<string, unknown> = {}) {
  return {
    name: 'Acme Imports B.V.',
    street: 'Kade 1',
    postalCode: '3011 AA',
    city: 'Rotterdam',
    countryCode: 'NL',
    eori: 'NL123456789',
    ...over,
  };
}

/** One goods item that lodging accepts (import, H1). */
export function importItem(over: Record<string, unknown> = {}) {
  return {
    commodityCode: '8471 30 00',
    description: 'Laptops, 14 inch',
    countryOfOrigin: 'CN',
    preference: '100',
    procedureCode: '4000',
    additionalProcedureCodes: ['000'],
    valuationMethod: '1',
    // CN 8471 is declared in number of items too (DE 6/2).
    supplementaryUnits: '100',
    packages: 100,
    packageKind: 'CT',
    marks: 'ACME 1-100',
    grossMassKg: '1200',
    netMassKg: '1000',
    invoiceValue: '12000.00',
    customsValue: '11500.00',
    statisticalValue: '11500.00',
    dutyRate: '0',
    vatRate: '21',
    vatCosts: '250.00',
    containers: ['MSKU6011672'],
    supportingDocuments: [{ type: 'N380', reference: 'INV-2026-0042' }],
    previousDocuments: [],
    ...over,
  };
}

/** The body of an import declaration for `customerId` complete enough to lodge. */
export function completeImport(customerId: string, over: Record<string, unknown> = {}) {
  return {
    type: 'import',
    customerId,
    declarant: party({ partyId: customerId }),
    representative: party({ name: 'FVG Forwarding B.V.', eori: 'NL859437215' }),
    representativeStatus: '2',
    consignor: party({
      name: 'Shenzhen Bright Electronics Ltd',
      city: 'Shenzhen',
      countryCode: 'CN',
      eori: null,
    }),
    consignee: party({ partyId: customerId }),
    officeOfLodgement: 'NL000396',
    countryOfDispatch: 'CN',
    countryOfDestination: 'NL',
    transportModeBorder: '1',
    transportModeInland: '3',
    meansAtBorder: 'MSC OSCAR',
    meansAtBorderCountry: 'PA',
    containerIndicator: true,
    incoterm: 'FOB',
    incotermPlace: 'Shenzhen',
    natureOfTransaction: '11',
    currency: 'USD',
    invoiceTotal: '12000.00',
    exchangeRate: '0.92',
    methodOfPayment: 'E',
    authorisations: [{ type: 'C506', reference: 'NLDPO0001234' }],
    locationOfGoods: 'NLRTMECTDELTA',
    locationOfGoodsType: 'A',
    locationOfGoodsQualifier: 'Z',
    items: [importItem()],
    ...over,
  };
}
