import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  containerOf,
  DCSA_EVENT_TYPES,
  type DcsaEventInput,
  DOCUMENT_TYPE_CODES,
  dcsaEventSchema,
  EMPTY_INDICATOR_CODES,
  EQUIPMENT_EVENT_TYPE_CODES,
  EVENT_CLASSIFIER_CODES,
  FACILITY_TYPE_CODES,
  linkReferencesOf,
  MODES_OF_TRANSPORT,
  REFERENCE_TYPES,
  SHIPMENT_EVENT_TYPE_CODES,
  TRANSPORT_EVENT_TYPE_CODES,
} from './container-events.ts';
import { iso6346CheckDigit } from './validators/iso6346.ts';

const equipment = (over: Record<string, unknown> = {}) =>
  ({
    eventID: '3cecb101-7a1a-43a4-9d62-e88a131651e2',
    eventType: 'EQUIPMENT',
    eventClassifierCode: 'ACT',
    eventDateTime: '2026-03-01T14:12:56+01:00',
    eventCreatedDateTime: '2026-03-01T14:20:00+01:00',
    equipmentEventTypeCode: 'GTIN',
    equipmentReference: 'MSKU6011672',
    ISOEquipmentCode: '45G1',
    emptyIndicatorCode: 'LADEN',
    transportCall: {
      modeOfTransport: 'TRUCK',
      UNLocationCode: 'NLRTM',
      facilityCode: 'ECTDE',
      facilityTypeCode: 'POTE',
    },
    ...over,
  }) as DcsaEventInput;

const transport = (over: Record<string, unknown> = {}) =>
  ({
    eventID: '84db923d-2a19-4eb0-beb5-446c1ec57d34',
    eventType: 'TRANSPORT',
    eventClassifierCode: 'EST',
    eventDateTime: '2026-03-10T08:00:00Z',
    eventCreatedDateTime: '2026-03-01T10:00:00Z',
    transportEventTypeCode: 'ARRI',
    transportCall: {
      modeOfTransport: 'VESSEL',
      UNLocationCode: 'CNSHA',
      carrierVoyageNumber: '2103S',
      transportCallSequenceNumber: 2,
      vessel: { vesselIMONumber: '9321483', vesselName: 'King of the Seas', vesselFlag: 'DE' },
    },
    documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'mbl123' }],
    ...over,
  }) as DcsaEventInput;

const shipment = (over: Record<string, unknown> = {}) =>
  ({
    eventID: '5e51e72c-d872-11ea-811c-0242ac130003',
    eventType: 'SHIPMENT',
    eventClassifierCode: 'ACT',
    eventDateTime: '2026-03-01T10:00:00Z',
    eventCreatedDateTime: '2026-03-01T10:00:00Z',
    shipmentEventTypeCode: 'ISSU',
    documentTypeCode: 'TRD',
    documentID: 'MBL0000000001',
    ...over,
  }) as DcsaEventInput;

function problems(input: unknown) {
  const r = dcsaEventSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
}

describe('DCSA T&T events', () => {
  it('accepts an event of each type and normalizes codes and numbers', () => {
    const e = dcsaEventSchema.parse(
      equipment({
        equipmentReference: 'msku 601167-2',
        equipmentEventTypeCode: 'gtin',
        eventID: '3CECB101-7A1A-43A4-9D62-E88A131651E2',
      }),
    );
    expect(e).toMatchObject({
      equipmentReference: 'MSKU6011672',
      equipmentEventTypeCode: 'GTIN',
      eventID: '3cecb101-7a1a-43a4-9d62-e88a131651e2',
    });
    expect(dcsaEventSchema.parse(transport()).eventType).toBe('TRANSPORT');
    expect(dcsaEventSchema.parse(shipment()).eventType).toBe('SHIPMENT');
  });

  it('requires emptyIndicatorCode on equipment events and transportCall on transport events, naming the field', () => {
    expect(problems(equipment({ emptyIndicatorCode: undefined }))).toEqual([
      { field: 'emptyIndicatorCode', message: 'emptyIndicatorCode is required' },
    ]);
    expect(problems(transport({ transportCall: undefined }))).toEqual([
      { field: 'transportCall', message: 'transportCall is required' },
    ]);
    // An equipment event may come without a transport call (a gate move at a depot, say).
    expect(problems(equipment({ transportCall: undefined }))).toEqual([]);
    expect(problems(transport({ transportCall: { UNLocationCode: 'NLRTM' } }))).toEqual([
      { field: 'transportCall.modeOfTransport', message: 'modeOfTransport is required' },
    ]);
  });

  it('names the field of every broken value', () => {
    const cases: [DcsaEventInput, string, RegExp][] = [
      [equipment({ eventType: 'CONTAINER' }), 'eventType', /EQUIPMENT, TRANSPORT, SHIPMENT/],
      [equipment({ eventID: undefined }), 'eventID', /required/],
      [equipment({ eventID: 'not-a-uuid' }), 'eventID', /UUID/],
      [equipment({ eventClassifierCode: 'REQ' }), 'eventClassifierCode', /PLN, EST, ACT/],
      [equipment({ eventDateTime: '2026-03-01 14:12' }), 'eventDateTime', /ISO 8601/],
      [equipment({ eventDateTime: '2026-03-01T14:12:56' }), 'eventDateTime', /time zone/],
      [equipment({ equipmentEventTypeCode: 'ARRI' }), 'equipmentEventTypeCode', /LOAD, DISC/],
      [equipment({ equipmentReference: 'MSKU6011673' }), 'equipmentReference', /check digit.*needs 2/],
      [equipment({ equipmentReference: 'MSK6011672' }), 'equipmentReference', /ISO 6346/],
      [equipment({ ISOEquipmentCode: '45G' }), 'ISOEquipmentCode', /4-character/],
      [equipment({ emptyIndicatorCode: 'FULL' }), 'emptyIndicatorCode', /EMPTY, LADEN/],
      [equipment({ colour: 'red' }), '', /Unrecognized key/],
      [
        equipment({ transportCall: { modeOfTransport: 'PLANE' } }),
        'transportCall.modeOfTransport',
        /VESSEL, RAIL, TRUCK, BARGE/,
      ],
      [
        equipment({ transportCall: { modeOfTransport: 'TRUCK', UNLocationCode: 'XXRTM' } }),
        'transportCall.UNLocationCode',
        /UN\/LOCODE/,
      ],
      [
        equipment({ transportCall: { modeOfTransport: 'TRUCK', facilityTypeCode: 'PORT' } }),
        'transportCall.facilityTypeCode',
        /BORD, CLOC/,
      ],
      [
        transport({ transportCall: { modeOfTransport: 'VESSEL', vessel: { vesselIMONumber: '9321484' } } }),
        'transportCall.vessel.vesselIMONumber',
        /check digit: 932148 needs 3/,
      ],
      [
        transport({ transportCall: { modeOfTransport: 'VESSEL', vessel: { vesselFlag: 'XX' } } }),
        'transportCall.vessel.vesselFlag',
        /ISO 3166/,
      ],
      [transport({ transportEventTypeCode: 'LOAD' }), 'transportEventTypeCode', /ARRI, DEPA/],
      [shipment({ shipmentEventTypeCode: 'LOST' }), 'shipmentEventTypeCode', /RECE, DRFT/],
      [shipment({ documentTypeCode: 'XYZ' }), 'documentTypeCode', /BKG/],
      [shipment({ documentID: undefined }), 'documentID', /required/],
      [
        transport({ references: [{ referenceType: 'ZZ', referenceValue: 'x' }] }),
        'references.0.referenceType',
        /FF, SI/,
      ],
      [
        equipment({ eventDateTime: '2026-03-05T00:00:00Z', eventCreatedDateTime: '2026-03-01T00:00:00Z' }),
        'eventDateTime',
        /actual \(ACT\) event cannot lie after/,
      ],
    ];
    for (const [input, field, message] of cases) {
      const found = problems(input);
      const hit = found.find((p) => p.field === field);
      expect(hit, `${JSON.stringify(input)} → ${JSON.stringify(found)}`).toBeDefined();
      expect(hit?.message).toMatch(message);
    }
  });

  it('reads the container and the booking/BL references an event names', () => {
    expect(containerOf(dcsaEventSchema.parse(equipment()))).toBe('MSKU6011672');
    const t = dcsaEventSchema.parse(
      transport({
        references: [
          { referenceType: 'EQ', referenceValue: 'csqu3054383' },
          { referenceType: 'BKG', referenceValue: 'bkg-1' },
          { referenceType: 'FF', referenceValue: 'not-a-link' },
        ],
      }),
    );
    expect(containerOf(t)).toBe('CSQU3054383');
    expect(linkReferencesOf(t).sort()).toEqual(['BKG-1', 'MBL123']);
    expect(linkReferencesOf(dcsaEventSchema.parse(shipment()))).toEqual(['MBL0000000001']);
    expect(containerOf(dcsaEventSchema.parse(shipment()))).toBeNull();
  });
});

describe('code lists (properties)', () => {
  const lists: [string, readonly string[], (v: string) => DcsaEventInput][] = [
    [
      'eventClassifierCode',
      EVENT_CLASSIFIER_CODES,
      (v) => equipment({ eventClassifierCode: v, eventDateTime: '2026-03-01T14:12:56+01:00' }),
    ],
    ['equipmentEventTypeCode', EQUIPMENT_EVENT_TYPE_CODES, (v) => equipment({ equipmentEventTypeCode: v })],
    ['emptyIndicatorCode', EMPTY_INDICATOR_CODES, (v) => equipment({ emptyIndicatorCode: v })],
    ['transportEventTypeCode', TRANSPORT_EVENT_TYPE_CODES, (v) => transport({ transportEventTypeCode: v })],
    ['shipmentEventTypeCode', SHIPMENT_EVENT_TYPE_CODES, (v) => shipment({ shipmentEventTypeCode: v })],
    ['documentTypeCode', DOCUMENT_TYPE_CODES, (v) => shipment({ documentTypeCode: v })],
    ['modeOfTransport', MODES_OF_TRANSPORT, (v) => transport({ transportCall: { modeOfTransport: v } })],
    [
      'facilityTypeCode',
      FACILITY_TYPE_CODES,
      (v) => transport({ transportCall: { modeOfTransport: 'VESSEL', facilityTypeCode: v } }),
    ],
    [
      'referenceType',
      REFERENCE_TYPES,
      (v) => transport({ references: [{ referenceType: v, referenceValue: 'X1' }] }),
    ],
  ];

  for (const [field, values, make] of lists) {
    it(`${field}: every listed code is accepted, in any case`, () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...values),
          fc.boolean(),
          (v, lower) => dcsaEventSchema.safeParse(make(lower ? v.toLowerCase() : v)).success,
        ),
      );
      for (const v of values) expect(dcsaEventSchema.safeParse(make(v)).success, `${field}=${v}`).toBe(true);
    });

    it(`${field}: anything else is rejected on that field`, () => {
      fc.assert(
        fc.property(
          fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !values.includes(s.trim().toUpperCase())),
          (v) => {
            const r = dcsaEventSchema.safeParse(make(v));
            return !r.success && r.error.issues.some((i) => i.path.at(-1) === field);
          },
        ),
      );
    });
  }

  it('eventType: the three DCSA types select their shapes; anything else is rejected on eventType', () => {
    const samples = [equipment(), transport(), shipment()];
    for (const type of DCSA_EVENT_TYPES) {
      expect(dcsaEventSchema.safeParse(samples.find((e) => e.eventType === type)).success).toBe(true);
    }
    fc.assert(
      fc.property(
        fc.string({ maxLength: 12 }).filter((s) => !(DCSA_EVENT_TYPES as readonly string[]).includes(s)),
        fc.constantFrom(...samples),
        (type, sample) => {
          const r = dcsaEventSchema.safeParse({ ...sample, eventType: type });
          return !r.success && r.error.issues.some((i) => i.path.join('.') === 'eventType');
        },
      ),
    );
  });

  const owner = fc.stringMatching(/^[A-Z]{3}[UJZ]$/);
  const serial = fc.stringMatching(/^\d{6}$/);

  it('equipmentReference: every ISO 6346 number with its check digit is accepted', () => {
    fc.assert(
      fc.property(owner, serial, (o, s) => {
        const n = `${o}${s}${iso6346CheckDigit(o + s)}`;
        return dcsaEventSchema.safeParse(equipment({ equipmentReference: n })).success;
      }),
    );
  });

  it('equipmentReference: a wrong check digit is rejected, naming the digit it needs', () => {
    fc.assert(
      fc.property(owner, serial, fc.integer({ min: 0, max: 9 }), (o, s, d) => {
        const right = iso6346CheckDigit(o + s);
        fc.pre(d !== right);
        const found = problems(equipment({ equipmentReference: `${o}${s}${d}` }));
        return (
          found.length === 1 &&
          found[0]?.field === 'equipmentReference' &&
          found[0].message.includes(`needs ${right}`)
        );
      }),
    );
  });

  it('vesselIMONumber: the check digit decides', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{6}$/), fc.integer({ min: 0, max: 9 }), (body, d) => {
        let sum = 0;
        for (let i = 0; i < 6; i++) sum += Number(body[i]) * (7 - i);
        const ok = dcsaEventSchema.safeParse(
          transport({
            transportCall: { modeOfTransport: 'VESSEL', vessel: { vesselIMONumber: `${body}${d}` } },
          }),
        ).success;
        return ok === (sum % 10 === d);
      }),
    );
  });

  it('UNLocationCode: country + 3 of A-Z2-9, nothing else', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z0-9]{5}$/), (code) => {
        const ok = dcsaEventSchema.safeParse(
          transport({ transportCall: { modeOfTransport: 'VESSEL', UNLocationCode: code } }),
        ).success;
        const expected =
          /^[A-Z]{2}[A-Z2-9]{3}$/.test(code) && ['NL', 'DE', 'CN', 'US', 'BE'].includes(code.slice(0, 2));
        // Only a sample of countries is asserted positively; everything malformed must fail.
        return expected ? ok : !/^[A-Z]{2}[A-Z2-9]{3}$/.test(code) ? !ok : true;
      }),
    );
  });
});
