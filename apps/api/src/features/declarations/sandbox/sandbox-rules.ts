import {
  compareDecimal,
  type DeclarationStatus,
  type DeclarationType,
  isDecimal,
  isEuCountry,
  subtractDecimal,
  sumDecimal,
} from '@fvg/contracts';
import { printMoney } from '../../../print/format.ts';

/** One rule an answer cites: its code, a sentence, and the declaration field it is about (a path). */
export interface SandboxRule {
  code: string;
  text: string;
  field: string | null;
}

/**
 * The sandbox's own rule book (ADR 0033, README "Sandbox authority"): what a real authority checks on
 * top of the completeness and format checks the API runs before lodging. Codes never change meaning.
 */
export const SANDBOX_RULES = {
  'SBX-R101': 'The office of lodgement (departure for transit) is a customs office of the Union',
  'SBX-R102': 'The office of exit or entry is a customs office of the Union',
  'SBX-R103': 'The office of destination of a transit is in a common transit country',
  'SBX-R104': 'Every office of transit is in a common transit country',
  'SBX-R201': "The declarant's EORI was issued in the Union",
  'SBX-R202': "The representative's EORI was issued in the Union",
  'SBX-R203': "The transit holder's EORI was issued in the Union",
  'SBX-R301': 'An export leaves the customs territory of the Union',
  'SBX-R302': 'An export is dispatched from a member state',
  'SBX-R303': 'Imported goods do not come from the country they are declared in',
  'SBX-R304': 'The commodity code names an existing HS chapter (01–97, not 77)',
  'SBX-R305': 'The invoice total equals the sum of the items’ invoice values (± 0.01 per item)',
  'SBX-R306': 'A transit guarantee covers at least 1,000.00 EUR',
  'SBX-R307': 'A guarantee waiver of type 5 covers at most 500.00 EUR',
  'SBX-R308': 'An N830 previous document of a transit is a valid export MRN (A, B or E in position 17)',
  'SBX-R401': 'No amendment while the goods are examined',
  'SBX-R402': 'No amendment once the goods are released or refused',
  'SBX-R403': 'No request on a closed declaration',
  'SBX-R404': 'Import goods released for free circulation cannot be invalidated',
  'SBX-R405': 'Exported goods that left the Union cannot be invalidated',
  'SBX-R406': 'A transit that arrived cannot be invalidated',
  'SBX-R900': 'The declaration is complete (the same checks the API runs before lodging)',
} as const;
export type SandboxRuleCode = keyof typeof SANDBOX_RULES;

/** Floor of a transit guarantee the sandbox accepts (EUR). */
export const TRANSIT_GUARANTEE_FLOOR = '1000.00';
/** Most a waiver of type 5 covers (EUR). */
const WAIVER_5_CEILING = '500.00';
/** Guarantee types the floor applies to: real guarantees, not waivers or exempt bodies. */
const GUARANTEES_WITH_FLOOR = ['1', '2', '3', '4', '9'];

/**
 * Contracting parties of the Convention on a common transit procedure besides the Union (EFTA
 * countries, Türkiye, North Macedonia, Serbia, the United Kingdom, Ukraine, Georgia): a transit may
 * end or pass there.
 */
const COMMON_TRANSIT_COUNTRIES = ['CH', 'IS', 'NO', 'LI', 'TR', 'MK', 'RS', 'GB', 'UA', 'GE'];

/** Customs territory of the Union: the member states, Northern Ireland (XI) and Monaco (French customs). */
function inCustomsTerritory(country: string): boolean {
  return isEuCountry(country) || country === 'XI' || country === 'MC';
}

/** A country prefix the Union issues customs office references and EORIs under. */
function unionPrefix(reference: string): boolean {
  const p = reference.slice(0, 2).toUpperCase();
  return isEuCountry(p) || p === 'XI';
}

interface PartyView {
  eori: string | null;
}
interface DocumentView {
  type: string;
  reference: string;
}
interface ItemView {
  commodityCode: string | null;
  invoiceValue: string | null;
  previousDocuments: DocumentView[];
}
/** What the rules read of a declaration (the contract's `Declaration` has these fields). */
export interface AuthorityView {
  type: DeclarationType;
  declarant: PartyView | null;
  representative: PartyView | null;
  holder: PartyView | null;
  officeOfLodgement: string | null;
  officeOfExitEntry: string | null;
  officeOfDestination: string | null;
  officesOfTransit: string[];
  countryOfDispatch: string | null;
  countryOfDestination: string | null;
  currency: string | null;
  invoiceTotal: string | null;
  guaranteeType: string | null;
  guaranteeAmount: string | null;
  items: ItemView[];
}

const rule = (code: SandboxRuleCode, text: string, field: string | null): SandboxRule => ({
  code,
  text,
  field,
});

const eur = (amount: string) => printMoney(amount, 'EUR');

/**
 * The authority's checks of a lodged declaration (pure; `mrnProblem` is passed in so the rules of the
 * MRN stay the contracts' own). Returns every rule broken, in a stable order; [] accepts.
 */
export function authorityProblems(
  d: AuthorityView,
  mrnProblem: (value: string, type: DeclarationType) => string | undefined,
): SandboxRule[] {
  const out: SandboxRule[] = [];
  const lodgement = d.officeOfLodgement?.toUpperCase();
  if (lodgement && !unionPrefix(lodgement))
    out.push(
      rule(
        'SBX-R101',
        `Office of ${d.type === 'transit' ? 'departure' : 'lodgement'} ${lodgement} is not a customs office of the Union`,
        'officeOfLodgement',
      ),
    );
  const exitEntry = d.officeOfExitEntry?.toUpperCase();
  if (exitEntry && d.type !== 'transit' && !unionPrefix(exitEntry))
    out.push(
      rule(
        'SBX-R102',
        `Office of ${d.type === 'export' ? 'exit' : 'entry'} ${exitEntry} is not a customs office of the Union`,
        'officeOfExitEntry',
      ),
    );
  if (d.type === 'transit') {
    const transitCountry = (office: string) =>
      unionPrefix(office) || COMMON_TRANSIT_COUNTRIES.includes(office.slice(0, 2).toUpperCase());
    const destination = d.officeOfDestination?.toUpperCase();
    if (destination && !transitCountry(destination))
      out.push(
        rule(
          'SBX-R103',
          `Office of destination ${destination} is not in a common transit country`,
          'officeOfDestination',
        ),
      );
    d.officesOfTransit.forEach((office, i) => {
      if (!transitCountry(office))
        out.push(
          rule(
            'SBX-R104',
            `Office of transit ${office.toUpperCase()} is not in a common transit country`,
            `officesOfTransit.${i}`,
          ),
        );
    });
  }

  const eoriRule = (code: SandboxRuleCode, who: string, party: PartyView | null, field: string) => {
    const eori = party?.eori?.toUpperCase();
    if (eori && !unionPrefix(eori))
      out.push(rule(code, `${who} EORI ${eori} was not issued in the Union`, `${field}.eori`));
  };
  eoriRule('SBX-R201', 'Declarant', d.declarant, 'declarant');
  eoriRule('SBX-R202', 'Representative', d.representative, 'representative');
  if (d.type === 'transit') eoriRule('SBX-R203', 'Holder of the transit procedure', d.holder, 'holder');

  const destination = d.countryOfDestination?.toUpperCase();
  const dispatch = d.countryOfDispatch?.toUpperCase();
  if (d.type === 'export') {
    if (destination && inCustomsTerritory(destination))
      out.push(
        rule(
          'SBX-R301',
          `Country of destination ${destination} is inside the customs territory of the Union: goods staying in the Union are not exported`,
          'countryOfDestination',
        ),
      );
    if (dispatch && !inCustomsTerritory(dispatch))
      out.push(
        rule(
          'SBX-R302',
          `Country of dispatch ${dispatch} is not a member state: an export leaves from the Union`,
          'countryOfDispatch',
        ),
      );
  }
  if (d.type === 'import' && dispatch && lodgement && dispatch === lodgement.slice(0, 2))
    out.push(
      rule(
        'SBX-R303',
        `Country of dispatch ${dispatch} is the country of the office of lodgement: the goods must come from elsewhere`,
        'countryOfDispatch',
      ),
    );

  d.items.forEach((item, i) => {
    const chapter = item.commodityCode?.slice(0, 2);
    if (chapter && (!/^\d{2}$/.test(chapter) || chapter === '00' || chapter === '77' || chapter > '97'))
      out.push(
        rule(
          'SBX-R304',
          `Commodity code ${item.commodityCode} names chapter ${chapter}, which the Harmonized System does not have`,
          `items.${i}.commodityCode`,
        ),
      );
  });

  if (d.type !== 'transit' && d.invoiceTotal && isDecimal(d.invoiceTotal) && d.items.length > 0) {
    const values = d.items.map((it) =>
      it.invoiceValue && isDecimal(it.invoiceValue) ? it.invoiceValue : '0',
    );
    const sum = sumDecimal(values);
    const gap = subtractDecimal(d.invoiceTotal, sum);
    const tolerance = (d.items.length / 100).toFixed(2);
    const abs = gap.startsWith('-') ? gap.slice(1) : gap;
    if (compareDecimal(abs, tolerance) > 0) {
      const currency = d.currency ?? 'EUR';
      out.push(
        rule(
          'SBX-R305',
          `Invoice total ${printMoney(d.invoiceTotal, currency)} differs from the sum of the items' invoice values, ${printMoney(sum, currency)}`.trim(),
          'invoiceTotal',
        ),
      );
    }
  }

  if (d.type === 'transit' && d.guaranteeAmount && isDecimal(d.guaranteeAmount)) {
    if (
      d.guaranteeType &&
      GUARANTEES_WITH_FLOOR.includes(d.guaranteeType) &&
      compareDecimal(d.guaranteeAmount, TRANSIT_GUARANTEE_FLOOR) < 0
    )
      out.push(
        rule(
          'SBX-R306',
          `Guarantee amount ${eur(d.guaranteeAmount)} is below the ${eur(TRANSIT_GUARANTEE_FLOOR)} a transit guarantee must cover`,
          'guaranteeAmount',
        ),
      );
    if (d.guaranteeType === '5' && compareDecimal(d.guaranteeAmount, WAIVER_5_CEILING) > 0)
      out.push(
        rule(
          'SBX-R307',
          `Guarantee amount ${eur(d.guaranteeAmount)} is above the ${eur(WAIVER_5_CEILING)} a type 5 waiver covers`,
          'guaranteeAmount',
        ),
      );
  }

  if (d.type === 'transit')
    d.items.forEach((item, i) => {
      item.previousDocuments.forEach((doc, j) => {
        if (doc.type !== 'N830') return;
        const problem =
          mrnProblem(doc.reference, 'export') ??
          (['A', 'B', 'E'].includes(doc.reference[16] ?? '')
            ? undefined
            : 'position 17 of the export declaration of goods in transit is A, B or E');
        if (problem)
          out.push(
            rule(
              'SBX-R308',
              `Previous document ${doc.reference} is not a valid export MRN: ${problem}`,
              `items.${i}.previousDocuments.${j}.reference`,
            ),
          );
      });
    });
  return out;
}

/**
 * Why an amendment request is refused in this status, or undefined when the sandbox examines it.
 * Answered by the status at the time of the answer, so a request that waited while the goods were
 * released is refused by the rule, not by the status it was asked in.
 */
export function amendmentRefusal(status: DeclarationStatus): SandboxRule | undefined {
  if (status === 'accepted' || status === 'lodged') return undefined;
  if (status === 'under_control')
    return rule('SBX-R401', 'The goods are being examined; amendments wait for the control result', null);
  if (
    status === 'released' ||
    status === 'not_released' ||
    status === 'exited' ||
    status === 'arrived' ||
    status === 'discharged'
  )
    return rule(
      'SBX-R402',
      status === 'not_released'
        ? 'The goods were refused release; the declaration can no longer be amended'
        : 'The goods have already been released; the declaration can no longer be amended',
      null,
    );
  return rule('SBX-R403', 'The declaration is closed; there is nothing to amend', null);
}

/** Why a cancellation (invalidation) request is refused in this status, or undefined when it is granted. */
export function cancellationRefusal(
  type: DeclarationType,
  status: DeclarationStatus,
): SandboxRule | undefined {
  if (status === 'lodged' || status === 'accepted' || status === 'under_control') return undefined;
  if (status === 'released') {
    if (type !== 'import') return undefined;
    return rule(
      'SBX-R404',
      'The goods have been released for free circulation; an import declaration can no longer be invalidated',
      null,
    );
  }
  if (status === 'exited')
    return rule(
      'SBX-R405',
      'The goods have left the Union; the export declaration can no longer be invalidated',
      null,
    );
  if (status === 'arrived' || status === 'discharged')
    return rule(
      'SBX-R406',
      'The goods have arrived at destination; the transit declaration can no longer be invalidated',
      null,
    );
  return rule('SBX-R403', 'The declaration is closed; there is nothing to invalidate', null);
}
