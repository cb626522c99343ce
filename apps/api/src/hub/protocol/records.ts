/** The record separator that ends every JSON record of the SignalR text protocol. */
export const RS = '\u001e';

/**
 * Splits a payload (a WebSocket frame, a POST body) into its records. Every record must be complete
 * (end in 0x1E); a payload may carry several. Returns undefined for an incomplete payload.
 */
export function splitRecords(payload: string): string[] | undefined {
  if (payload.length === 0) return [];
  if (!payload.endsWith(RS)) return undefined;
  const parts = payload.split(RS);
  parts.pop(); // the empty string after the last separator
  return parts;
}

export function toRecord(message: unknown): string {
  return JSON.stringify(message) + RS;
}
