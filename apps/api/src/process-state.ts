/**
 * Whether this process has been asked to stop (a signal, a fault): set by lifecycle.ts, read by code
 * that must tell an expected end (connections ended by the stop) from a failure worth an error line.
 */
let stopping = false;

export function markStopping(): void {
  stopping = true;
}

export function isStopping(): boolean {
  return stopping;
}
