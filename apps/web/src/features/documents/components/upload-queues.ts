import type { DocumentRecordType } from '@fvg/contracts';
import { UploadQueue, type UploadQueueOptions } from './upload-queue.ts';

/*
 * The upload queues of the page, outside React and keyed by record: an upload zone that goes away
 * (a dialog closed, a tab switched) leaves its uploads running, and a zone for the same record
 * mounted again shows them. While anything is still sending or waiting, leaving the page asks first.
 */

const queues = new Map<string, UploadQueue>();
let warning = false;

const isActive = (queue: UploadQueue) =>
  queue.getSnapshot().some((item) => item.status === 'queued' || item.status === 'uploading');

/** Uploads are still sending or waiting somewhere on the page. */
export const uploadsActive = (): boolean => [...queues.values()].some(isActive);

function warnOnUnload(event: BeforeUnloadEvent): string {
  event.preventDefault();
  // Older browsers show the prompt only when returnValue is set.
  const message = 'Uploads are still running; leaving the page cancels them.';
  event.returnValue = message;
  return message;
}

/** Keeps the beforeunload warning registered exactly while uploads are active. */
function syncWarning(): void {
  if (typeof window === 'undefined') return;
  const active = uploadsActive();
  if (active === warning) return;
  warning = active;
  if (active) window.addEventListener('beforeunload', warnOnUnload);
  else window.removeEventListener('beforeunload', warnOnUnload);
}

/**
 * The queue of one record, made on first use. Later calls hand the same queue back and update its
 * send / onUploaded / limit (the zone mounted last decides them).
 */
export function uploadQueueFor(
  recordType: DocumentRecordType,
  recordId: string,
  options: UploadQueueOptions,
): UploadQueue {
  const key = `${recordType}:${recordId}`;
  let queue = queues.get(key);
  if (queue) {
    queue.configure(options);
    return queue;
  }
  queue = new UploadQueue(options);
  queue.subscribe(syncWarning);
  queues.set(key, queue);
  return queue;
}

/** Forgets every queue, aborting what still runs (tests start from an empty page). */
export function resetUploadQueues(): void {
  for (const queue of queues.values()) queue.abortAll();
  queues.clear();
  syncWarning();
}
