import {
  type DeclarationStatus,
  type DeclarationType,
  type LodgingInput,
  lodgingProblems,
  type RuleProblem,
} from '@fvg/contracts';

/** One rule an answer cites: its code, a sentence, and the declaration field it is about (a path). */
export interface SandboxRule {
  code: string;
  text: string;
  field: string | null;
}

/**
 * The sandbox's own rule book (ADR 0033, docs/areas/customs.md). Since ADR 0047 the R1xx–R3xx
 * rules are checks of the shared pre-lodging rule function (the API refuses them before anything is
 * sent; the sandbox cites them if a received declaration still breaks one). Codes never change meaning.
 */
export const SANDBOX_RULES = {
  'SBX-R101':
    'The office of lodgement (departure for transit) is a customs office of the Union (UCC art. 159)',
  'SBX-R102':
    'The office of exit or entry is a customs office of the Union (exit: IA art. 329; entry: UCC art. 127)',
  'SBX-R103':
    'The office of destination of a transit is in a common transit country (Convention on a common transit procedure, art. 1)',
  'SBX-R104':
    'Every office of transit is in a common transit country (Convention on a common transit procedure, art. 1)',
  'SBX-R201': "The declarant's EORI was issued in the Union (UCC art. 9)",
  'SBX-R202': "The representative's EORI was issued in the Union (UCC art. 9)",
  'SBX-R203': "The transit holder's EORI was issued in the Union (UCC art. 9)",
  'SBX-R301': 'An export leaves the customs territory of the Union (UCC art. 269)',
  'SBX-R302': 'An export is dispatched from a member state (UCC art. 269)',
  'SBX-R303':
    'Imported goods do not come from the country they are declared in (a plausibility check of FVG, not a legal rule)',
  'SBX-R304':
    'The commodity code names an existing HS chapter, 01–97 and not 77 (Combined Nomenclature, Regulation (EEC) No 2658/87, Annex I)',
  'SBX-R305':
    'The invoice total equals the sum of the items’ invoice values, to the cent (Annex B, DE 4/11 and 4/14)',
  // Retired (issue 26, ADR 0033): a fixed floor of the product's own invention, replaced by SBX-R309.
  // Kept so that answers stored before cite a rule that still reads.
  'SBX-R306':
    'Retired: a transit guarantee covered at least 1,000.00 EUR (a rule of the sandbox, no legal source)',
  'SBX-R307': 'A guarantee waiver of type 5 covers at most 500.00 EUR of duties and taxes (UCC art. 89(9))',
  'SBX-R308':
    'An N830 previous document of a transit is a valid export MRN, A, B or E in position 17 (Annex B, DE 2/1)',
  'SBX-R309':
    'A transit guarantee covers the duties and taxes at stake on the items, at the highest rates of the country of departure (UCC art. 89–90, IA art. 148)',
  'SBX-R401': 'No amendment while the goods are examined (UCC art. 173(2)(a))',
  'SBX-R402': 'No amendment once the goods are released or refused (UCC art. 173(2)(c))',
  'SBX-R403': 'No request on a closed declaration (UCC art. 173(2), 174(2))',
  'SBX-R404': 'Import goods released for free circulation cannot be invalidated (UCC art. 174(2))',
  'SBX-R405': 'Exported goods that left the Union cannot be invalidated (UCC art. 174(2))',
  'SBX-R406': 'A transit that arrived cannot be invalidated (UCC art. 174(2))',
  'SBX-R407': 'No invalidation once a control is announced (UCC art. 174(1))',
  'SBX-R501':
    'The goods have been presented to customs at the location of goods, UCC art. 139 (only the authority’s records show it; the sandbox does not simulate presentation, a real authority answers it)',
  'SBX-R900':
    'The declaration is complete: the data Annex B requires, UCC art. 162 (the same checks the API runs before lodging)',
} as const;
export type SandboxRuleCode = keyof typeof SANDBOX_RULES;

const rule = (code: SandboxRuleCode, text: string, field: string | null): SandboxRule => ({
  code,
  text,
  field,
});

/** The sandbox's rule number for each code of the shared rule function (by field where one code covers several). */
function sandboxCode(problem: RuleProblem): SandboxRuleCode {
  const { code, field } = problem;
  switch (code) {
    case 'office-outside-union':
      return field === 'officeOfLodgement' ? 'SBX-R101' : 'SBX-R102';
    case 'office-outside-common-transit':
      return field === 'officeOfDestination' ? 'SBX-R103' : 'SBX-R104';
    case 'eori-outside-union':
      return field.startsWith('declarant')
        ? 'SBX-R201'
        : field.startsWith('representative')
          ? 'SBX-R202'
          : 'SBX-R203';
    case 'export-stays-in-union':
      return 'SBX-R301';
    case 'export-not-from-union':
      return 'SBX-R302';
    case 'import-from-country-of-lodgement':
      return 'SBX-R303';
    case 'hs-chapter':
      return 'SBX-R304';
    case 'invoice-total':
      return 'SBX-R305';
    case 'guarantee-amount':
      return 'SBX-R309';
    case 'guarantee-waiver-limit':
      return 'SBX-R307';
    case 'previous-export-mrn':
      return 'SBX-R308';
    default:
      return 'SBX-R900';
  }
}

/**
 * The authority's checks of a received declaration: the very rule function the API runs before lodging
 * (ADR 0047), each problem cited under the sandbox's stable rule number. Since the API refuses to send
 * what fails it, a rejection here means the content changed between the check and the answer (a rule
 * of a newer version, a change made meanwhile); what only an authority decides (control, release,
 * requests answered by the status they meet) is the rest of this file. [] accepts.
 */
export function authorityProblems(d: LodgingInput): SandboxRule[] {
  return lodgingProblems(d).map((p) => rule(sandboxCode(p), p.message, p.field));
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
  if (status === 'lodged' || status === 'accepted') return undefined;
  if (status === 'under_control')
    return rule(
      'SBX-R407',
      'Customs have announced a control of the goods; the declaration cannot be invalidated while they are examined',
      null,
    );
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
