import {
  DECLARATION_TYPE_LABELS,
  type DeclarationMessageKind,
  type DeclarationType,
  SANDBOX_LABEL,
} from '@fvg/contracts';
import type { Db } from '../../../db/database.ts';
import type { SandboxRule } from './sandbox-rules.ts';

export interface MessageWrite {
  declarationId: string;
  direction: 'sent' | 'received';
  kind: DeclarationMessageKind;
  summary: string;
  mrn: string | null;
  rules?: SandboxRule[];
  payload?: unknown;
  /** The user who sent it; null for what the authority answered. */
  createdBy: string | null;
}

/** Stores one message of the declaration's log; its summary always carries the sandbox label. */
export async function insertMessage(trx: Db, m: MessageWrite): Promise<string> {
  const row = await trx
    .insertInto('declaration_messages')
    .values({
      declaration_id: m.declarationId,
      direction: m.direction,
      kind: m.kind,
      summary: labelled(m.summary),
      mrn: m.mrn,
      rules: JSON.stringify(m.rules ?? []),
      payload: m.payload === undefined ? null : JSON.stringify(m.payload),
      sandbox: true,
      created_by: m.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** `Sandbox authority — not a real customs lodgement: …`, so no one takes a message for a real lodgement. */
export function labelled(summary: string): string {
  return summary.startsWith(SANDBOX_LABEL) ? summary : `${SANDBOX_LABEL}: ${summary}`;
}

function rulesText(rules: SandboxRule[]): string {
  const first = rules[0];
  if (!first) return '';
  const more = rules.length > 1 ? ` (and ${rules.length - 1} more)` : '';
  return `${first.code} ${first.text}${more}`;
}

/** The sentence of each message the sandbox sends or answers. */
export const summaries = {
  lodge: (type: DeclarationType, lrn: string) => `${DECLARATION_TYPE_LABELS[type]} declaration ${lrn} lodged`,
  amendmentRequest: (ref: string, reason: string) => `Amendment of ${ref} requested: ${reason}`,
  cancellationRequest: (ref: string, reason: string) => `Invalidation of ${ref} requested: ${reason}`,
  accepted: (mrn: string) => `Declaration accepted, MRN ${mrn} allocated`,
  rejected: (rules: SandboxRule[]) => `Declaration rejected: ${rulesText(rules)}`,
  under_control: () => 'Selected for control: the goods will be examined before release',
  released: () => 'Goods released',
  not_released: () => 'Goods not released after control',
  exit_confirmed: () => 'Exit confirmed: the goods left the Union (proof for zero-rated export VAT)',
  arrived: (office: string | null) =>
    `Goods arrived at the office of destination${office ? ` ${office}` : ''}`,
  discharged: () => 'Transit procedure discharged',
  amendment_accepted: () => 'Amendment accepted and applied',
  amendment_rejected: (rules: SandboxRule[]) => `Amendment rejected: ${rulesText(rules)}`,
  cancellation_accepted: () => 'Declaration invalidated',
  cancellation_rejected: (rules: SandboxRule[]) => `Cancellation refused: ${rulesText(rules)}`,
  refusedMrn: (mrn: string, problem: string) =>
    `Answer refused: the MRN ${mrn} it carried fails the check (${problem}); the declaration stays lodged`,
};
