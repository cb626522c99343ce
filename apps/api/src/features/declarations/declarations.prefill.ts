import {
  type Company,
  type CustomsTransportMode,
  type DeclarationItemParsed,
  type DeclarationParty,
  type DeclarationType,
  fitsNumeric,
  PACKAGE_KINDS,
  type PackageKind,
  type RepresentativeStatus,
} from '@fvg/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * What a new declaration takes from its dossier (issue 12: parties with their EORI, goods, packages,
 * masses, containers, references, transport) and from the company (the representative). Fields the
 * request sends win over these; everything here is a suggestion a clerk completes before lodging.
 */

export interface DossierForDeclaration {
  id: string;
  number: string;
  mode: string;
  customer_id: string;
  consignor_id: string | null;
  consignee_id: string | null;
  incoterm: string | null;
  incoterm_place: string | null;
  origin_locode: string | null;
  destination_locode: string | null;
  master_bl: string | null;
  house_bl: string | null;
  cmr_number: string | null;
  cargo_description: string | null;
  packages: number | null;
  package_type: string | null;
  gross_weight_kg: string | null;
  container_numbers: string[];
}

export async function dossierForDeclaration(db: Db, id: string): Promise<DossierForDeclaration | undefined> {
  // The dossier's containers, and those only its tracked events know (linked by BL or booking): a sea
  // dossier with containers makes a containerised declaration either way (issue 27 item 5).
  const r = await sql<DossierForDeclaration>`
    select d.id, d.number, d.mode, d.customer_id, d.consignor_id, d.consignee_id, d.incoterm, d.incoterm_place,
      d.origin_locode, d.destination_locode, d.master_bl, d.house_bl, d.cmr_number, d.cargo_description,
      d.packages, d.package_type, d.gross_weight_kg::text,
      d.container_numbers || array(
        select s.equipment_reference::text from container_summaries s
        where s.dossier_id = d.id and not s.equipment_reference = any(d.container_numbers)
        order by s.equipment_reference) as container_numbers
    from dossiers d where d.id = ${id}`.execute(db);
  return r.rows[0];
}

/** Parties as a declaration names them, with the EORI the party record keeps. */
export async function partiesById(db: Db, ids: (string | null | undefined)[]) {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  const out = new Map<string, DeclarationParty>();
  if (!wanted.length) return out;
  const rows = await db
    .selectFrom('parties')
    .select(['id', 'name', 'street', 'postal_code', 'city', 'country_code', 'eori'])
    .where('id', 'in', wanted)
    .execute();
  for (const p of rows)
    out.set(p.id, {
      partyId: p.id,
      name: p.name,
      street: p.street,
      postalCode: p.postal_code,
      city: p.city,
      countryCode: p.country_code,
      eori: p.eori,
    });
  return out;
}

/** The forwarder as the representative (SAD box 14), from the company settings. */
export function companyParty(company: Company): DeclarationParty {
  return {
    partyId: null,
    name: company.legalName,
    street: company.street,
    postalCode: company.postalCode,
    city: company.city,
    countryCode: company.countryCode,
    eori: company.eori,
  };
}

const MODE_OF: Readonly<Record<string, CustomsTransportMode>> = { sea: '1', rail: '2', road: '3', air: '4' };

/** The package kind a dossier's free-text package type obviously means; null when it is not obvious. */
export function packageKindOf(packageType: string | null): PackageKind | null {
  if (!packageType) return null;
  const t = packageType.trim().toUpperCase();
  if ((PACKAGE_KINDS as readonly string[]).includes(t)) return t as PackageKind;
  const words: [RegExp, PackageKind][] = [
    [/PALLET|\bPLT/, 'PX'],
    [/CARTON|\bCTN/, 'CT'],
    [/\bBAGS?\b|SACK/, 'BG'],
    [/\bBOX(ES)?\b/, 'BX'],
    [/\bCASES?\b/, 'CS'],
    [/DRUM/, 'DR'],
    [/CRATE/, 'CR'],
    [/\bROLLS?\b/, 'RO'],
    [/UNPACKED|LOOSE/, 'NE'],
    [/PACKAGE|\bPKGS?\b|PIECE|\bPCS\b/, 'PK'],
  ];
  return words.find(([re]) => re.test(t))?.[1] ?? null;
}

const countryOfLocode = (l: string | null) => (l && /^[A-Z]{2}/.test(l) ? l.slice(0, 2) : null);

/** The default procedure code of the type's one goods item (release for free circulation, export). */
const DEFAULT_PROCEDURE: Readonly<Record<DeclarationType, string | null>> = {
  import: '4000',
  export: '1000',
  transit: null,
};

/**
 * The parties of a new declaration: the customer is the declarant (and the importer of an import, the
 * exporter of an export), the forwarder its direct representative; the dossier adds the other side.
 * A transit's holder of the procedure is the forwarder, whose guarantee covers it.
 */
export function partiesFor(
  type: DeclarationType,
  customer: DeclarationParty | null,
  company: DeclarationParty,
  consignor: DeclarationParty | null,
  consignee: DeclarationParty | null,
) {
  return {
    declarant: customer,
    representative: company,
    representativeStatus: '2' as RepresentativeStatus,
    consignor: type === 'export' ? customer : consignor,
    consignee: type === 'import' ? customer : consignee,
    holder: type === 'transit' ? company : null,
  };
}

/** The header and the one goods item a dossier suggests. */
export function prefillFromDossier(type: DeclarationType, d: DossierForDeclaration) {
  const mode = MODE_OF[d.mode] ?? null;
  const documentType = d.mode === 'air' ? 'N740' : 'N705';
  const supportingDocuments = [
    ...(d.house_bl ? [{ type: documentType, reference: d.house_bl }] : []),
    ...(d.master_bl ? [{ type: documentType, reference: d.master_bl }] : []),
    ...(d.cmr_number ? [{ type: 'N730', reference: d.cmr_number }] : []),
  ] as DeclarationItemParsed['supportingDocuments'];
  // A mass the item's column cannot hold, or none, is left for the clerk.
  const gross =
    d.gross_weight_kg && Number(d.gross_weight_kg) > 0 && fitsNumeric(d.gross_weight_kg, 14, 3)
      ? d.gross_weight_kg
      : null;
  const item: DeclarationItemParsed = {
    commodityCode: null,
    description: d.cargo_description ? d.cargo_description.slice(0, 512) : null,
    countryOfOrigin: null,
    preference: null,
    procedureCode: DEFAULT_PROCEDURE[type],
    // DE 1/11 000 (no additional procedure) and DE 4/16 1 (the transaction value): the usual case, the
    // clerk changes them where it is not.
    additionalProcedureCodes: type === 'transit' ? [] : ['000'],
    valuationMethod: type === 'import' ? '1' : null,
    supplementaryUnits: null,
    packages: d.packages !== null && d.packages >= 0 && d.packages <= 99_999_999 ? d.packages : null,
    packageKind: packageKindOf(d.package_type),
    marks: null,
    grossMassKg: gross,
    netMassKg: null,
    invoiceValue: null,
    customsValue: null,
    statisticalValue: null,
    dutyRate: null,
    vatRate: null,
    vatCosts: null,
    containers: d.container_numbers.slice(0, 99),
    supportingDocuments,
    previousDocuments: [],
  };
  return {
    header: {
      countryOfDispatch: countryOfLocode(d.origin_locode),
      countryOfDestination: countryOfLocode(d.destination_locode),
      transportModeBorder: mode,
      // The inland mode (box 26) is how the goods go on inside the Union (a sea import leaves the port by
      // road or rail): the dossier does not say, so the clerk chooses it (issue 27 item 5).
      transportModeInland: null,
      containerIndicator: d.container_numbers.length > 0,
      incoterm: d.incoterm,
      incotermPlace: d.incoterm_place,
    },
    item,
  };
}
