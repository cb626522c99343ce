import {
  type Dossier,
  type DossierStatus,
  transitionFactProblems,
  transitionFactWarnings,
} from '@fvg/contracts';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import type { TransitionFacts } from '../../../components/records/transition-buttons.tsx';

/** Today in the user's calendar, as the API's dates read. */
export function todayLocal(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * What the dossier's status actions ask (ADR 0022): confirming a booking names its handler (me by
 * default), marking it departed or arrived states the day (today by default). The contracts' rules
 * run as the user types, and a day far before the plan warns without blocking.
 */
export function dossierTransitionFacts(
  d: Pick<Dossier, 'etd' | 'eta' | 'atd'>,
  handler: { source: LookupSource; me?: { id: string; name: string } | null | undefined },
): Partial<Record<DossierStatus, TransitionFacts>> {
  const plan = { etd: d.etd, eta: d.eta, atd: d.atd };
  return {
    booked: {
      intro: 'Who handles this dossier from now on?',
      fields: [
        {
          name: 'handlerId',
          label: 'Handler',
          kind: 'lookup',
          source: handler.source,
          initial: () => handler.me?.id ?? '',
          knownOption: handler.me ? { value: handler.me.id, label: handler.me.name } : null,
        },
      ],
    },
    in_transit: {
      intro: 'When did it depart?',
      fields: [{ name: 'atd', label: 'Departed on (ATD)', kind: 'date', initial: () => todayLocal() }],
      problems: (v) => transitionFactProblems(plan, { atd: v.atd }),
      warnings: (v) => transitionFactWarnings(plan, { atd: v.atd }),
    },
    arrived: {
      intro: 'When did it arrive?',
      fields: [{ name: 'ata', label: 'Arrived on (ATA)', kind: 'date', initial: () => todayLocal() }],
      problems: (v) => transitionFactProblems(plan, { ata: v.ata }),
      warnings: (v) => transitionFactWarnings(plan, { ata: v.ata }),
    },
  };
}
