import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order Vitest starts test files in. Vitest's own order (a cached duration, else the larger file
 * first) runs the projects one after another: every API file, then every web file. On two cores that
 * leaves the CPU idle while API files wait for PostgreSQL and the processes they start, then
 * overloaded by the web files' jsdom work. So:
 *  - the projects' files take turns (one API file, one web file, …), each project in Vitest's order;
 *  - the files that start processes (`node:child_process`: the app, the CLI, PostgreSQL crashes) are
 *    the longest, mostly waiting, but each start is a burst of CPU with timeouts around it: they are
 *    spread evenly over the first two thirds of the run, not started together, and none comes last.
 */
export function startsProcesses(file: string): boolean {
  return /from\s+['"]node:child_process['"]/.test(readFileSync(file, 'utf8'));
}

export function interleave<T>(files: T[], project: (file: T) => string, spread: (file: T) => boolean): T[] {
  const spaced = files.filter(spread);
  const queues = new Map<string, T[]>();
  for (const file of files) {
    if (spread(file)) continue;
    const name = project(file);
    queues.set(name, [...(queues.get(name) ?? []), file]);
  }
  const turns: T[] = [];
  while ([...queues.values()].some((q) => q.length))
    for (const queue of queues.values()) {
      const next = queue.shift();
      if (next !== undefined) turns.push(next);
    }
  // The k-th spaced file goes before the file at k/n of the first two thirds of the others.
  const gap = (turns.length * 2) / 3 / Math.max(spaced.length, 1);
  const order: T[] = [];
  let k = 0;
  turns.forEach((file, i) => {
    while (k < spaced.length && i >= Math.floor(k * gap)) order.push(spaced[k++] as T);
    order.push(file);
  });
  return [...order, ...spaced.slice(k)];
}

export default class ProcessesSpread extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    return interleave(
      ordered,
      (spec) => spec.project.name,
      (spec) => startsProcesses(spec.moduleId),
    );
  }
}
