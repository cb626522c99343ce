import {
  type Declaration,
  type DeclarationParty,
  declarationTotals,
  TRANSIT_AUTHORISATION_TYPES,
} from '@fvg/contracts';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

/**
 * The transit declaration as NCTS phase 6 receives it: message IE015 (CC015C, DDNTA 6.4.1, XSD 60.4.16,
 * in `xsd/`), built from the declaration as stored, element for element in the order the schema's
 * sequences ask (issue 26 item 6), with the Annex B data of item 1: authorisations, the limit date, the
 * seals per container, the location of goods by its qualifier, additional information. What the
 * product does not record (a carrier, the countries of routing, transport documents) is left out where
 * the schema lets it; the message is valid against the schema whenever the declaration passes the
 * lodging rules.
 */
export const NCTS_NAMESPACE = 'http://ncts.dgtaxud.ec';

/** The envelope of one message: who sends it to whom, when, under which identification. */
export interface MessageEnvelope {
  /** The sender's identification at the national transit application (here the declarant's EORI). */
  sender: string;
  /** `NTA.` and the country of the office of departure, as the national applications name themselves. */
  recipient: string;
  /** Unique per sender, at most 35 characters. */
  messageId: string;
  preparedAt: Date;
}

/**
 * The envelope the product sends a declaration's IE015 in: from the declarant (else the holder), to the
 * national transit application of the office of departure's country.
 */
export function envelopeOf(d: Declaration, messageId: string, preparedAt: Date): MessageEnvelope {
  return {
    sender: d.declarant?.eori ?? d.holder?.eori ?? 'FVG',
    recipient: `NTA.${(d.officeOfLodgement ?? '').slice(0, 2).toUpperCase()}`,
    messageId,
    preparedAt,
  };
}

type Node = XMLBuilder;

/** An element with text, left out when there is none (every optional leaf of the schema). */
function leaf(parent: Node, name: string, value: string | number | null | undefined): void {
  if (value === null || value === undefined) return;
  const text = String(value).trim();
  if (text === '') return;
  parent.ele(name).txt(text);
}

/** `2026-11-29T10:18:16`: the schema's date-time, without a zone (the message's local time is UTC here). */
export function nctsDateTime(at: Date): string {
  return at.toISOString().slice(0, 19);
}

/** '2150.500' → '2150.5', '800.000' → '800': the schema's decimals have no trailing zeros to carry. */
function decimal(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/** The schema's texts have no leading or trailing spaces, and at most `max` characters. */
function text(value: string | null | undefined, max: number): string | null {
  const t = value?.replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, max) : null;
}

function address(parent: Node, party: DeclarationParty): void {
  const street = text(party.street, 70);
  const city = text(party.city, 35);
  if (!street || !city || !party.countryCode) return;
  const a = parent.ele('Address');
  leaf(a, 'streetAndNumber', street);
  leaf(a, 'postcode', text(party.postalCode, 17));
  leaf(a, 'city', city);
  leaf(a, 'country', party.countryCode);
}

/** Consignor, consignee, holder: identification number (EORI), name and address, each where known. */
function trader(parent: Node, name: string, party: DeclarationParty | null): void {
  if (!party) return;
  const p = parent.ele(name);
  leaf(p, 'identificationNumber', party.eori);
  leaf(p, 'name', text(party.name, 70));
  address(p, party);
}

/** The guarantee types that secure an amount (a waiver of type 0, 5, 8, A, R or B has no reference). */
const SECURING = ['1', '2', '3', '4', '9'];

export function ie015(d: Declaration, envelope: MessageEnvelope): string {
  if (d.type !== 'transit') throw new Error(`IE015 is a transit declaration; ${d.lrn} is an ${d.type}`);
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(NCTS_NAMESPACE, 'ncts:CC015C', {
    PhaseID: 'NCTS6',
  });
  leaf(root, 'messageSender', envelope.sender);
  leaf(root, 'messageRecipient', envelope.recipient);
  leaf(root, 'preparationDateAndTime', nctsDateTime(envelope.preparedAt));
  leaf(root, 'messageIdentification', envelope.messageId);
  leaf(root, 'messageType', 'CC015C');

  const op = root.ele('TransitOperation');
  leaf(op, 'LRN', d.lrn);
  leaf(op, 'declarationType', d.category);
  // A: a standard declaration, lodged with the goods presented (not pre-lodged, D).
  leaf(op, 'additionalDeclarationType', 'A');
  // 0: no safety and security data (no entry or exit summary declaration combined with it).
  leaf(op, 'security', '0');
  leaf(op, 'reducedDatasetIndicator', '0');
  leaf(op, 'bindingItinerary', '0');
  leaf(op, 'limitDate', d.limitDate);

  // The lodging rules let a transit name only the authorisations of code list CL235; at most 9.
  d.authorisations
    .filter((a) => TRANSIT_AUTHORISATION_TYPES.includes(a.type))
    .slice(0, 9)
    .forEach((a, i) => {
      const auth = root.ele('Authorisation');
      leaf(auth, 'sequenceNumber', i + 1);
      leaf(auth, 'type', a.type);
      leaf(auth, 'referenceNumber', a.reference);
    });

  root
    .ele('CustomsOfficeOfDeparture')
    .ele('referenceNumber')
    .txt(d.officeOfLodgement ?? '');
  root
    .ele('CustomsOfficeOfDestinationDeclared')
    .ele('referenceNumber')
    .txt(d.officeOfDestination ?? '');
  d.officesOfTransit.forEach((office, i) => {
    const t = root.ele('CustomsOfficeOfTransitDeclared');
    leaf(t, 'sequenceNumber', i + 1);
    leaf(t, 'referenceNumber', office);
  });

  const holder = root.ele('HolderOfTheTransitProcedure');
  leaf(holder, 'identificationNumber', d.holder?.eori);
  leaf(holder, 'name', text(d.holder?.name, 70));
  if (d.holder) address(holder, d.holder);

  if (d.representativeStatus && d.representativeStatus !== '1' && d.representative?.eori) {
    const rep = root.ele('Representative');
    leaf(rep, 'identificationNumber', d.representative.eori);
    leaf(rep, 'status', d.representativeStatus);
  }

  const guarantee = root.ele('Guarantee');
  leaf(guarantee, 'sequenceNumber', 1);
  leaf(guarantee, 'guaranteeType', d.guaranteeType);
  if (d.guaranteeType && SECURING.includes(d.guaranteeType) && d.guaranteeAmount) {
    const ref = guarantee.ele('GuaranteeReference');
    leaf(ref, 'sequenceNumber', 1);
    leaf(ref, 'GRN', d.guaranteeReference);
    leaf(ref, 'amountToBeCovered', d.guaranteeAmount);
    leaf(ref, 'currency', 'EUR');
  }

  const totals = declarationTotals('transit', d.items);
  const c = root.ele('Consignment');
  leaf(c, 'countryOfDispatch', d.countryOfDispatch);
  leaf(c, 'countryOfDestination', d.countryOfDestination);
  leaf(c, 'containerIndicator', d.containerIndicator ? '1' : '0');
  leaf(c, 'inlandModeOfTransport', d.transportModeInland);
  leaf(c, 'modeOfTransportAtTheBorder', d.transportModeBorder);
  leaf(c, 'grossMass', decimal(totals.grossMassKg));
  trader(c, 'Consignor', d.consignor);
  trader(c, 'Consignee', d.consignee);

  // One transport equipment per container with its seals, naming the items it carries; seals on no
  // container (the vehicle's, the load compartment's) make one equipment without a number, for all items.
  const containers = [...new Set(d.items.flatMap((i) => i.containers))];
  const equipment = containers.map((container) => ({
    container: container as string | null,
    seals: d.seals.filter((s) => s.container === container),
    items: d.items.filter((i) => i.containers.includes(container)),
  }));
  const looseSeals = d.seals.filter((s) => !s.container || !containers.includes(s.container));
  if (looseSeals.length) equipment.push({ container: null, seals: looseSeals, items: d.items });
  equipment.forEach((e, n) => {
    const eq = c.ele('TransportEquipment');
    leaf(eq, 'sequenceNumber', n + 1);
    leaf(eq, 'containerIdentificationNumber', e.container);
    leaf(eq, 'numberOfSeals', e.seals.length);
    e.seals.forEach((seal, m) => {
      const s = eq.ele('Seal');
      leaf(s, 'sequenceNumber', m + 1);
      leaf(s, 'identifier', seal.identifier);
    });
    e.items.forEach((i, m) => {
      const g = eq.ele('GoodsReference');
      leaf(g, 'sequenceNumber', m + 1);
      leaf(g, 'declarationGoodsItemNumber', i.position);
    });
  });

  locationOfGoods(c, d);

  if (d.meansAtDeparture && d.meansAtDepartureCountry) {
    const means = c.ele('DepartureTransportMeans');
    leaf(means, 'sequenceNumber', 1);
    // 99: another identification than the ones the code list names (the product keeps the text).
    leaf(means, 'typeOfIdentification', '99');
    leaf(means, 'identificationNumber', text(d.meansAtDeparture, 35)?.replace(/\s/g, ''));
    leaf(means, 'nationality', d.meansAtDepartureCountry);
  }

  d.additionalInformation.forEach((a, i) => {
    const info = c.ele('AdditionalInformation');
    leaf(info, 'sequenceNumber', i + 1);
    leaf(info, 'code', a.code);
    leaf(info, 'text', text(a.text, 512));
  });

  const house = c.ele('HouseConsignment');
  leaf(house, 'sequenceNumber', 1);
  leaf(house, 'grossMass', decimal(totals.grossMassKg));
  d.items.forEach((item, i) => {
    const ci = house.ele('ConsignmentItem');
    leaf(ci, 'goodsItemNumber', i + 1);
    leaf(ci, 'declarationGoodsItemNumber', item.position);
    const commodity = ci.ele('Commodity');
    leaf(commodity, 'descriptionOfGoods', text(item.description, 512));
    const code = item.commodityCode ?? '';
    if (code.length >= 6) {
      const cc = commodity.ele('CommodityCode');
      leaf(cc, 'harmonizedSystemSubHeadingCode', code.slice(0, 6));
      if (code.length >= 8) leaf(cc, 'combinedNomenclatureCode', code.slice(6, 8));
    }
    const measure = commodity.ele('GoodsMeasure');
    leaf(measure, 'grossMass', decimal(item.grossMassKg ?? '0'));
    leaf(measure, 'netMass', item.netMassKg ? decimal(item.netMassKg) : null);
    const packaging = ci.ele('Packaging');
    leaf(packaging, 'sequenceNumber', 1);
    leaf(packaging, 'typeOfPackages', item.packageKind);
    leaf(packaging, 'numberOfPackages', item.packages);
    leaf(packaging, 'shippingMarks', text(item.marks, 512));
    item.previousDocuments.forEach((doc, j) => {
      const p = ci.ele('PreviousDocument');
      leaf(p, 'sequenceNumber', j + 1);
      leaf(p, 'type', doc.type);
      leaf(p, 'referenceNumber', text(doc.reference, 70));
    });
    item.supportingDocuments.forEach((doc, j) => {
      const s = ci.ele('SupportingDocument');
      leaf(s, 'sequenceNumber', j + 1);
      leaf(s, 'type', doc.type);
      leaf(s, 'referenceNumber', text(doc.reference, 70));
    });
  });

  return root.end({ prettyPrint: true });
}

/**
 * DE 5/23 as NCTS carries it: the type and qualifier, then the one element the qualifier names. The
 * lodging rules let a transit use U, V, X or Y only (an address or coordinates the product does not
 * hold as their parts); anything else leaves the optional group out rather than send it half.
 */
function locationOfGoods(parent: Node, d: Declaration): void {
  const id = d.locationOfGoods?.trim().toUpperCase();
  const q = d.locationOfGoodsQualifier;
  if (!id || !d.locationOfGoodsType || !q || !['U', 'V', 'X', 'Y'].includes(q)) return;
  const l = parent.ele('LocationOfGoods');
  leaf(l, 'typeOfLocation', d.locationOfGoodsType);
  leaf(l, 'qualifierOfIdentification', q);
  if (q === 'Y') leaf(l, 'authorisationNumber', id);
  if (q === 'U') leaf(l, 'UNLocode', id);
  if (q === 'V') l.ele('CustomsOffice').ele('referenceNumber').txt(id);
  if (q === 'X') l.ele('EconomicOperator').ele('identificationNumber').txt(id);
}
