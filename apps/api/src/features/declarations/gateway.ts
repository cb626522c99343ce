import type { Db } from '../../db/database.ts';

/**
 * The one way a declaration reaches a customs authority (issue 12). Every call runs inside the caller's
 * transaction: it stores the sent message in the declaration's message log and queues the exchange on
 * the job queue, so a rollback sends nothing and a committed request is answered even across restarts.
 * Answers never come back as return values: they arrive later as received messages, which the gateway
 * applies to the declaration (status, MRN, rejection rules) and announces on the hub.
 */
export interface CustomsGateway {
  /** Shown on every screen, SAD page and message of a declaration this gateway handles. */
  readonly label: string;
  /** True for the shipped sandbox: nothing is lodged with a real authority. */
  readonly sandbox: boolean;
  /** The declaration has just become `lodged` in `trx`; send it. */
  lodge(trx: Db, request: GatewayRequest): Promise<void>;
  /** An amendment of a declaration with an MRN; `proposed` is the whole content after the change. */
  amend(trx: Db, request: GatewayRequest & { reason: string; proposed: unknown }): Promise<void>;
  /** A request to invalidate (cancel) a lodged declaration. */
  cancel(trx: Db, request: GatewayRequest & { reason: string }): Promise<void>;
}

export interface GatewayRequest {
  declarationId: string;
  /** The user who asked (null for the system). */
  userId: string | null;
}
