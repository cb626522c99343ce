/** Hub protocol message types (HubProtocol.md, JSON protocol version 1). */
export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  Ack: 8,
  Sequence: 9,
} as const;

export interface InvocationMessage {
  type: 1;
  invocationId?: string;
  target: string;
  arguments: unknown[];
  streamIds?: string[];
}
export interface StreamItemMessage {
  type: 2;
  invocationId: string;
  item: unknown;
}
export interface CompletionMessage {
  type: 3;
  invocationId: string;
  result?: unknown;
  error?: string;
}
export interface StreamInvocationMessage {
  type: 4;
  invocationId: string;
  target: string;
  arguments: unknown[];
  streamIds?: string[];
}
export interface CancelInvocationMessage {
  type: 5;
  invocationId: string;
}
export interface PingMessage {
  type: 6;
}
export interface CloseMessage {
  type: 7;
  error?: string;
  allowReconnect?: boolean;
}

export type HubMessage =
  | InvocationMessage
  | StreamItemMessage
  | CompletionMessage
  | StreamInvocationMessage
  | CancelInvocationMessage
  | PingMessage
  | CloseMessage
  | { type: 8 | 9 };

export class ProtocolError extends Error {}

const isString = (v: unknown): v is string => typeof v === 'string';

/** Parses one record into a hub message, checking the fields each type needs. */
export function parseMessage(text: string): HubMessage {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ProtocolError('Message is not valid JSON.');
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ProtocolError('Message is not a JSON object.');
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case MessageType.Invocation:
    case MessageType.StreamInvocation: {
      if (!isString(m.target)) throw new ProtocolError("Missing required property 'target'.");
      if (!Array.isArray(m.arguments)) throw new ProtocolError("Missing required property 'arguments'.");
      if (m.type === MessageType.StreamInvocation && !isString(m.invocationId)) {
        throw new ProtocolError("Missing required property 'invocationId'.");
      }
      if (m.invocationId !== undefined && !isString(m.invocationId))
        throw new ProtocolError("'invocationId' must be a string.");
      if (m.streamIds !== undefined && !(Array.isArray(m.streamIds) && m.streamIds.every(isString))) {
        throw new ProtocolError("'streamIds' must be an array of strings.");
      }
      return m as unknown as InvocationMessage | StreamInvocationMessage;
    }
    case MessageType.StreamItem:
    case MessageType.Completion:
    case MessageType.CancelInvocation:
      if (!isString(m.invocationId)) throw new ProtocolError("Missing required property 'invocationId'.");
      return m as unknown as HubMessage;
    case MessageType.Ping:
    case MessageType.Close:
    case MessageType.Ack:
    case MessageType.Sequence:
      return m as unknown as HubMessage;
    default:
      throw new ProtocolError(`Unknown message type '${String(m.type)}'.`);
  }
}

/** The handshake request: `{"protocol":"json","version":1}`. Returns an error text, or undefined when accepted. */
export function checkHandshake(text: string): string | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return 'Handshake request is not valid JSON.';
  }
  const h = raw as { protocol?: unknown; version?: unknown } | null;
  if (!h || typeof h !== 'object' || typeof h.protocol !== 'string')
    return 'Handshake request is missing the protocol.';
  if (h.protocol !== 'json') return `The protocol '${h.protocol}' is not supported.`;
  if (h.version !== 1)
    return `The server does not support version ${String(h.version)} of the 'json' protocol.`;
  return undefined;
}
