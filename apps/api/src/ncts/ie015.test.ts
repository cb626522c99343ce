import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Declaration } from '@fvg/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { content } from '../features/declarations/sandbox/test-support.ts';
import { apiTest } from '../test/api-test.ts';
import type { Json } from '../test/helpers.ts';
import { ie015, nctsDateTime } from './ie015.ts';
import { rootMessageType, validateNcts } from './validate.ts';

/**
 * Issue 26 item 6: a transit declaration as the IE015 (CC015C) message NCTS phase 6 receives, valid
 * against the official schema (XSD 60.4.16). Each message built here is written to test-results/ncts/,
 * where `.ci/run` checks them once more with Debian's xmllint and the conformance folder's validate.sh.
 */
const OUT = path.resolve(import.meta.dirname, '../../../../test-results/ncts');
const EXAMPLES = path.join(import.meta.dirname, 'examples');

const setup = apiTest();
const { staff, partyId, call } = setup;

const envelope = {
  sender: 'NL123456789',
  recipient: 'NTA.NL',
  messageId: 'FVG-TEST-000001',
  preparedAt: new Date('2026-11-29T10:18:16.123Z'),
};

async function transit(over: Json = {}): Promise<Declaration> {
  const r = await call('POST', '/declarations', staff, { ...content('transit', partyId.ACME), ...over });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as unknown as Declaration;
}

async function written(name: string, xml: string) {
  await mkdir(OUT, { recursive: true });
  await writeFile(path.join(OUT, `${name}.xml`), xml);
}

describe('the NCTS schema check', () => {
  it('accepts the official valid IE015 examples and refuses the invalid one, naming the element', async () => {
    for (const name of ['cc015c-valid.xml', 'cc015c-valid-2.xml']) {
      const result = await validateNcts(await readFile(path.join(EXAMPLES, name), 'utf8'));
      expect(result, name).toEqual({ messageType: 'cc015c', valid: true, errors: [] });
    }
    const invalid = await validateNcts(await readFile(path.join(EXAMPLES, 'cc015c-invalid.xml'), 'utf8'));
    expect(invalid.valid).toBe(false);
    expect(invalid.errors.join('\n')).toMatch(/line \d+: .*Element '\w+'/);
  });

  it('refuses what is not an NCTS message, and a message type it has no schema for', async () => {
    expect(rootMessageType('<?xml version="1.0"?><!-- a --><ncts:CC029C xmlns:ncts="x"/>')).toBe('cc029c');
    expect(await validateNcts('<Invoice/>')).toMatchObject({ valid: false, messageType: 'invoice' });
    expect(await validateNcts('<ncts:CC999C xmlns:ncts="http://ncts.dgtaxud.ec"/>')).toEqual({
      messageType: 'cc999c',
      valid: false,
      errors: ['no NCTS schema for CC999C'],
    });
  });
});

describe('IE015 of a transit declaration', () => {
  let declaration: Declaration;
  beforeAll(async () => {
    declaration = await transit();
  });

  it('is valid against the phase 6 schema and carries the declaration as stored', async () => {
    const xml = ie015(declaration, envelope);
    await written('ie015-t1-one-item', xml);
    expect(await validateNcts(xml)).toEqual({ messageType: 'cc015c', valid: true, errors: [] });
    expect(xml).toContain('<ncts:CC015C xmlns:ncts="http://ncts.dgtaxud.ec" PhaseID="NCTS6">');
    expect(xml).toContain(`<LRN>${declaration.lrn}</LRN>`);
    expect(xml).toContain('<declarationType>T1</declarationType>');
    expect(xml).toContain('<preparationDateAndTime>2026-11-29T10:18:16</preparationDateAndTime>');
    // The guarantee and the amount it covers (at least the duties at stake, issue 26 item 5).
    expect(xml).toMatch(
      /<GRN>26NL0000000000001<\/GRN>\s*<amountToBeCovered>5000.00<\/amountToBeCovered>\s*<currency>EUR<\/currency>/,
    );
    // CN 8471 30 00 as HS subheading and CN digits; masses without trailing zeros.
    expect(xml).toMatch(
      /<harmonizedSystemSubHeadingCode>847130<\/harmonizedSystemSubHeadingCode>\s*<combinedNomenclatureCode>00<\/combinedNomenclatureCode>/,
    );
    expect(xml).toMatch(/<grossMass>120<\/grossMass>\s*<netMass>100<\/netMass>/);
    expect(xml).toMatch(/<containerIdentificationNumber>MSKU6011672<\/containerIdentificationNumber>/);
    expect(xml).toMatch(/<type>N830<\/type>\s*<referenceNumber>25NL000000001234A0<\/referenceNumber>/);
    // The Annex B data of item 1: limit date, authorisation, the container's seal, the location.
    expect(xml).toMatch(/<bindingItinerary>0<\/bindingItinerary>\s*<limitDate>2026-12-15<\/limitDate>/);
    expect(xml).toMatch(
      /<Authorisation>\s*<sequenceNumber>1<\/sequenceNumber>\s*<type>C521<\/type>\s*<referenceNumber>NLC521RTM0042<\/referenceNumber>/,
    );
    expect(xml).toMatch(
      /<containerIdentificationNumber>MSKU6011672<\/containerIdentificationNumber>\s*<numberOfSeals>1<\/numberOfSeals>\s*<Seal>\s*<sequenceNumber>1<\/sequenceNumber>\s*<identifier>NL-CUS-0045521<\/identifier>/,
    );
    expect(xml).toMatch(
      /<LocationOfGoods>\s*<typeOfLocation>B<\/typeOfLocation>\s*<qualifierOfIdentification>Y<\/qualifierOfIdentification>\s*<authorisationNumber>NLC521RTM0042<\/authorisationNumber>/,
    );
  });

  it('carries seals off the containers, additional information and each location qualifier NCTS takes', async () => {
    const locations = [
      { locationOfGoods: 'NLRTM', locationOfGoodsQualifier: 'U', element: /<UNLocode>NLRTM<\/UNLocode>/ },
      {
        locationOfGoods: 'NL000396',
        locationOfGoodsQualifier: 'V',
        element: /<CustomsOffice>\s*<referenceNumber>NL000396<\/referenceNumber>/,
      },
      {
        locationOfGoods: 'NL859437215',
        locationOfGoodsQualifier: 'X',
        element: /<EconomicOperator>\s*<identificationNumber>NL859437215<\/identificationNumber>/,
      },
    ];
    for (const [n, { element, ...location }] of locations.entries()) {
      const d = await transit({
        ...location,
        locationOfGoodsType: 'A',
        seals: [
          { identifier: 'NL-CUS-0045521', container: 'MSKU6011672' },
          { identifier: 'TRUCK-7781', container: null },
          { identifier: 'TRUCK-7782', container: null },
        ],
        additionalInformation: [{ code: '20300', text: 'Export goods, N830 cited per item' }],
      });
      const xml = ie015(d, { ...envelope, messageId: `FVG-TEST-00001${n}` });
      await written(`ie015-t1-location-${location.locationOfGoodsQualifier}`, xml);
      expect(await validateNcts(xml)).toEqual({ messageType: 'cc015c', valid: true, errors: [] });
      expect(xml).toMatch(element);
      // The container with its seal, then one equipment without a number for the vehicle's two.
      expect(xml.match(/<TransportEquipment>/g)).toHaveLength(2);
      expect(xml).toMatch(
        /<sequenceNumber>2<\/sequenceNumber>\s*<numberOfSeals>2<\/numberOfSeals>\s*<Seal>\s*<sequenceNumber>1<\/sequenceNumber>\s*<identifier>TRUCK-7781<\/identifier>/,
      );
      expect(xml).toMatch(
        /<AdditionalInformation>\s*<sequenceNumber>1<\/sequenceNumber>\s*<code>20300<\/code>\s*<text>Export goods, N830 cited per item<\/text>\s*<\/AdditionalInformation>\s*<HouseConsignment>/,
      );
    }
  });

  it('is valid with a representative, several items in two containers and a 6-digit HS subheading', async () => {
    const [item] = (content('transit', partyId.ACME).items as Json[]) ?? [];
    const d = await transit({
      representativeStatus: '2',
      representative: {
        partyId: null,
        name: 'FVG Forwarding B.V.',
        street: 'Waalhaven Zuidzijde 19',
        postalCode: '3089 JH',
        city: 'Rotterdam',
        countryCode: 'NL',
        eori: 'NL859437215',
      },
      officesOfTransit: ['DE004058', 'CH001254'],
      items: [
        item,
        {
          ...item,
          commodityCode: '847150',
          description: 'Servers',
          containers: ['MSKU6011672', 'CSQU3054383'],
        },
        { ...item, description: 'Docking stations, loose', containers: [], marks: null },
      ],
    });
    const xml = ie015(d, { ...envelope, messageId: 'FVG-TEST-000002' });
    await written('ie015-t1-representative-three-items', xml);
    expect(await validateNcts(xml)).toEqual({ messageType: 'cc015c', valid: true, errors: [] });
    expect(xml).toMatch(
      /<Representative>\s*<identificationNumber>NL859437215<\/identificationNumber>\s*<status>2<\/status>/,
    );
    // The 6-digit subheading alone, without CN digits.
    expect(xml).toMatch(
      /<harmonizedSystemSubHeadingCode>847150<\/harmonizedSystemSubHeadingCode>\s*<\/CommodityCode>/,
    );
    // Two containers, the first carrying items 1 and 2, the second item 2.
    expect(xml.match(/<TransportEquipment>/g)).toHaveLength(2);
    expect(xml.match(/<CustomsOfficeOfTransitDeclared>/g)).toHaveLength(2);
  });

  it('is valid for a guarantee waiver, which names no reference or amount', async () => {
    const d = await transit({ guaranteeType: '0', guaranteeReference: null, guaranteeAmount: null });
    const xml = ie015(d, envelope);
    await written('ie015-t1-waiver', xml);
    expect(await validateNcts(xml)).toEqual({ messageType: 'cc015c', valid: true, errors: [] });
    expect(xml).not.toContain('<GuaranteeReference>');
  });

  it('fails the schema where a draft still lacks what the schema requires, naming the element', async () => {
    const [item] = (content('transit', partyId.ACME).items as Json[]) ?? [];
    const d = await transit({ items: [{ ...item, description: null }] });
    const result = await validateNcts(ie015(d, envelope));
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toContain('Expected is ( descriptionOfGoods )');
  });

  it('is only built for transits', async () => {
    const r = await call('POST', '/declarations', staff, content('import', partyId.ACME));
    expect(() => ie015(r.body as unknown as Declaration, envelope)).toThrow(/IE015 is a transit declaration/);
    expect(nctsDateTime(new Date('2026-01-02T03:04:05.999Z'))).toBe('2026-01-02T03:04:05');
  });
});
