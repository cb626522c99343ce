import { mrnProblem } from '@fvg/contracts';
import { describe, expect, it } from 'vitest';
import {
  type AuthorityView,
  amendmentRefusal,
  authorityProblems,
  cancellationRefusal,
  SANDBOX_RULES,
} from './sandbox-rules.ts';

const party = (eori: string) => ({ eori });

function importView(over: Partial<AuthorityView> = {}): AuthorityView {
  return {
    type: 'import',
    declarant: party('NL123456789'),
    representative: null,
    holder: null,
    officeOfLodgement: 'NL000396',
    officeOfExitEntry: 'NL000396',
    officeOfDestination: null,
    officesOfTransit: [],
    countryOfDispatch: 'CN',
    countryOfDestination: 'NL',
    currency: 'USD',
    invoiceTotal: '1500.00',
    guaranteeType: null,
    guaranteeAmount: null,
    items: [
      { commodityCode: '84713000', invoiceValue: '1000.00', previousDocuments: [] },
      { commodityCode: '8471300000', invoiceValue: '500.00', previousDocuments: [] },
    ],
    ...over,
  };
}

const codes = (v: AuthorityView) => authorityProblems(v, mrnProblem).map((r) => `${r.code} ${r.field}`);

describe('sandbox authority rules', () => {
  it('accepts a sound import, export and transit', () => {
    expect(codes(importView())).toEqual([]);
    expect(
      codes(importView({ type: 'export', countryOfDispatch: 'NL', countryOfDestination: 'US' })),
    ).toEqual([]);
    expect(
      codes(
        importView({
          type: 'transit',
          holder: party('DE987654321'),
          officeOfDestination: 'CH001234',
          officesOfTransit: ['DE004455'],
          invoiceTotal: null,
          guaranteeType: '1',
          guaranteeAmount: '1000.00',
          items: [
            {
              commodityCode: '84713000',
              invoiceValue: null,
              previousDocuments: [{ type: 'N830', reference: '25NL000000001234A0' }],
            },
          ],
        }),
      ),
    ).toEqual([]);
  });

  it('refuses offices outside the Union with the office in the text and the field path', () => {
    const rules = authorityProblems(
      importView({ officeOfLodgement: 'US000123', officeOfExitEntry: 'CN000001' }),
      mrnProblem,
    );
    expect(rules).toEqual([
      {
        code: 'SBX-R101',
        text: 'Office of lodgement US000123 is not a customs office of the Union',
        field: 'officeOfLodgement',
      },
      {
        code: 'SBX-R102',
        text: 'Office of entry CN000001 is not a customs office of the Union',
        field: 'officeOfExitEntry',
      },
    ]);
    // Northern Ireland's offices (XI) are Union offices for customs.
    expect(codes(importView({ officeOfLodgement: 'XI000142', officeOfExitEntry: null }))).toEqual([]);
  });

  it('checks transit offices against the common transit countries', () => {
    const transit = importView({
      type: 'transit',
      invoiceTotal: null,
      officeOfDestination: 'CN000001',
      officesOfTransit: ['CH000001', 'RU000002'],
    });
    expect(codes(transit)).toEqual(['SBX-R103 officeOfDestination', 'SBX-R104 officesOfTransit.1']);
  });

  it('wants EORIs issued in the Union', () => {
    expect(
      codes(
        importView({
          declarant: party('GB123456789000'),
          representative: party('US12345'),
        }),
      ),
    ).toEqual(['SBX-R201 declarant.eori', 'SBX-R202 representative.eori']);
    expect(codes(importView({ declarant: party('XI123456789000') }))).toEqual([]);
  });

  it('knows where exports and imports come from and go to', () => {
    expect(
      codes(importView({ type: 'export', countryOfDispatch: 'US', countryOfDestination: 'DE' })),
    ).toEqual(['SBX-R301 countryOfDestination', 'SBX-R302 countryOfDispatch']);
    expect(
      codes(importView({ type: 'export', countryOfDispatch: 'NL', countryOfDestination: 'MC' })),
    ).toEqual(['SBX-R301 countryOfDestination']);
    expect(codes(importView({ countryOfDispatch: 'NL' }))).toEqual(['SBX-R303 countryOfDispatch']);
  });

  it('refuses a chapter the Harmonized System does not have', () => {
    const items = [
      { commodityCode: '77010000', invoiceValue: '1000.00', previousDocuments: [] },
      { commodityCode: '98010000', invoiceValue: '500.00', previousDocuments: [] },
    ];
    expect(codes(importView({ items }))).toEqual([
      'SBX-R304 items.0.commodityCode',
      'SBX-R304 items.1.commodityCode',
    ]);
  });

  it('matches the invoice total to the items within a cent per item', () => {
    expect(codes(importView({ invoiceTotal: '1500.02' }))).toEqual([]);
    expect(codes(importView({ invoiceTotal: '1499.98' }))).toEqual([]);
    const [rule] = authorityProblems(importView({ invoiceTotal: '1500.03' }), mrnProblem);
    expect(rule).toEqual({
      code: 'SBX-R305',
      text: "Invoice total 1,500.03 USD differs from the sum of the items' invoice values, 1,500.00 USD",
      field: 'invoiceTotal',
    });
  });

  it('holds a transit guarantee to its floor and a type 5 waiver to its ceiling', () => {
    const transit = (guaranteeType: string, guaranteeAmount: string) =>
      codes(
        importView({
          type: 'transit',
          invoiceTotal: null,
          officeOfDestination: 'DE000001',
          guaranteeType,
          guaranteeAmount,
        }),
      );
    expect(transit('1', '999.99')).toEqual(['SBX-R306 guaranteeAmount']);
    expect(transit('1', '1000.00')).toEqual([]);
    expect(transit('5', '500.00')).toEqual([]);
    expect(transit('5', '500.01')).toEqual(['SBX-R307 guaranteeAmount']);
    expect(transit('8', '10.00')).toEqual([]);
  });

  it('wants an export MRN as the N830 previous document of a transit', () => {
    const items = [
      {
        commodityCode: '84713000',
        invoiceValue: null,
        previousDocuments: [
          { type: 'N380', reference: 'INV-1' },
          { type: 'N830', reference: '22ITZXBZYUTJFLJXK6' },
        ],
      },
    ];
    const [rule] = authorityProblems(importView({ type: 'transit', invoiceTotal: null, items }), mrnProblem);
    expect(rule?.code).toBe('SBX-R308');
    expect(rule?.field).toBe('items.0.previousDocuments.1.reference');
    expect(rule?.text).toMatch(
      /^Previous document 22ITZXBZYUTJFLJXK6 is not a valid export MRN: Position 17/,
    );
  });

  it('answers requests by the status they meet', () => {
    expect(amendmentRefusal('accepted')).toBeUndefined();
    expect(amendmentRefusal('under_control')?.code).toBe('SBX-R401');
    expect(amendmentRefusal('released')?.code).toBe('SBX-R402');
    expect(amendmentRefusal('cancelled')?.code).toBe('SBX-R403');
    expect(cancellationRefusal('import', 'under_control')).toBeUndefined();
    expect(cancellationRefusal('import', 'released')?.code).toBe('SBX-R404');
    expect(cancellationRefusal('export', 'released')).toBeUndefined();
    expect(cancellationRefusal('export', 'exited')?.code).toBe('SBX-R405');
    expect(cancellationRefusal('transit', 'arrived')?.code).toBe('SBX-R406');
    expect(cancellationRefusal('transit', 'rejected')?.code).toBe('SBX-R403');
  });

  it('documents every code it cites', () => {
    const cited = [
      ...authorityProblems(
        importView({
          officeOfLodgement: 'US000001',
          officeOfExitEntry: 'US000002',
          declarant: party('US1'),
          representative: party('US2'),
          countryOfDispatch: 'US',
          invoiceTotal: '1.00',
          items: [{ commodityCode: '77000000', invoiceValue: '5.00', previousDocuments: [] }],
        }),
        mrnProblem,
      ),
    ].map((r) => r.code);
    for (const code of cited) expect(Object.keys(SANDBOX_RULES)).toContain(code);
  });
});
