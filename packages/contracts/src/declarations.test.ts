import { describe, expect, it } from 'vitest';
import { lodgingProblems } from './declaration-rules.ts';
import {
  type Declaration,
  declarationAmendSchema,
  declarationCreateSchema,
  declarationListQuerySchema,
  declarationSchema,
  declarationUpdateSchema,
} from './declarations.ts';
import { AMENDABLE_STATUSES, amendmentProblem, cancellationProblem } from './declarations-values.ts';

const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  (r.error?.issues ?? []).map((i) => i.path.join('.'));
const customerId = '6f1c2f8e-8a4b-4c2d-9a55-0d7f7c1e2b3a';

describe('declaration contracts', () => {
  it('normalises what a clerk types: codes upper-cased, spaces and dots dropped, empty → null', () => {
    const d = declarationCreateSchema.parse({
      type: 'import',
      customerId,
      lrn: ' lrn-2026-000001 ',
      officeOfLodgement: 'nl 000 396',
      currency: 'usd',
      countryOfDispatch: 'cn',
      incoterm: '',
      declarant: { name: ' Acme ', eori: 'nl 123456789', countryCode: 'nl' },
      items: [
        {
          commodityCode: '8471.30.00',
          containers: ['msku 601 167 2'],
          previousDocuments: [{ type: 'N830', reference: '25nl000000001234a0' }],
        },
      ],
    });
    expect(d).toMatchObject({
      lrn: 'LRN-2026-000001',
      officeOfLodgement: 'NL000396',
      currency: 'USD',
      countryOfDispatch: 'CN',
      incoterm: null,
      declarant: { name: 'Acme', eori: 'NL123456789', countryCode: 'NL' },
      items: [
        {
          commodityCode: '84713000',
          containers: ['MSKU6011672'],
          previousDocuments: [{ type: 'N830', reference: '25NL000000001234A0' }],
        },
      ],
    });
  });

  it('takes the Annex B data elements as a clerk types them, and names the field it refuses (issue 26 item 1)', () => {
    const d = declarationCreateSchema.parse({
      type: 'import',
      customerId,
      locationOfGoodsType: 'A',
      locationOfGoodsQualifier: 'U',
      authorisations: [{ type: 'C506', reference: ' nl dpo 0001234 ' }],
      additionalInformation: [{ code: '00500' }],
      seals: [{ identifier: ' ml 4471230 ', container: 'msku 601 167 2' }, { identifier: 'ML4471231' }],
      limitDate: '',
      items: [
        { additionalProcedureCodes: ['f45', ' c07 '], valuationMethod: '1', supplementaryUnits: '120' },
      ],
    });
    expect(d).toMatchObject({
      authorisations: [{ type: 'C506', reference: 'NLDPO0001234' }],
      additionalInformation: [{ code: '00500', text: null }],
      seals: [
        { identifier: 'ML4471230', container: 'MSKU6011672' },
        { identifier: 'ML4471231', container: null },
      ],
      limitDate: null,
      items: [{ additionalProcedureCodes: ['F45', 'C07'], valuationMethod: '1', supplementaryUnits: '120' }],
    });
    const bad = declarationCreateSchema.safeParse({
      type: 'import',
      customerId,
      locationOfGoodsType: 'Q',
      authorisations: [{ type: 'X999', reference: 'A1' }],
      additionalInformation: [{ code: '5' }],
      seals: [{ identifier: 'S1', container: 'MSKU6011673' }],
      limitDate: '2026-02-30',
      items: [{ additionalProcedureCodes: ['F4'], valuationMethod: '7', supplementaryUnits: '-1' }],
    });
    expect(paths(bad).sort()).toEqual(
      [
        'locationOfGoodsType',
        'authorisations.0.type',
        'additionalInformation.0.code',
        'seals.0.container',
        'limitDate',
        'items.0.additionalProcedureCodes.0',
        'items.0.valuationMethod',
        'items.0.supplementaryUnits',
      ].sort(),
    );
  });

  it('checks the items against the category: a transit item has no procedure code, an import one no export code', () => {
    const transit = declarationCreateSchema.safeParse({
      type: 'transit',
      customerId,
      items: [{ procedureCode: '4000' }, {}],
    });
    expect(paths(transit)).toEqual(['items.0.procedureCode']);
    const wrongCategory = declarationCreateSchema.safeParse({
      type: 'import',
      category: 'B1',
      customerId,
      items: [{ procedureCode: '4000' }],
    });
    // The category is refused; the items are checked against the type's own (H1), which 4000 fits.
    expect(paths(wrongCategory)).toEqual(['category']);
    const exportCode = declarationCreateSchema.safeParse({
      type: 'import',
      customerId,
      items: [{ procedureCode: '1000' }],
    });
    expect(paths(exportCode)).toEqual(['items.0.procedureCode']);
  });

  it('needs a customer unless a dossier or a copy names one', () => {
    expect(paths(declarationCreateSchema.safeParse({ type: 'export' }))).toEqual(['customerId']);
    expect(declarationCreateSchema.safeParse({ type: 'export', dossierId: customerId }).success).toBe(true);
    expect(declarationCreateSchema.safeParse({ type: 'export', copyOf: customerId }).success).toBe(true);
  });

  it('an amendment names its failing fields under changes', () => {
    const r = declarationAmendSchema.safeParse({
      version: 3,
      reason: '',
      changes: { currency: 'JPY', invoiceTotal: '10.5', items: [{ grossMassKg: '1', netMassKg: '2' }] },
    });
    expect(paths(r).sort()).toEqual(['changes.invoiceTotal', 'changes.items.0.netMassKg', 'reason']);
  });

  it('an edit refuses what a draft edit cannot change', () => {
    expect(paths(declarationUpdateSchema.safeParse({ version: 1, type: 'export' }))).toEqual(['']);
    expect(paths(declarationUpdateSchema.safeParse({ notes: 'x' }))).toEqual(['version']);
  });

  it('list query: csv filters of known values, a yes/no pending filter, calendar dates', () => {
    const q = declarationListQuerySchema.parse({
      type: 'import,transit',
      status: 'lodged',
      pendingRequest: 'true',
      from: '2026-01-01',
    });
    expect(q).toMatchObject({
      type: ['import', 'transit'],
      status: ['lodged'],
      pendingRequest: true,
      page: 1,
    });
    expect(
      paths(declarationListQuerySchema.safeParse({ status: 'flying', from: '2026-02-30' })).sort(),
    ).toEqual(['from', 'status.0']);
  });

  it('the Declaration the API answers is what lodgingProblems reads', () => {
    const d: Declaration = declarationSchema.parse({
      id: 'x',
      type: 'export',
      category: 'B1',
      status: 'draft',
      lrn: 'LRN-1',
      mrn: null,
      gateway: { label: 'Sandbox', sandbox: true },
      dossier: null,
      shipment: null,
      customer: { id: customerId, code: 'ACME', name: 'Acme' },
      declarant: null,
      representative: null,
      representativeStatus: null,
      consignor: null,
      consignee: null,
      holder: null,
      officeOfLodgement: null,
      officeOfExitEntry: null,
      officeOfDestination: null,
      officesOfTransit: [],
      countryOfDispatch: null,
      countryOfDestination: null,
      transportModeBorder: null,
      transportModeInland: null,
      meansAtDeparture: null,
      meansAtDepartureCountry: null,
      meansAtBorder: null,
      meansAtBorderCountry: null,
      containerIndicator: false,
      incoterm: null,
      incotermPlace: null,
      natureOfTransaction: null,
      currency: null,
      invoiceTotal: null,
      exchangeRate: null,
      locationOfGoods: null,
      locationOfGoodsType: null,
      locationOfGoodsQualifier: null,
      warehouseReference: null,
      authorisations: [],
      additionalInformation: [],
      seals: [],
      limitDate: null,
      guaranteeType: null,
      additionTransportInsurance: null,
      additionCommissions: null,
      additionPacking: null,
      deductionTransportAfterEntry: null,
      deductionDuties: null,
      apportionment: null,
      methodOfPayment: null,
      guaranteeReference: null,
      guaranteeAmount: null,
      notes: null,
      items: [],
      totals: {
        packages: 0,
        grossMassKg: '0.000',
        netMassKg: '0.000',
        invoiceValue: '0.00',
        customsValue: '0.00',
        statisticalValue: '0.00',
        duty: null,
        vatBase: null,
        vat: null,
        dutyAndVat: null,
      },
      pendingRequest: null,
      rejection: [],
      lastMessage: null,
      lodgedAt: null,
      acceptedAt: null,
      releasedAt: null,
      exitedAt: null,
      arrivedAt: null,
      dischargedAt: null,
      version: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      createdBy: null,
      updatedAt: '2026-01-01T00:00:00.000Z',
      allowedActions: ['edit'],
    });
    const fields = lodgingProblems(d).map((p) => p.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'declarant',
        'officeOfLodgement',
        'officeOfExitEntry',
        'locationOfGoods',
        'items',
      ]),
    );
  });
});

describe('requests to the authority (UCC art. 173(1) and 174(1))', () => {
  it('refuses an amendment while customs examine the goods, with the reason, as it refuses invalidation', () => {
    expect(amendmentProblem('accepted')).toBeUndefined();
    expect(amendmentProblem('under_control')).toMatch(
      /^Customs have announced a control of the goods: a declaration cannot be amended .*\(UCC art\. 173\(1\)\)/,
    );
    expect(cancellationProblem('import', 'under_control')).toMatch(/UCC art\. 174\(1\)/);
    for (const status of ['draft', 'lodged', 'released', 'not_released', 'rejected', 'cancelled'] as const)
      expect(amendmentProblem(status)).toBeDefined();
    expect(AMENDABLE_STATUSES).toEqual(['accepted']);
  });
});
