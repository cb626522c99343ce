import { randomUUID } from 'node:crypto';
import {
  AUTHORITY_TRANSITIONS,
  type Declaration,
  type DeclarationMessageKind,
  type DeclarationStatus,
  mrnProblem,
  SANDBOX_LABEL,
} from '@fvg/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { SandboxConfig, SandboxStep } from '../../../config.ts';
import type { Db } from '../../../db/database.ts';
import { inTransaction } from '../../../db/transaction.ts';
import { problems } from '../../../http/problem.ts';
import { enqueue, type Jobs } from '../../../jobs/jobs.ts';
import { envelopeOf, ie015 } from '../../../ncts/ie015.ts';
import { validateNcts } from '../../../ncts/validate.ts';
import { type Change, diff, writeAudit } from '../../../records/audit.ts';
import type { RecordEvents } from '../../../records/events.ts';
import { loadDeclaration, writeDeclarationContent } from '../declarations.repository.ts';
import type { CustomsGateway, GatewayRequest } from '../gateway.ts';
import { insertMessage, summaries } from './messages.ts';
import { allocateMrn } from './mrn.ts';
import { refusedRelease, selectedForControl } from './outcomes.ts';
import {
  amendmentRefusal,
  authorityProblems,
  cancellationRefusal,
  type SandboxRule,
} from './sandbox-rules.ts';

/** The payload of a `customs.sandbox` job: which declaration, which step, answering which sent message. */
export interface SandboxJob {
  declarationId: string;
  step: SandboxStep;
  /** The sent message this step answers (the lodgement for the whole chain, or the request). */
  messageId: string;
}

/** What the authority answers: a received message kind with what it carries. */
export type SandboxAnswer =
  | { kind: 'accepted'; mrn: string }
  | { kind: 'rejected' | 'amendment_rejected' | 'cancellation_rejected'; rules: SandboxRule[] }
  | {
      kind:
        | 'under_control'
        | 'released'
        | 'not_released'
        | 'exit_confirmed'
        | 'arrived'
        | 'discharged'
        | 'amendment_accepted'
        | 'cancellation_accepted';
    };

/** The status an answer moves the declaration to; requests that are refused or amend leave it. */
const STATUS_OF: Partial<Record<DeclarationMessageKind, DeclarationStatus>> = {
  accepted: 'accepted',
  rejected: 'rejected',
  under_control: 'under_control',
  released: 'released',
  not_released: 'not_released',
  exit_confirmed: 'exited',
  arrived: 'arrived',
  discharged: 'discharged',
  cancellation_accepted: 'cancelled',
};

/** The `*_at` column each status stamps. */
const STAMP_OF: Partial<
  Record<DeclarationStatus, 'accepted_at' | 'released_at' | 'exited_at' | 'arrived_at' | 'discharged_at'>
> = {
  accepted: 'accepted_at',
  released: 'released_at',
  exited: 'exited_at',
  arrived: 'arrived_at',
  discharged: 'discharged_at',
};

/** How the history names what the authority did (actor null: "Sandbox authority"). */
const AUDIT_ACTION: Readonly<Record<SandboxAnswer['kind'], string>> = {
  accepted: 'accepted',
  rejected: 'rejected',
  under_control: 'selected for control',
  released: 'released',
  not_released: 'not released',
  exit_confirmed: 'exit confirmed',
  arrived: 'arrived',
  discharged: 'discharged',
  amendment_accepted: 'amendment accepted',
  amendment_rejected: 'amendment rejected',
  cancellation_accepted: 'cancelled',
  cancellation_rejected: 'cancellation refused',
};

/** The step each status waits for next in the main chain, if any. */
function nextStep(type: Declaration['type'], status: DeclarationStatus): SandboxStep | undefined {
  if (status === 'accepted') return 'control';
  if (status === 'under_control') return 'release';
  if (status === 'released' && type === 'export') return 'exit';
  if (status === 'released' && type === 'transit') return 'arrival';
  if (status === 'arrived') return 'discharge';
  return undefined;
}

/** The status a step of the main chain answers from; a declaration elsewhere has moved on (idempotent). */
const STEP_FROM: Readonly<Record<Exclude<SandboxStep, 'answer'>, DeclarationStatus>> = {
  accept: 'lodged',
  control: 'accepted',
  release: 'under_control',
  exit: 'released',
  arrival: 'released',
  discharge: 'arrived',
};

export interface SandboxAuthority extends CustomsGateway {
  /** Registers the `customs.sandbox` job handler on the queue. */
  register(jobs: Jobs): void;
  /** Runs one step now, as the job does (tests and the demo call it; the queue calls it through the job). */
  runStep(job: SandboxJob): Promise<void>;
  /**
   * Applies one received answer under the row lock, exactly as a step does: the seam where a real
   * gateway's incoming messages would enter; tests feed it answers the sandbox itself never makes.
   */
  receive(job: SandboxJob, answer: SandboxAnswer): Promise<boolean>;
}

/**
 * The shipped customs gateway (issue 12, ADR 0033): nothing leaves the building. Lodging, amending and
 * cancelling store the sent message and queue a `customs.sandbox` job; each job answers one step after
 * its delay, in one transaction under the declaration's row lock, and queues the next.
 */
export function createSandboxAuthority(
  db: Db,
  deps: { events: RecordEvents; settings: SandboxConfig; jobs?: Jobs; log?: FastifyBaseLogger },
): SandboxAuthority {
  const { events, settings, log } = deps;

  async function queue(trx: Db, job: SandboxJob): Promise<void> {
    const seconds = settings.delays[job.step];
    await enqueue(trx, 'customs.sandbox', job, {
      runAt: new Date(Date.now() + seconds * 1000),
      // One waiting job per declaration, step and message: a repeated enqueue replaces, never doubles.
      jobKey: `customs.sandbox:${job.declarationId}:${job.step}:${job.messageId}`,
    });
  }

  async function mustLoad(trx: Db, id: string): Promise<Declaration> {
    const d = await loadDeclaration(trx, id);
    if (!d) throw new Error(`declaration ${id} not found`);
    return d;
  }

  async function lockRow(trx: Db, id: string) {
    return trx
      .selectFrom('declarations')
      .select([
        'id',
        'type',
        'status',
        'lrn',
        'mrn',
        'customer_id',
        'office_of_lodgement',
        'office_of_destination',
        'pending_request',
        'pending_amendment',
        'lodged_at',
      ])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  }
  type Row = NonNullable<Awaited<ReturnType<typeof lockRow>>>;

  async function answered(trx: Db, job: SandboxJob): Promise<boolean> {
    const hit = await trx
      .selectFrom('declaration_messages')
      .select('id')
      .where('declaration_id', '=', job.declarationId)
      .where('direction', '=', 'received')
      .where(sql<string>`payload->>'inReplyTo'`, '=', job.messageId)
      .where(sql<string>`payload->>'step'`, '=', job.step)
      // A refused (malformed) answer answered nothing: a sound one may still come.
      .where(sql<boolean>`payload->'error'`, 'is', null)
      .executeTakeFirst();
    return hit !== undefined;
  }

  /** What the authority answers to this step now, or undefined when the step no longer fits. */
  async function decide(trx: Db, row: Row, job: SandboxJob): Promise<SandboxAnswer | undefined> {
    if (job.step === 'answer') return answerRequest(trx, row, job);
    if (row.status !== STEP_FROM[job.step]) return undefined;
    switch (job.step) {
      case 'accept': {
        const d = await mustLoad(trx, row.id);
        // The same rule function the API ran before sending (ADR 0047): it fails here only if the
        // content changed meanwhile.
        const rules: SandboxRule[] = authorityProblems(d);
        if (rules.length > 0) return { kind: 'rejected', rules };
        const mrn = await allocateMrn(trx, {
          type: d.type,
          officeOfLodgement: d.officeOfLodgement as string,
          lodgedAt: row.lodged_at ?? new Date(),
        });
        return { kind: 'accepted', mrn };
      }
      case 'control':
        return selectedForControl(settings.seed, row.lrn, settings.controlPercent)
          ? { kind: 'under_control' }
          : { kind: 'released' };
      case 'release':
        return refusedRelease(settings.seed, row.lrn, settings.notReleasedPercent)
          ? { kind: 'not_released' }
          : { kind: 'released' };
      case 'exit':
        return row.type === 'export' ? { kind: 'exit_confirmed' } : undefined;
      case 'arrival':
        return row.type === 'transit' ? { kind: 'arrived' } : undefined;
      case 'discharge':
        return { kind: 'discharged' };
    }
  }

  async function answerRequest(trx: Db, row: Row, job: SandboxJob): Promise<SandboxAnswer | undefined> {
    const request = await trx
      .selectFrom('declaration_messages')
      .select('kind')
      .where('id', '=', job.messageId)
      .where('declaration_id', '=', row.id)
      .executeTakeFirst();
    if (request?.kind === 'amendment_request') {
      if (row.pending_request !== 'amendment') return undefined;
      const refusal = amendmentRefusal(row.status as DeclarationStatus);
      if (refusal) return { kind: 'amendment_rejected', rules: [refusal] };
      const current = await mustLoad(trx, row.id);
      const changes = (row.pending_amendment ?? {}) as Partial<Declaration>;
      const rules = authorityProblems({ ...current, ...changes } as Declaration);
      return rules.length > 0 ? { kind: 'amendment_rejected', rules } : { kind: 'amendment_accepted' };
    }
    if (request?.kind === 'cancellation_request') {
      if (row.pending_request !== 'cancellation') return undefined;
      const refusal = cancellationRefusal(row.type as Declaration['type'], row.status as DeclarationStatus);
      return refusal
        ? { kind: 'cancellation_rejected', rules: [refusal] }
        : { kind: 'cancellation_accepted' };
    }
    return undefined;
  }

  /**
   * Applies `answer` to the locked row: the received message, the status (only along
   * AUTHORITY_TRANSITIONS), MRN, stamps, rejection rules, the amendment, the audit and the next step.
   * False when nothing was applied (the answer does not fit the declaration's state any more).
   */
  async function apply(
    trx: Db,
    row: Row,
    job: SandboxJob,
    answer: SandboxAnswer,
  ): Promise<'applied' | 'refused' | 'skipped'> {
    const from = row.status as DeclarationStatus;
    const to = STATUS_OF[answer.kind];
    if (to && !AUTHORITY_TRANSITIONS[from].includes(to)) return 'skipped';
    const payload = { inReplyTo: job.messageId, step: job.step };

    if (answer.kind === 'accepted') {
      const problem = mrnProblem(answer.mrn, row.type as Declaration['type']);
      if (problem) {
        // A malformed answer is not applied: it is kept in the log for whoever looks into it.
        log?.error(
          { declarationId: row.id, mrn: answer.mrn, problem },
          'sandbox: answer with an invalid MRN refused',
        );
        await insertMessage(trx, {
          declarationId: row.id,
          direction: 'received',
          kind: 'accepted',
          summary: summaries.refusedMrn(answer.mrn, problem),
          mrn: null,
          rules: [{ code: 'SBX-E001', text: `MRN ${answer.mrn} refused: ${problem}`, field: 'mrn' }],
          payload: { ...payload, error: true, mrn: answer.mrn },
          createdBy: null,
        });
        return 'refused';
      }
    }

    const rules = 'rules' in answer ? answer.rules : [];
    const mrn = answer.kind === 'accepted' ? answer.mrn : row.mrn;
    const now = new Date();
    const changes: Change[] = [];
    if (to) changes.push({ field: 'status', from, to });
    if (mrn !== row.mrn) changes.push({ field: 'mrn', from: row.mrn, to: mrn });

    const isRequestAnswer = job.step === 'answer' || answer.kind === 'cancellation_accepted';
    if (answer.kind === 'amendment_accepted') {
      const before = await mustLoad(trx, row.id);
      const amendment = (row.pending_amendment ?? {}) as Record<string, unknown>;
      const fields = Object.keys(amendment).filter((k) => k !== 'items');
      changes.push(...diff(before as unknown as Record<string, unknown>, amendment, fields));
      if ('items' in amendment)
        changes.push({
          field: 'items',
          from: before.items.length,
          to: (amendment.items as unknown[]).length,
        });
      await writeDeclarationContent(trx, row.id, amendment as Parameters<typeof writeDeclarationContent>[2]);
    }
    if (isRequestAnswer && row.pending_request)
      changes.push({ field: 'pendingRequest', from: row.pending_request, to: null });

    await insertMessage(trx, {
      declarationId: row.id,
      direction: 'received',
      kind: answer.kind,
      summary: summaryOf(answer, row),
      mrn,
      rules,
      payload,
      createdBy: null,
    });
    const stamp = to ? STAMP_OF[to] : undefined;
    await trx
      .updateTable('declarations')
      .set((eb) => ({
        ...(to ? { status: to } : {}),
        ...(stamp ? { [stamp]: now } : {}),
        ...(answer.kind === 'accepted' ? { mrn: answer.mrn, rejection: JSON.stringify([]) } : {}),
        ...(answer.kind === 'rejected' ? { rejection: JSON.stringify(rules) } : {}),
        ...(isRequestAnswer ? { pending_request: null, pending_amendment: null } : {}),
        last_message_kind: answer.kind,
        last_message_at: now,
        version: eb('version', '+', 1),
        updated_at: now,
      }))
      .where('id', '=', row.id)
      .execute();
    await writeAudit(trx, {
      kind: 'declaration',
      id: row.id,
      action: AUDIT_ACTION[answer.kind],
      actorId: null,
      changes,
    });
    // Only the main chain moves on (a request's answer either leaves the status or ends it: cancelled).
    const next = to ? nextStep(row.type as Declaration['type'], to) : undefined;
    if (next) await queue(trx, { declarationId: row.id, step: next, messageId: job.messageId });
    return 'applied';
  }

  function summaryOf(answer: SandboxAnswer, row: Row): string {
    switch (answer.kind) {
      case 'accepted':
        return summaries.accepted(answer.mrn);
      case 'rejected':
      case 'amendment_rejected':
      case 'cancellation_rejected':
        return summaries[answer.kind](answer.rules);
      case 'arrived':
        return summaries.arrived(row.office_of_destination);
      default:
        return summaries[answer.kind]();
    }
  }

  /** One step in its own transaction; the hub hears of it after the commit. */
  async function step(job: SandboxJob, given?: SandboxAnswer): Promise<boolean> {
    const done = await inTransaction(db, async (trx) => {
      const row = await lockRow(trx, job.declarationId);
      if (!row) return undefined; // deleted meanwhile: nothing to answer
      if (await answered(trx, job)) return undefined;
      const answer = given ?? (await decide(trx, row, job));
      if (!answer) return undefined;
      const outcome = await apply(trx, row, job, answer);
      return outcome === 'skipped' ? undefined : { row, outcome };
    });
    // A refused answer changed only the message log, which open timelines show too.
    if (done)
      events.publish({
        kind: 'declaration',
        id: done.row.id,
        action: 'updated',
        partyIds: [done.row.customer_id],
      });
    return done?.outcome === 'applied';
  }

  async function send(
    trx: Db,
    request: GatewayRequest,
    kind: 'lodge' | 'amendment_request' | 'cancellation_request',
    step: SandboxStep,
    extra: { reason?: string; proposed?: unknown },
  ): Promise<void> {
    const d = await mustLoad(trx, request.declarationId);
    const ref = d.mrn ?? d.lrn;
    const summary =
      kind === 'lodge'
        ? summaries.lodge(d.type, d.lrn)
        : kind === 'amendment_request'
          ? summaries.amendmentRequest(ref, extra.reason ?? '')
          : summaries.cancellationRequest(ref, extra.reason ?? '');
    // The notes are the forwarder's internal ones: no part of what an authority receives.
    const { allowedActions: _a, notes: _n, ...content } = d;
    const proposed =
      extra.proposed && typeof extra.proposed === 'object'
        ? { ...(extra.proposed as Record<string, unknown>), notes: undefined }
        : extra.proposed;
    // A transit goes as the IE015 NCTS receives (issue 26 item 6), checked against the phase 6 schema
    // first: a message the schema refuses is not sent, and nothing of the lodgement is written.
    const message = kind === 'lodge' && d.type === 'transit' ? await transitMessage(d) : undefined;
    const messageId = await insertMessage(trx, {
      declarationId: d.id,
      direction: 'sent',
      kind,
      summary,
      mrn: d.mrn,
      payload:
        kind === 'lodge'
          ? { ...content, ...(message ? { ie015: message } : {}) }
          : kind === 'amendment_request'
            ? { reason: extra.reason, proposed }
            : { reason: extra.reason },
      createdBy: request.userId,
    });
    await trx
      .updateTable('declarations')
      .set({ last_message_kind: kind, last_message_at: new Date() })
      .where('id', '=', d.id)
      .execute();
    await queue(trx, { declarationId: d.id, step, messageId });
  }

  /** The IE015 of a transit, valid against its schema, or a 422 naming what the schema refused. */
  async function transitMessage(d: Declaration): Promise<string> {
    const xml = ie015(d, envelopeOf(d, randomUUID().replaceAll('-', ''), new Date()));
    const check = await validateNcts(xml);
    if (!check.valid)
      throw problems.unprocessable(
        `${d.lrn} cannot be sent: its IE015 message fails the NCTS phase 6 schema (${check.errors[0] ?? 'invalid'}).`,
        check.errors.slice(0, 10).map((message) => ({ field: 'items', message, code: 'ncts-schema' })),
      );
    return xml;
  }

  const authority: SandboxAuthority = {
    label: SANDBOX_LABEL,
    sandbox: true,
    lodge: (trx, request) => send(trx, request, 'lodge', 'accept', {}),
    amend: (trx, request) =>
      send(trx, request, 'amendment_request', 'answer', {
        reason: request.reason,
        proposed: request.proposed,
      }),
    cancel: (trx, request) =>
      send(trx, request, 'cancellation_request', 'answer', { reason: request.reason }),
    register(jobs) {
      jobs.register('customs.sandbox', async (job) => {
        await step(job);
      });
    },
    async runStep(job) {
      await step(job);
    },
    receive: (job, answer) => step(job, answer),
  };
  if (deps.jobs) authority.register(deps.jobs);
  return authority;
}
