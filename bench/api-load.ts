/**
 * The load generator of `bench:api`, run as its own process: C concurrent loops issue GET requests
 * (or POST new DCSA events in batches, with an integration key) for D seconds and record every
 * latency. Prints one JSON line with percentiles and throughput.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { dcsaEvents } from './dcsa-events.ts';

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

export function summarize(latencies: number[], errors: number, seconds: number): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
  return {
    requests: sorted.length,
    errors,
    rps: Math.round(sorted.length / seconds),
    p50: +pct(50).toFixed(2),
    p95: +pct(95).toFixed(2),
    p99: +pct(99).toFixed(2),
  };
}

/** Runs `work` in `concurrency` loops for `seconds` (after a short warm-up) and times each call. */
export async function drive(
  work: (i: number) => Promise<boolean>,
  concurrency: number,
  seconds: number,
): Promise<LoadResult> {
  const warmupEnd = performance.now() + 1000;
  while (performance.now() < warmupEnd) await work(0).catch(() => false);
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const ok = await work(counter++).catch(() => false);
        if (ok) latencies.push(performance.now() - t0);
        else errors++;
      }
    }),
  );
  return summarize(latencies, errors, (performance.now() - start) / 1000);
}

// Child mode: `tsx bench/api-load.ts '<json>'` with { urls, token, concurrency, seconds } for GETs,
// { urls: [ingest url], apiKey, ingest: { batch, containers }, concurrency, seconds } for event ingest, or
// { urls: [invoices url], token, issue: { draftsFile }, concurrency, seconds } to issue drafts (each once;
// the file holds `{ id, version }[]`, too many for a command line); `issue.path` and `issue.body` post
// another action instead (`transitions` with `{ to: 'released' }` releases draft shipments).
if (process.argv[1]?.endsWith('api-load.ts') && process.argv[2]) {
  const cfg = JSON.parse(process.argv[2]) as {
    urls: string[];
    token?: string;
    apiKey?: string;
    ingest?: { batch: number; containers: string[] };
    issue?: { draftsFile: string; path?: string; body?: Record<string, unknown> };
    concurrency: number;
    seconds: number;
  };
  const ingest = cfg.ingest;
  const drafts = cfg.issue
    ? (JSON.parse(readFileSync(cfg.issue.draftsFile, 'utf8')) as { id: string; version: number }[])
    : [];
  let nextDraft = 0;
  const headers: Record<string, string> = cfg.apiKey
    ? { 'x-api-key': cfg.apiKey, 'content-type': 'application/json' }
    : { authorization: `Bearer ${cfg.token}` };
  const result = await drive(
    async (i) => {
      const url = cfg.urls[i % cfg.urls.length] as string;
      if (cfg.issue) {
        // Every call issues the next draft, warm-up included: a draft is issued once.
        const draft = drafts[nextDraft++];
        if (!draft) throw new Error('out of drafts');
        const res = await fetch(`${url}/${draft.id}/${cfg.issue.path ?? 'issue'}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ ...cfg.issue.body, version: draft.version }),
        });
        await res.arrayBuffer();
        return res.ok;
      }
      const res = ingest
        ? await fetch(url, {
            method: 'POST',
            headers,
            body: JSON.stringify(
              ingest.batch === 1
                ? dcsaEvents(1, ingest.containers, i)[0]
                : dcsaEvents(ingest.batch, ingest.containers, i),
            ),
          })
        : await fetch(url, { headers });
      const body = await res.arrayBuffer();
      // An ingest that answers 200 but stored nothing is not a success.
      if (ingest && res.ok) {
        const created = (JSON.parse(Buffer.from(body).toString()) as { created: number }).created;
        return created === ingest.batch;
      }
      return res.ok;
    },
    cfg.concurrency,
    cfg.seconds,
  );
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
